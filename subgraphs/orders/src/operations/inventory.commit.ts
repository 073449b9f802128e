import { t } from '@backoffice/platform';
import { orderOfReservation } from '../domain/orders';
import { lockReservation, settle } from '../domain/stock';
import { inventoryCommitted } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const inventoryCommit = defineOrdersOperation({
  name: 'inventory.commit',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'inventory.reserve',
  summary: 'Commits an active hold: on_hand and reserved both drop. Committing again changes nothing; a released hold cannot be committed.',
  input: t.object({ reservation_id: t.id() }),
  result: t.object({ reservation_id: t.string(), status: MACHINES.reservation.enum(['committed']) }),
  events: [inventoryCommitted],
  async handler({ input, actor, db, emit }) {
    const reservation = await lockReservation(db, actor.tenant_id, input.reservation_id);
    const orderId = await orderOfReservation(db, reservation.id);
    for (const committed of await settle(db, [reservation], 'committed')) {
      emit(inventoryCommitted, { reservation_id: committed.id, warehouse_id: committed.warehouse_id, items: committed.items, order_id: orderId });
    }
    return { reservation_id: reservation.id, status: 'committed' as const };
  },
});
