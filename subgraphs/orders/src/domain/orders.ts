import { conflict, type EventDeclaration, type EventPayload, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { inventoryCommitted, inventoryReleased, orderCancelled, orderPaid, orderStockUncommitted, paymentAttemptFailed } from '../events';
import { MACHINES } from './states';
import { lockReservation, lockReservations, settle } from './stock';
import type { Order } from '../entities';

export type OrderRow = Pick<
  Order,
  'id' | 'tenant_id' | 'store_id' | 'status' | 'currency' | 'total_amount' | 'shipping_amount' | 'customer' | 'coupon_id' | 'reservation_id'
>;

/** An emit that takes at least the events `D` (a handler's emit, which takes its operation's). */
type EmitOf<D extends EventDeclaration> = <V extends D>(event: V, payload: EventPayload<V>) => void;
type PaidEvents = typeof inventoryCommitted | typeof orderStockUncommitted | typeof orderPaid;
type CancelEvents = typeof inventoryReleased | typeof orderCancelled | typeof paymentAttemptFailed;

/** An order of the tenant, locked for the change a command makes; a conflict when there is none. */
export async function lockOrder(db: EntityManager, tenantId: string, orderId: string): Promise<OrderRow> {
  const [row] = await sqlOf(db).rows<OrderRow>(
    `SELECT id, tenant_id, store_id, status, currency, total_amount, shipping_amount, customer, coupon_id, reservation_id FROM orders."order" ` +
      'WHERE id = $1 AND tenant_id = $2 FOR UPDATE',
    [orderId, tenantId],
  );
  if (!row) throw conflict(`order ${orderId} does not exist in this tenant`, { reason: 'not_found', field: 'order_id' });
  return row;
}

/** The order a hold belongs to, if any (holds from inventory.reserve have none). */
export async function orderOfReservation(db: EntityManager, reservationId: string): Promise<string | null> {
  const [order] = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM orders."order" WHERE reservation_id = $1`, [reservationId]);
  return order?.id ?? null;
}

const customerOf = (order: OrderRow) => ({ email: order.customer.email, ...(order.customer.name ? { name: order.customer.name } : {}) });

/**
 * pending_payment → paid (order.mark_paid, a confirmed payment): the hold is committed, or, when it
 * was released meanwhile, the order is paid anyway and order.stock_uncommitted says so. Answers
 * false for an order already paid (no change, no events); a cancelled order is a conflict.
 */
export async function markPaid(db: EntityManager, order: OrderRow, emit: EmitOf<PaidEvents>): Promise<boolean> {
  if (MACHINES.order.assertMove(order.id, order.status, 'paid') === 'same') return false;
  const reservation = await lockReservation(db, order.tenant_id, order.reservation_id);
  if (reservation.status === 'active') {
    await settle(db, [reservation], 'committed');
    emit(inventoryCommitted, { reservation_id: reservation.id, warehouse_id: reservation.warehouse_id, items: reservation.items, order_id: order.id });
  } else if (reservation.status !== 'committed') {
    emit(orderStockUncommitted, { order_id: order.id, reservation_id: reservation.id, reservation_status: reservation.status });
  }
  await sqlOf(db).run(
    `WITH a AS (UPDATE orders.payment_attempt SET status = 'succeeded', updated_at = now() WHERE order_id = $1 AND status = ANY($2::text[]))
     UPDATE orders."order" SET status = 'paid', paid_at = now(), updated_at = now(), payment_expiry = NULL, payment_due_at = NULL WHERE id = $1`,
    [order.id, MACHINES.payment_attempt.sourcesOf('succeeded')],
  );
  order.status = 'paid';
  emit(orderPaid, {
    order_id: order.id,
    store_id: order.store_id,
    currency: order.currency,
    total_amount: Number(order.total_amount),
    shipping_amount: Number(order.shipping_amount),
    customer: customerOf(order),
  });
  return true;
}

/**
 * pending_payment → cancelled (expiry, order.cancel), for a batch of locked orders in a few
 * statements: active holds released (a hold committed or released by id meanwhile is left as it
 * is), coupon uses returned, open (or confirming) payment attempts failed
 * with `attemptReason`. Orders already cancelled are left out (no change); a paid one is a conflict.
 * Returns the orders it cancelled.
 */
export async function cancelOrders(
  db: EntityManager,
  orders: readonly OrderRow[],
  reason: string,
  attemptReason: string,
  emit: EmitOf<CancelEvents>,
): Promise<OrderRow[]> {
  const cancelling = orders.filter((o) => o.status !== 'cancelled' && MACHINES.order.assertMove(o.id, o.status, 'cancelled') === 'move');
  if (!cancelling.length) return [];
  const tenantId = cancelling[0].tenant_id;
  const orderOf = new Map(cancelling.map((o) => [o.reservation_id, o.id]));
  // Only holds still active are released: one already settled by inventory.release or
  // inventory.commit stays as it is, and never blocks the order's cancellation.
  const holds = (await lockReservations(db, tenantId, [...orderOf.keys()])).filter((r) => r.status === 'active');
  const released = await settle(db, holds, 'released');
  const ids = cancelling.map((o) => o.id);
  const failed = await sqlOf(db).returning<{ id: string; order_id: string }>(
    `WITH c AS (UPDATE orders.coupon k SET uses = k.uses - n.uses FROM (SELECT coupon_id, count(*)::int AS uses FROM unnest($2::text[]) AS u(coupon_id) WHERE coupon_id IS NOT NULL GROUP BY 1) n
                WHERE k.id = n.coupon_id),
          o AS (UPDATE orders."order" SET status = 'cancelled', cancel_reason = $3, cancelled_at = now(), updated_at = now(), payment_expiry = NULL, payment_due_at = NULL
                WHERE id = ANY($1::text[]))
     UPDATE orders.payment_attempt SET status = 'failed', failure_reason = $4, updated_at = now() WHERE order_id = ANY($1::text[]) AND status = ANY($5::text[])
     RETURNING id, order_id`,
    [ids, cancelling.map((o) => o.coupon_id), reason, attemptReason, MACHINES.payment_attempt.sourcesOf('failed')],
  );
  for (const r of released) {
    emit(inventoryReleased, {
      reservation_id: r.id,
      warehouse_id: r.warehouse_id,
      items: r.items,
      reason: 'order_cancelled',
      order_id: orderOf.get(r.id) ?? null,
    });
  }
  for (const order of cancelling) {
    order.status = 'cancelled';
    emit(orderCancelled, { order_id: order.id, store_id: order.store_id, reason, customer: customerOf(order) });
  }
  for (const attempt of failed) emit(paymentAttemptFailed, { payment_attempt_id: attempt.id, order_id: attempt.order_id, reason: attemptReason });
  return cancelling;
}
