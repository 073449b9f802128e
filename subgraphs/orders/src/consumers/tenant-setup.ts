import { tenantCreated } from '@backoffice/contracts';
import { on, sqlOf } from '@backoffice/platform';
import { refreshPaymentExpiry } from '../domain/payment-expiry';
import { warehouseOf } from '../domain/stock';

/**
 * A new tenant, set up once it exists: its `default` warehouse, and payment expiry counted from
 * the tenant's birth (the job runs every minute for every tenant, so it has run there all along).
 * An order placed before this event arrived was classed `predating` for want of a start: classed
 * again. Idempotent, as a redelivery needs; the earliest start wins over a start a first sweep recorded.
 */
export const tenantSetup = on(tenantCreated, 'tenant-setup', async ({ event, db }) => {
  const tenantId = event.tenant_id;
  await warehouseOf(db, tenantId, undefined);
  await sqlOf(db).run(
    `INSERT INTO orders.expiry_start (tenant_id, started_at) VALUES ($1, $2)
     ON CONFLICT (tenant_id) DO UPDATE SET started_at = LEAST(orders.expiry_start.started_at, EXCLUDED.started_at)`,
    [tenantId, event.payload.created_at],
  );
  const waiting = await sqlOf(db).rows<{ id: string }>(
    `SELECT id FROM orders."order" WHERE tenant_id = $1 AND status = 'pending_payment' AND payment_expiry = 'predating'`,
    [tenantId],
  );
  if (waiting.length) await refreshPaymentExpiry(db, tenantId, { orderIds: waiting.map((o) => o.id) });
});
