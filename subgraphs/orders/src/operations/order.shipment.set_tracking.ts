import { t } from '@backoffice/platform';
import { httpUrlField, lockOnlyShipment, lockShipment, orderForShipping, shipmentEvent, requireHttpUrl } from '../domain/shipments';
import { MACHINES } from '../domain/states';
import { orderShipmentUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

export const orderShipmentSetTracking = defineOrdersOperation({
  name: 'order.shipment.set_tracking',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary:
    "Saves tracking on an order's shipment, before or after shipping. Omitted fields keep their value. Re-saving " +
    "the same tracking succeeds and emits nothing. Without `shipment_id`: the order's only parcel (several: " +
    'validation_failed).',
  input: t.object({
    order_id: t.id(),
    shipment_id: t.optional(t.id("the parcel; default: the order's only parcel")),
    carrier: t.optional(t.string({ minLength: 1, maxLength: 100 })),
    tracking_code: t.optional(t.string({ minLength: 1, maxLength: 200 })),
    tracking_url: t.optional(httpUrlField("the carrier's tracking page")),
  }),
  result: t.object({ order_id: t.string(), shipment_id: t.string() }),
  events: [orderShipmentUpdated],
  async handler({ input, actor, db, stage, emit }) {
    if (input.tracking_url !== undefined) requireHttpUrl('tracking_url', input.tracking_url);
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    MACHINES.order.assertAllowed(order.id, order.status, 'shipment.track');
    const shipment = input.shipment_id ? await lockShipment(db, order.id, input.shipment_id) : await lockOnlyShipment(db, order.id, 'shipment_id');
    const next = {
      tracking_carrier: input.carrier ?? shipment.tracking_carrier,
      tracking_code: input.tracking_code ?? shipment.tracking_code,
      tracking_url: input.tracking_url ?? shipment.tracking_url,
    };
    const same =
      next.tracking_carrier === shipment.tracking_carrier && next.tracking_code === shipment.tracking_code && next.tracking_url === shipment.tracking_url;
    if (!same) {
      stage(`UPDATE orders.shipment SET tracking_carrier = $2, tracking_code = $3, tracking_url = $4, updated_at = now() WHERE id = $1`, [
        shipment.id,
        next.tracking_carrier,
        next.tracking_code,
        next.tracking_url,
      ]);
      emit(orderShipmentUpdated, { ...shipmentEvent({ ...shipment, ...next }), changed: ['tracking'] });
    }
    return { order_id: order.id, shipment_id: shipment.id };
  },
});
