import { assertRoom, t, validationFailed } from '@backoffice/platform';
import { ORDER_LIMITS } from '../domain/order-limits';
import { lockOnlyShipment, lockShipment, orderForShipping, splitShipment } from '../domain/shipments';
import { MACHINES } from '../domain/states';
import { warehouseOf } from '../domain/stock';
import { shipmentCreated } from '../events';
import { defineOrdersOperation } from '../ports';

/** The largest `qty` a split may ask for (1e9: a safe integer, and within PostgreSQL's int4). */
const SPLIT_QTY_MAX = 1_000_000_000;

export const orderShipmentCreate = defineOrdersOperation({
  name: 'order.shipment.create',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary:
    'Splits an order into a new parcel by moving quantities of order items out of a parcel not yet dispatched ' +
    "(`from_shipment_id`, or the order's only one), optionally shipped from another warehouse. Asking for more than " +
    'the source parcel holds is refused with `exceeds_remaining` carrying `requested` and `remaining`; a source ' +
    "left empty is deleted. The new parcel's estimated delivery date is the source's, stamped at creation and never " +
    'recalculated.',
  input: t.object({
    order_id: t.id(),
    // Far above any shipment (an order item holds at most 1000): too much is exceeds_remaining, not validation_failed.
    items: t.array(t.object({ order_item_id: t.id(), qty: t.integer({ minimum: 1, maximum: SPLIT_QTY_MAX }) }), {
      minItems: 1,
      maxItems: 100,
      description: 'distinct order items',
    }),
    from_shipment_id: t.optional(t.id("the parcel to take from; default: the order's only parcel not yet dispatched")),
    warehouse_id: t.optional(t.id("where the new parcel ships from (a warehouse of the tenant); default: the source parcel's")),
  }),
  result: t.object({
    order_id: t.string(),
    shipment_id: t.string(),
    estimated_delivery_date: t.nullable(t.string({ format: 'date', description: 'YYYY-MM-DD' })),
  }),
  // The reference's section 7 lists exceeds_remaining for this command.
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'conflict', 'exceeds_remaining', 'internal'],
  events: [shipmentCreated],
  async handler({ input, actor, db, emit }) {
    const seen = new Set<string>();
    for (const item of input.items) {
      if (seen.has(item.order_item_id))
        throw validationFailed(`items: order item ${item.order_item_id} is listed twice`, { reason: 'duplicate', field: 'items' });
      seen.add(item.order_item_id);
    }
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    MACHINES.order.assertAllowed(order.id, order.status, 'shipment.split');
    const warehouseId = input.warehouse_id ? await warehouseOf(db, order.tenant_id, input.warehouse_id) : null;
    // Splits from different parcels of the order lock different rows: the order's own lock orders them here.
    await assertRoom(db, ORDER_LIMITS.parcels, {
      sql: 'SELECT count(*)::int AS n FROM orders.shipment WHERE order_id = $1',
      params: [order.id],
      lock: `orders.shipment:${order.id}`,
    });
    // Locked: concurrent splits of one shipment take turns, each seeing what the previous left.
    const source = input.from_shipment_id
      ? await lockShipment(db, order.id, input.from_shipment_id)
      : await lockOnlyShipment(db, order.id, 'from_shipment_id', MACHINES.shipment.statesAllowing('split'));
    MACHINES.shipment.assertAllowed(source.id, source.status, 'split');
    const split = await splitShipment(db, source, input.items, warehouseId ?? source.warehouse_id);
    emit(shipmentCreated, {
      order_id: order.id,
      shipment_id: split.shipment_id,
      warehouse_id: warehouseId ?? source.warehouse_id,
      estimated_delivery_date: source.estimated_delivery_date,
      items: input.items.map(({ order_item_id, qty }) => ({ order_item_id, qty })),
      from_shipment_id: source.id,
      from_shipment_deleted: split.deleted,
    });
    return { order_id: order.id, shipment_id: split.shipment_id, estimated_delivery_date: source.estimated_delivery_date };
  },
});
