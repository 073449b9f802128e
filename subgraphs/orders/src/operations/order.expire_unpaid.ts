import { t } from '@backoffice/platform';
import { cancelOrders, type OrderRow } from '../domain/orders';
import { CONFIRMING_TIMEOUT_SECONDS } from '../domain/payments';
import { inventoryReleased, orderCancelled, paymentAttemptFailed } from '../events';
import { defineOrdersOperation } from '../ports';

/** The default of `limit` (the reference leaves it open): orders acted on per call. */
export const EXPIRE_DEFAULT_LIMIT = 100;
const EXPIRE_MAX_LIMIT = 1000;

export const orderExpireUnpaid = defineOrdersOperation({
  name: 'order.expire_unpaid',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary:
    'Cancels unpaid orders whose payment window ran out (at most `limit`, default 100, oldest due first), sparing ' +
    'those being confirmed (a confirmation pending for over 10 minutes no longer spares its order); counts ' +
    'windowless and predating orders. The first call in a tenant records when expiry started there. Safe and ' +
    'idempotent when called by hand.',
  input: t.object({ limit: t.optional(t.integer({ minimum: 1, maximum: EXPIRE_MAX_LIMIT, default: EXPIRE_DEFAULT_LIMIT })) }),
  result: t.object({
    // Both among the orders examined, at most `limit`.
    expired: t.array(t.object({ order_id: t.string(), store_id: t.string() }), { maxItems: EXPIRE_MAX_LIMIT }),
    spared: t.array(t.string(), { maxItems: EXPIRE_MAX_LIMIT }),
    examined: t.integer({ minimum: 0 }),
    windowless: t.integer({ minimum: 0 }),
    predating: t.integer({ minimum: 0 }),
  }),
  events: [orderCancelled, inventoryReleased, paymentAttemptFailed],
  async handler({ input, actor, db, sql, emit }) {
    const tenantId = actor.tenant_id;
    await sql.run(`INSERT INTO orders.expiry_start (tenant_id, started_at) VALUES ($1, now()) ON CONFLICT DO NOTHING`, [tenantId]);
    // Due orders, locked oldest due first (two runs at once: the second waits, then skips what the
    // first cancelled).
    const due = await sql.rows<OrderRow>(
      `SELECT o.id, o.tenant_id, o.store_id, o.status, o.currency, o.total_amount, o.shipping_amount, o.customer, o.coupon_id, o.reservation_id
       FROM orders."order" o
       WHERE o.tenant_id = $1 AND o.status = 'pending_payment' AND o.payment_expiry = 'timed' AND o.payment_due_at <= now()
       ORDER BY o.payment_due_at, o.id LIMIT $2 FOR UPDATE OF o`,
      [tenantId, input.limit ?? EXPIRE_DEFAULT_LIMIT],
    );
    // Their latest attempts, read once the locks are held: a confirmation marks its attempt
    // `confirming` while holding the order's lock, so this new statement sees every mark committed
    // before it. Those being confirmed are spared; one `confirming` for longer than
    // CONFIRMING_TIMEOUT_SECONDS is a confirmation that died midway and spares nothing.
    const confirmingIds = new Set(
      (
        await sql.rows<{ order_id: string }>(
          `SELECT a.order_id FROM orders.payment_attempt a
         WHERE a.status = 'confirming' AND a.order_id = ANY($1::text[]) AND a.updated_at > now() - $2::int * interval '1 second'
           AND NOT EXISTS (SELECT 1 FROM orders.payment_attempt b WHERE b.order_id = a.order_id AND (b.created_at, b.id) > (a.created_at, a.id))`,
          [due.map((o) => o.id), CONFIRMING_TIMEOUT_SECONDS],
        )
      ).map((a) => a.order_id),
    );
    const spared = due.filter((o) => confirmingIds.has(o.id));
    // Stale confirming attempts are failed with the open ones (cancelOrders fails both), reason `expired`.
    const expired = await cancelOrders(
      db,
      due.filter((o) => !confirmingIds.has(o.id)),
      'payment_expired',
      'expired',
      emit,
    );
    const counts = await sql.rows<{ payment_expiry: 'windowless' | 'predating'; n: number }>(
      `SELECT payment_expiry, count(*)::int AS n FROM orders."order" WHERE tenant_id = $1 AND status = 'pending_payment' AND payment_expiry <> 'timed' GROUP BY 1`,
      [tenantId],
    );
    const count = (kind: string) => counts.find((c) => c.payment_expiry === kind)?.n ?? 0;
    return {
      expired: expired.map((o) => ({ order_id: o.id, store_id: o.store_id })),
      spared: spared.map((o) => o.id),
      // The due orders looked at, and every waiting order that cannot expire (counted, not acted on).
      examined: due.length + count('windowless') + count('predating'),
      windowless: count('windowless'),
      predating: count('predating'),
    };
  },
});
