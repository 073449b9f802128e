import { t } from '@backoffice/platform';
import { advanceShipment, lockShipment, orderForShipping, shipmentEvent } from '../domain/shipments';
import { MACHINES } from '../domain/states';
import { orderShipmentUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

export const orderShipmentDispatch = defineOrdersOperation({
  name: 'order.shipment.dispatch',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary:
    'Marks a parcel dispatched (it left the warehouse): it can no longer be split or go back. Only the parcels of a ' +
    'paid order are dispatched (unpaid or cancelled: conflict); dispatching again changes nothing (extension).',
  input: t.object({ order_id: t.id(), shipment_id: t.id() }),
  result: t.object({ order_id: t.string(), shipment_id: t.string(), status: MACHINES.shipment.enum(['dispatched']) }),
  events: [orderShipmentUpdated],
  async handler({ input, actor, db, emit }) {
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    MACHINES.order.assertAllowed(order.id, order.status, 'shipment.dispatch');
    const shipment = await lockShipment(db, order.id, input.shipment_id);
    if (await advanceShipment(db, shipment, 'dispatched')) emit(orderShipmentUpdated, { ...shipmentEvent(shipment), changed: ['status'] });
    return { order_id: order.id, shipment_id: shipment.id, status: 'dispatched' as const };
  },
});
