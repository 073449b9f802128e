import { t } from '@backoffice/platform';
import { advanceParcel, lockParcel, orderForShipping, parcelEvent } from '../domain/shipments';
import { orderShipmentUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

export const orderShipmentMarkDelivered = defineOrdersOperation({
  name: 'order.shipment.mark_delivered',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary: 'Marks a dispatched parcel delivered; marking it again changes nothing, a parcel not yet dispatched is a conflict (extension).',
  input: t.object({ order_id: t.id(), shipment_id: t.id() }),
  result: t.object({ order_id: t.string(), shipment_id: t.string(), status: t.enum(['delivered'] as const) }),
  events: [orderShipmentUpdated],
  async handler({ input, actor, db, emit }) {
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    const parcel = await lockParcel(db, order.id, input.shipment_id);
    if (await advanceParcel(db, parcel, 'delivered')) emit(orderShipmentUpdated, { ...parcelEvent(parcel), changed: ['status'] });
    return { order_id: order.id, shipment_id: parcel.id, status: 'delivered' as const };
  },
});
