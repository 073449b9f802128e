import { t } from '@backoffice/platform';
import { orderOfReservation } from '../domain/orders';
import { lockReservation, settle } from '../domain/stock';
import { inventoryReleased } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const inventoryRelease = defineOrdersOperation({
  name: 'inventory.release',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'inventory.reserve',
  summary: 'Releases an active hold; releasing a released hold changes nothing; a committed hold cannot be released (extension).',
  input: t.object({ reservation_id: t.id() }),
  result: t.object({ reservation_id: t.string(), status: MACHINES.reservation.enum(['released']) }),
  events: [inventoryReleased],
  async handler({ input, actor, db, emit }) {
    const reservation = await lockReservation(db, actor.tenant_id, input.reservation_id);
    const orderId = await orderOfReservation(db, reservation.id);
    for (const released of await settle(db, [reservation], 'released')) {
      emit(inventoryReleased, {
        reservation_id: released.id,
        warehouse_id: released.warehouse_id,
        items: released.items,
        reason: 'released',
        order_id: orderId,
      });
    }
    return { reservation_id: reservation.id, status: 'released' as const };
  },
});
