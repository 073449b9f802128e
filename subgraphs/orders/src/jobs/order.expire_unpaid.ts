import { job, sqlOf } from '@backoffice/platform';
import { EXPIRE_DEFAULT_LIMIT, orderExpireUnpaid } from '../operations/order.expire_unpaid';

/**
 * Every minute, `order.expire_unpaid` for every tenant, in batches of 100 until nothing more is due.
 * Expiry runs in a tenant from its birth (consumers/tenant-setup records the start), so a run is
 * needed only where orders are due, or orders wait in a tenant from before, with no start yet (its
 * first run records it). Each batch is the operation itself, run as the job (audited as such).
 */
export const expireUnpaidJob = job('order.expire_unpaid', { every: '1 minute' }, async ({ dataSource, runAs }) => {
  const tenants = await sqlOf(dataSource).rows<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM orders."order" WHERE status = 'pending_payment' AND payment_expiry = 'timed' AND payment_due_at <= now()
     UNION
     SELECT DISTINCT o.tenant_id FROM orders."order" o WHERE o.status = 'pending_payment' AND o.payment_expiry = 'predating'
       AND NOT EXISTS (SELECT 1 FROM orders.expiry_start s WHERE s.tenant_id = o.tenant_id)`,
  );
  for (const { tenant_id } of tenants) {
    for (;;) {
      const result = (await runAs(tenant_id, orderExpireUnpaid, { limit: EXPIRE_DEFAULT_LIMIT })) as { expired: unknown[]; spared: unknown[] };
      // A full batch may leave more due; orders being confirmed stay due, so they alone do not loop.
      if (result.expired.length === 0 || result.expired.length + result.spared.length < EXPIRE_DEFAULT_LIMIT) break;
    }
  }
});
