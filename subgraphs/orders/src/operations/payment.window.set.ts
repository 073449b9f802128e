import { storeOfTenant } from '@backoffice/contracts';
import { assertRoom, conflict, lockCollection, t } from '@backoffice/platform';
import { ORDER_LIMITS } from '../domain/order-limits';
import { refreshPaymentExpiry } from '../domain/payment-expiry';
import { defineOrdersOperation } from '../ports';
import { KEY_PATTERN, WINDOW_MAX } from '../domain/payments';

export const paymentWindowSet = defineOrdersOperation({
  name: 'payment.window.set',
  kind: 'command',
  access: 'internal',
  scope: 'payments.write',
  summary: "Sets (or clears, with null) a store's override of a payment method's declared window; orders awaiting that method follow it (extension).",
  input: t.object({
    store_id: t.id("the store's id or handle"),
    app_id: t.id(),
    method: t.string({ minLength: 1, maxLength: 64, pattern: KEY_PATTERN }),
    reservation_window_seconds: t.nullable(t.integer({ minimum: 1, maximum: WINDOW_MAX })),
  }),
  result: t.object({ store_id: t.string(), app_id: t.string(), method: t.string(), reservation_window_seconds: t.nullable(t.integer()) }),
  events: [],
  async handler({ input, actor, db, sql, ports }) {
    const tenantId = actor.tenant_id;
    const [app] = await sql.rows<{
      id: string;
      methods: Array<{ method: string }>;
    }>(`SELECT id, methods FROM orders.payment_app WHERE id = $1 AND tenant_id = $2`, [input.app_id, tenantId]);
    if (!app) throw conflict(`payment app ${input.app_id} does not exist in this tenant`, { reason: 'not_found', field: 'app_id' });
    if (!app.methods.some((m) => m.method === input.method))
      throw conflict(`payment app ${input.app_id} has no method ${input.method}`, { reason: 'not_found', field: 'method' });
    // The id from here on, whether the caller named the store by id or handle: rows and events carry the id.
    const storeId = await storeOfTenant(ports.stores, tenantId, input.store_id);
    if (input.reservation_window_seconds === null) {
      await sql.run(`DELETE FROM orders.payment_window WHERE store_id = $1 AND app_id = $2 AND method = $3 AND tenant_id = $4`, [
        storeId,
        app.id,
        input.method,
        tenantId,
      ]);
    } else {
      // Changing an override keeps the count: the limit is checked once a new one is written.
      await lockCollection(db, `orders.payment_window:${app.id}`);
      const [{ inserted }] = await sql.rows<{ inserted: boolean }>(
        `INSERT INTO orders.payment_window (tenant_id, store_id, app_id, method, reservation_window_seconds) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (store_id, app_id, method) DO UPDATE SET reservation_window_seconds = $5 RETURNING xmax = 0 AS inserted`,
        [tenantId, storeId, app.id, input.method, input.reservation_window_seconds],
      );
      if (inserted) {
        await assertRoom(db, ORDER_LIMITS.paymentWindows, {
          sql: 'SELECT count(*)::int AS n FROM orders.payment_window WHERE app_id = $1',
          params: [app.id],
          adding: 0,
        });
      }
    }
    await refreshPaymentExpiry(db, tenantId, { storeId: storeId, appId: app.id, method: input.method });
    return { store_id: storeId, app_id: app.id, method: input.method, reservation_window_seconds: input.reservation_window_seconds };
  },
});
