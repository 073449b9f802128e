import { conditions, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';

/**
 * Keeps each pending order's payment expiry up to date: one function, called by every command that
 * changes what it depends on (the latest payment attempt, the app's methods and installation, the
 * store's window override, the tenant's expiry start). An order awaiting payment is
 *   - `windowless`: no payment intent, its app uninstalled, or no window for its method: never expires;
 *   - `predating`: its latest intent was born before expiry started running in the tenant;
 *   - `timed`: due at the latest attempt's birth + the window (the store's override, else the
 *     method's declared `reservation_window_seconds`).
 * The sweep then reads due orders from an index instead of working the rule out on every run.
 * Returns the orders it classified, with their due time (null unless timed).
 */
export async function refreshPaymentExpiry(
  db: EntityManager,
  tenantId: string,
  which: { orderIds: readonly string[] } | { appId: string } | { storeId: string; appId: string; method: string },
): Promise<Array<{ id: string; payment_due_at: Date | null }>> {
  const where = conditions().add`o.tenant_id = ${tenantId}`.add`o.status = 'pending_payment'`;
  if ('orderIds' in which) where.add`o.id = ANY(${which.orderIds}::text[])`;
  else if ('storeId' in which) where.add`o.store_id = ${which.storeId}`.add`a.app_id = ${which.appId}`.add`a.method = ${which.method}`;
  else where.add`a.app_id = ${which.appId}`;
  return sqlOf(db).returning<{ id: string; payment_due_at: Date | null }>(
    `UPDATE orders."order" o SET payment_expiry = x.kind, payment_due_at = x.due
       FROM (
         SELECT o.id, k.kind, CASE WHEN k.kind = 'timed' THEN a.created_at + w.seconds * interval '1 second' END AS due
         FROM orders."order" o
         LEFT JOIN LATERAL (SELECT app_id, method, created_at FROM orders.payment_attempt WHERE order_id = o.id ORDER BY created_at DESC, id DESC LIMIT 1) a ON true
         LEFT JOIN orders.payment_app app ON app.id = a.app_id
         LEFT JOIN orders.payment_window pw ON pw.store_id = o.store_id AND pw.app_id = a.app_id AND pw.method = a.method
         LEFT JOIN orders.expiry_start s ON s.tenant_id = o.tenant_id
         CROSS JOIN LATERAL (SELECT coalesce(pw.reservation_window_seconds,
           (SELECT (m->>'reservation_window_seconds')::int FROM jsonb_array_elements(app.methods) m WHERE m->>'method' = a.method LIMIT 1)) AS seconds) w
         CROSS JOIN LATERAL (SELECT CASE
           WHEN a.app_id IS NULL OR NOT app.installed OR w.seconds IS NULL THEN 'windowless'
           WHEN s.started_at IS NULL OR a.created_at < s.started_at THEN 'predating'
           ELSE 'timed' END AS kind) k
         WHERE ${where.sql}
       ) x WHERE o.id = x.id
       RETURNING o.id, o.payment_due_at`,
    where.params,
  );
}
