import { t } from '@backoffice/platform';
import { advanceShipment, lockShipment, orderForShipping, shipmentEvent } from '../domain/shipments';
import { orderShipmentUpdated } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const orderShipmentMarkDelivered = defineOrdersOperation({
  name: 'order.shipment.mark_delivered',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary: 'Marks a dispatched parcel delivered; marking it again changes nothing, a parcel not yet dispatched is a conflict (extension).',
  input: t.object({ order_id: t.id(), shipment_id: t.id() }),
  result: t.object({ order_id: t.string(), shipment_id: t.string(), status: MACHINES.shipment.enum(['delivered']) }),
  events: [orderShipmentUpdated],
  async handler({ input, actor, db, emit }) {
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    const shipment = await lockShipment(db, order.id, input.shipment_id);
    if (await advanceShipment(db, shipment, 'delivered')) emit(orderShipmentUpdated, { ...shipmentEvent(shipment), changed: ['status'] });
    return { order_id: order.id, shipment_id: shipment.id, status: 'delivered' as const };
  },
});
