import { eventDraft, job, newId, writeEvents, sqlOf } from '@backoffice/platform';
import { settle, lockReservations } from '../domain/stock';
import { inventoryReleased } from '../events';

/** Holds taken by `inventory.reserve` whose expiry passed are released (an order's hold has none: it follows its order). */
export const releaseExpiredHoldsJob = job('inventory.release_expired', { every: '1 minute' }, async ({ dataSource }) => {
  for (;;) {
    const released = await dataSource.transaction(async (db) => {
      const due = await sqlOf(db).rows<{ id: string; tenant_id: string }>(
        `SELECT id, tenant_id FROM orders.reservation WHERE status = 'active' AND expires_at <= now() ORDER BY expires_at, id LIMIT 100 FOR UPDATE SKIP LOCKED`,
      );
      for (const tenantId of new Set(due.map((r) => r.tenant_id))) {
        const holds = await lockReservations(
          db,
          tenantId,
          due.filter((r) => r.tenant_id === tenantId).map((r) => r.id),
        );
        const changed = await settle(db, holds, 'released');
        await writeEvents(
          db,
          'orders',
          { tenant_id: tenantId, actor_id: 'job:orders.inventory.release_expired', request_id: newId('req') },
          changed.map((r) =>
            // Checked against the event's schema, as a command's emit is.
            eventDraft('job inventory.release_expired', [inventoryReleased], inventoryReleased, {
              reservation_id: r.id,
              warehouse_id: r.warehouse_id,
              items: r.items,
              reason: 'expired',
              order_id: null,
            }),
          ),
        );
      }
      return due.length;
    });
    if (released < 100) return;
  }
});
