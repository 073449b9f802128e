import { defineEvent, t } from '@backoffice/platform';
import { METHOD_FIELDS } from './domain/shipping';
import { MACHINES } from './domain/states';

/** Every event orders emits, with its payload. Events go only to the tenant's own consumers and subscribers. */

const items = t.array(t.object({ sku_id: t.string(), qty: t.integer({ minimum: 1 }) }));
/** Personal (spec rule 7): masked in the events read without pii.read, and in webhooks without personal_data. */
const customer = t.object(
  { email: t.email(), name: t.optional(t.string()) },
  { description: 'who to tell (mail on order.paid and order.cancelled)', personal: true },
);

export const warehouseCreated = defineEvent(
  'inventory.warehouse.created',
  t.object({ warehouse_id: t.string(), code: t.string(), name: t.string() }),
  'A warehouse was created.',
);

export const inventoryAdjusted = defineEvent(
  'inventory.adjusted',
  t.object({
    sku_id: t.string(),
    warehouse_id: t.string(),
    on_hand: t.integer(),
    reserved: t.integer(),
    available: t.integer(),
    previous_on_hand: t.integer(),
  }),
  'The stock on hand of a SKU in a warehouse was set or changed.',
);

export const inventoryReserved = defineEvent(
  'inventory.reserved',
  t.object({ reservation_id: t.string(), warehouse_id: t.string(), items, expires_at: t.nullable(t.string()), order_id: t.nullable(t.string()) }),
  'Stock was held (a reservation became active).',
);

export const inventoryReleased = defineEvent(
  'inventory.released',
  t.object({
    reservation_id: t.string(),
    warehouse_id: t.string(),
    items,
    reason: t.enum(['released', 'expired', 'order_cancelled'] as const, { description: 'by inventory.release, by the hold expiring, or with its order' }),
    order_id: t.nullable(t.string()),
  }),
  'A hold was released: its units are available again.',
);

export const inventoryCommitted = defineEvent(
  'inventory.committed',
  t.object({ reservation_id: t.string(), warehouse_id: t.string(), items, order_id: t.nullable(t.string()) }),
  'A hold was committed: on hand and reserved both dropped by its units.',
);

export const paymentAppInstalled = defineEvent(
  'payment.app.installed',
  t.object({
    app_id: t.string(),
    app_key: t.string(),
    methods: t.array(t.object({ method: t.string(), reservation_window_seconds: t.nullable(t.integer()) })),
  }),
  'A payment app was installed, or installed again with new methods.',
);

export const paymentAppUninstalled = defineEvent(
  'payment.app.uninstalled',
  t.object({ app_id: t.string(), app_key: t.string() }),
  'A payment app was uninstalled.',
);

export const couponCreated = defineEvent('coupon.created', t.object({ coupon_id: t.string(), code: t.string() }), 'A coupon was created.');

/** The order's shipping line, part of total_amount; absent from events recorded before shipping was priced. */
const shipping_amount = t.optional(t.integer({ minimum: 0, description: 'the shipping price included in total_amount (extension)' }));

export const orderCreated = defineEvent(
  'order.created',
  t.object({
    order_id: t.string(),
    store_id: t.string(),
    currency: t.string(),
    total_amount: t.integer(),
    shipping_amount,
    items,
    reservation_id: t.string(),
    payment_attempt_id: t.nullable(t.string()),
    customer,
  }),
  'An order was taken (awaiting payment).',
);

export const orderPaid = defineEvent(
  'order.paid',
  t.object({ order_id: t.string(), store_id: t.string(), currency: t.string(), total_amount: t.integer(), shipping_amount, customer }),
  'An order was paid.',
);

export const orderStockUncommitted = defineEvent(
  'order.stock_uncommitted',
  t.object({ order_id: t.string(), reservation_id: t.string(), reservation_status: t.string() }),
  'An order was paid but its hold could no longer be committed (it had been released).',
);

export const orderCancelled = defineEvent(
  'order.cancelled',
  t.object({
    order_id: t.string(),
    store_id: t.string(),
    reason: t.string({ description: 'payment_expired (expiry), or the reason given to order.cancel' }),
    // Its consumers need not have seen the order's order.created (an import, a mass expiry of old orders).
    customer: t.optional(customer),
  }),
  'An order was cancelled: its hold released, its coupon use returned, its open payment attempt failed.',
);

export const paymentAttemptFailed = defineEvent(
  'payment.attempt_failed',
  t.object({ payment_attempt_id: t.string(), order_id: t.string(), reason: t.string({ description: 'expired, cancelled or declined' }) }),
  'A payment attempt ended failed.',
);

export const paymentOrphaned = defineEvent(
  'payment.orphaned',
  t.object({ payment_attempt_id: t.string(), order_id: t.string(), provider_reference: t.nullable(t.string()) }),
  'A payment was confirmed for an order already cancelled: recorded, not applied (refund it).',
);

const shipmentItems = t.array(t.object({ order_item_id: t.string(), qty: t.integer({ minimum: 1 }) }));

export const shipmentCreated = defineEvent(
  'shipment.created',
  t.object({
    order_id: t.string(),
    shipment_id: t.string(),
    warehouse_id: t.string(),
    estimated_delivery_date: t.nullable(t.string({ description: 'YYYY-MM-DD, copied from the source parcel' })),
    items: shipmentItems,
    from_shipment_id: t.string(),
    from_shipment_deleted: t.boolean({ description: 'the split left the source parcel empty: it was deleted' }),
  }),
  'An order was split: quantities of its items moved out of a parcel not yet dispatched into a new parcel.',
);

export const orderShipmentUpdated = defineEvent(
  'order.shipment.updated',
  t.object({
    order_id: t.string(),
    shipment_id: t.string(),
    changed: t.array(t.enum(['status', 'tracking'] as const)),
    status: t.enum(MACHINES.shipment.states),
    carrier: t.nullable(t.string()),
    tracking_code: t.nullable(t.string()),
    tracking_url: t.nullable(t.string()),
  }),
  "A parcel's tracking changed, or it was dispatched or delivered.",
);

export const orderDocumentAttached = defineEvent(
  'order.document.attached',
  t.object({
    document_id: t.string(),
    order_id: t.string(),
    kind: t.string(),
    shipment_id: t.nullable(t.string()),
    name: t.nullable(t.string()),
    file_url: t.nullable(t.string()),
    asset_id: t.nullable(t.string()),
  }),
  'A document was attached to an order (or to one of its parcels).',
);

export const shippingConfigUpdated = defineEvent(
  'shipping.config.updated',
  t.object({
    subject: t.enum(['method', 'zone'] as const),
    change: t.enum(['created', 'updated'] as const),
    method_id: t.optional(t.string({ description: 'the method created or updated' })),
    zone_id: t.optional(t.string({ description: 'the zone created' })),
    changed: t.optional(t.array(t.enum(METHOD_FIELDS), { description: 'the fields whose value shipping.method.update changed' })),
  }),
  'Shipping configuration changed: a method was created or updated, or a zone created.',
);

export const ordersEvents = [
  warehouseCreated,
  inventoryAdjusted,
  inventoryReserved,
  inventoryReleased,
  inventoryCommitted,
  paymentAppInstalled,
  paymentAppUninstalled,
  couponCreated,
  orderCreated,
  orderPaid,
  orderStockUncommitted,
  orderCancelled,
  paymentAttemptFailed,
  paymentOrphaned,
  shipmentCreated,
  orderShipmentUpdated,
  orderDocumentAttached,
  shippingConfigUpdated,
];
