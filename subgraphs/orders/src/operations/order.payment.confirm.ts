import { conflict, t, sqlOf } from '@backoffice/platform';
import { lockOrder, markPaid } from '../domain/orders';
import { MACHINES, type StateOf } from '../domain/states';
import { inventoryCommitted, orderPaid, orderStockUncommitted, paymentOrphaned } from '../events';
import { defineOrdersOperation } from '../ports';

interface Attempt {
  id: string;
  status: StateOf<'payment_attempt'>;
  app_key: string;
  method: string;
}

export const orderPaymentConfirm = defineOrdersOperation({
  name: 'order.payment.confirm',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary:
    'A payment app reports a payment: the attempt is marked confirming (committed at once, so expiry spares the ' +
    'order), the app verifies it, then the order is paid as by order.mark_paid. For an order already cancelled, the ' +
    'payment is recorded as orphaned (extension).',
  input: t.object({ order_id: t.id(), provider_reference: t.optional(t.string({ minLength: 1, maxLength: 200 })) }),
  result: t.object({ order_id: t.string(), status: MACHINES.order.enum(), orphaned: t.boolean() }),
  events: [orderPaid, inventoryCommitted, orderStockUncommitted, paymentOrphaned],
  async handler({ input, actor, db, sql, emit, ports, separately }) {
    const tenantId = actor.tenant_id;
    const reference = input.provider_reference ?? null;
    const latest = `SELECT a.id, a.status, a.method, app.app_key FROM orders.payment_attempt a JOIN orders.payment_app app ON app.id = a.app_id
                    WHERE a.order_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT 1`;
    // Step 1, committed at once: from here until the verification ends, expiry spares the order.
    const first = await separately(async (tx) => {
      const order = await lockOrder(tx, tenantId, input.order_id);
      const [attempt] = await sqlOf(tx).rows<Attempt>(latest, [order.id]);
      if (!attempt) throw conflict(`order ${order.id} has no payment attempt to confirm`, { reason: 'illegal_transition' });
      // A confirmation repeated while the attempt is still confirming (the first died midway) marks it
      // again: the CONFIRMING_TIMEOUT_SECONDS that expiry allows count from the latest one.
      if (order.status === 'pending_payment' && MACHINES.payment_attempt.can(attempt.status, 'confirming')) {
        await sqlOf(tx).run(
          `UPDATE orders.payment_attempt SET status = 'confirming', provider_reference = coalesce($2, provider_reference), updated_at = now() WHERE id = $1 AND status = ANY($3::text[])`,
          [attempt.id, reference, MACHINES.payment_attempt.sourcesOf('confirming')],
        );
      }
      return { status: order.status, attempt };
    });
    if (first.status === 'paid') return { order_id: input.order_id, status: 'paid' as const, orphaned: false };
    if (first.status === 'pending_payment') {
      const verified = await ports.payments.verify({
        app_key: first.attempt.app_key,
        method: first.attempt.method,
        order_id: input.order_id,
        provider_reference: reference,
      });
      if (!verified) {
        // Committed apart: the refusal below rolls this command back, and the attempt must not stay confirming.
        await separately((tx) =>
          sqlOf(tx).run(
            `UPDATE orders.payment_attempt SET status = 'failed', failure_reason = 'declined', updated_at = now() WHERE id = $1 AND status = 'confirming'`,
            [first.attempt.id],
          ),
        );
        throw conflict(`the payment app did not verify the payment of order ${input.order_id}`, { reason: 'payment_declined' });
      }
    }
    // Step 2, this command's transaction: paid, unless expiry got there first (then orphaned).
    const order = await lockOrder(db, tenantId, input.order_id);
    if (order.status !== 'cancelled') {
      await markPaid(db, order, emit);
      return { order_id: order.id, status: order.status, orphaned: false };
    }
    // Recorded once: a provider repeating its report (webhook retries) must not ask for a second refund.
    const [recorded] = await sql.returning<{ id: string }>(
      `UPDATE orders.payment_attempt SET orphaned_at = now(), provider_reference = coalesce($2, provider_reference), updated_at = now() WHERE id = $1 AND orphaned_at IS NULL RETURNING id`,
      [first.attempt.id, reference],
    );
    if (recorded) emit(paymentOrphaned, { payment_attempt_id: first.attempt.id, order_id: order.id, provider_reference: reference });
    return { order_id: order.id, status: 'cancelled' as const, orphaned: true };
  },
});
