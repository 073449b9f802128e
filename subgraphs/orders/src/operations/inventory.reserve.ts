import { t } from '@backoffice/platform';
import { distinctSkus, hold, stockLines, warehouseOf } from '../domain/stock';
import { inventoryReserved } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const inventoryReserve = defineOrdersOperation({
  name: 'inventory.reserve',
  kind: 'command',
  access: 'internal',
  scope: 'inventory.reserve',
  summary: 'Holds stock of several SKUs, all or nothing, until committed, released, or its expiry (a job then releases it) (extension).',
  input: t.object({
    items: stockLines(100_000),
    warehouse_id: t.optional(t.id()),
    expires_in_seconds: t.optional(t.integer({ minimum: 60, maximum: 86_400, default: 900 })),
  }),
  result: t.object({ reservation_id: t.string(), status: MACHINES.reservation.enum(['active']), expires_at: t.timestamp() }),
  events: [inventoryReserved],
  async handler({ input, actor, db, emit }) {
    distinctSkus(input.items);
    const warehouseId = await warehouseOf(db, actor.tenant_id, input.warehouse_id);
    const expiresAt = new Date(Date.now() + (input.expires_in_seconds ?? 900) * 1000);
    const reservation = await hold(db, actor.tenant_id, warehouseId, input.items, expiresAt);
    emit(inventoryReserved, {
      reservation_id: reservation.id,
      warehouse_id: warehouseId,
      items: reservation.items,
      expires_at: expiresAt.toISOString(),
      order_id: null,
    });
    return { reservation_id: reservation.id, status: 'active' as const, expires_at: expiresAt.toISOString() };
  },
});
