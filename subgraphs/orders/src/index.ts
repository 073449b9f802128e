import { join } from 'node:path';
import { listSize, type SubgraphDefinition } from '@backoffice/platform';
import { LINK_MAX } from './domain/admin-views';
import { ORDER_LIMITS } from './domain/order-limits';
import { orderResolvers } from './domain/references';
import { ordersEvents } from './events';
import { tenantSetup } from './consumers/tenant-setup';
import { releaseExpiredHoldsJob } from './jobs/inventory.release_expired';
import { expireUnpaidJob } from './jobs/order.expire_unpaid';
import { Orders1795500000001 } from './migrations/1795500000001-orders';
import { Shipping1795500000002 } from './migrations/1795500000002-shipping';
import { Shipments1795500000003 } from './migrations/1795500000003-shipments';
import { ConfirmingAttempts1795500000004 } from './migrations/1795500000004-confirming-attempts';
import { ShippingPrice1795500000005 } from './migrations/1795500000005-shipping-price';
import { PaymentWindowApp1795500000006 } from './migrations/1795500000006-payment-window-app';
import { adminOrders } from './operations/admin.orders';
import { adminShipments } from './operations/admin.shipments';
import { adminWarehouses } from './operations/admin.warehouses';
import { adminPaymentApps } from './operations/admin.payment_apps';
import { adminCoupons } from './operations/admin.coupons';
import { adminShippingZones } from './operations/admin.shipping_zones';
import { adminShippingMethods } from './operations/admin.shipping_methods';
import { couponCreate } from './operations/coupon.create';
import { inventoryAdjust } from './operations/inventory.adjust';
import { inventoryCommit } from './operations/inventory.commit';
import { inventoryRelease } from './operations/inventory.release';
import { inventoryReserve } from './operations/inventory.reserve';
import { inventoryWarehouseCreate } from './operations/inventory.warehouse.create';
import { orderCancel } from './operations/order.cancel';
import { orderCreate } from './operations/order.create';
import { orderDocumentAttach } from './operations/order.document.attach';
import { orderExpireUnpaid } from './operations/order.expire_unpaid';
import { orderMarkPaid } from './operations/order.mark_paid';
import { orderPaymentConfirm } from './operations/order.payment.confirm';
import { orderShipmentCreate } from './operations/order.shipment.create';
import { orderShipmentDispatch } from './operations/order.shipment.dispatch';
import { orderShipmentMarkDelivered } from './operations/order.shipment.mark_delivered';
import { orderShipmentSetTracking } from './operations/order.shipment.set_tracking';
import { paymentAppInstall } from './operations/payment.app.install';
import { paymentAppUninstall } from './operations/payment.app.uninstall';
import { paymentWindowSet } from './operations/payment.window.set';
import { readInternalInventory } from './operations/read.internal.inventory';
import { readInternalOrder } from './operations/read.internal.order';
import { readInternalOrders } from './operations/read.internal.orders';
import { readInternalShippingMethods } from './operations/read.internal.shipping.methods';
import { readInternalShippingQuote } from './operations/read.internal.shipping.quote';
import { readInternalShippingZones } from './operations/read.internal.shipping.zones';
import { shippingMethodCreate } from './operations/shipping.method.create';
import { shippingMethodUpdate } from './operations/shipping.method.update';
import { shippingZoneCreate } from './operations/shipping.zone.create';
import { ordersPorts, type OrdersPorts } from './ports';
import { ordersEntities } from './entities';

export { acceptReported, type OrdersPorts, type PaymentVerifier } from './ports';

/**
 * What the graph adds to the declared types: links between the orders subgraph's entities (loaded in
 * batches per request, `domain/references.ts`), the catalog's `Sku` extended with its stock, and
 * identity's `Store` referenced. An item's SKU and an order's store are the other subgraphs'
 * entities: the gateway asks them for the rest (batched), so one query returns an order with both.
 */
const typeDefs = `
type Sku @key(fields: "sku_id") {
  sku_id: ID!
  """Its stock in each of the tenant's warehouses that holds a level of it, by warehouse id (every warehouse at most once). Scope: logistics.read."""
  stock_levels: [StockLevel!]! ${listSize(ORDER_LIMITS.warehouses.max)}
}

type Store @key(fields: "store_id", resolvable: false) {
  store_id: ID!
}

extend type Order {
  """The order's store as identity has it now (any valid key of the tenant may read it; notification_reply_to masked without pii.read)."""
  store: Store
  """
  unfulfilled: no parcel dispatched yet; partially_dispatched: some parcels dispatched or delivered, others not yet dispatched;
  dispatched: every parcel dispatched or delivered, not all delivered; delivered: every parcel delivered (\`orders\` filters by it).
  """
  fulfilment_status: FulfilmentStatus!
  """The shipping method chosen at checkout, as it is now (null without one). Scope: logistics.read."""
  shipping_method: ShippingMethod
}

extend type OrderItem {
  """The SKU as the catalog has it now (the item keeps its checkout snapshot beside it)."""
  sku: Sku
}

extend type PaymentAttempt {
  """The payment app the attempt went through."""
  payment_app: PaymentApp
}

extend type Shipment {
  order_id: ID!
  """The order it ships (Scope: order.read)."""
  order: Order
  """Where it ships from. Scope: logistics.read."""
  warehouse: Warehouse
}

extend type StockLevel {
  warehouse: Warehouse
}

extend type Warehouse {
  """Its first ${LINK_MAX} stock levels by SKU id (read.internal.inventory pages through all of them)."""
  levels: [StockLevel!]! ${listSize(LINK_MAX)}
}

"""An order holding a use of a coupon (a cancelled order returns its use)."""
type CouponUse {
  order_id: ID!
  created_at: DateTime!
  order: Order
}

extend type Coupon {
  """The ${LINK_MAX} latest orders holding a use of it, newest first."""
  uses: [CouponUse!]! ${listSize(LINK_MAX)}
}

extend type OrderCreateResult { order: Order shipment: Shipment }
extend type OrderPaymentConfirmResult { order: Order }
extend type OrderMarkPaidResult { order: Order }
extend type OrderCancelResult { order: Order }
extend type OrderDocumentAttachResult { order: Order }
extend type OrderShipmentCreateResult { order: Order shipment: Shipment }
extend type OrderShipmentDispatchResult { order: Order shipment: Shipment }
extend type OrderShipmentMarkDeliveredResult { order: Order shipment: Shipment }
extend type OrderShipmentSetTrackingResult { order: Order shipment: Shipment }
extend type InventoryWarehouseCreateResult { warehouse: Warehouse }
extend type InventoryAdjustResult { warehouse: Warehouse }
extend type PaymentAppInstallResult { payment_app: PaymentApp }
extend type PaymentAppUninstallResult { payment_app: PaymentApp }
extend type PaymentWindowSetResult { payment_app: PaymentApp }
extend type CouponCreateResult { coupon: Coupon }
extend type ShippingZoneCreateResult { shipping_zone: ShippingZone }
extend type ShippingMethodCreateResult { shipping_method: ShippingMethod }`;

/** Orders, payments, stock and its reservations, coupons, shipments and order documents. */
export const orders: SubgraphDefinition<OrdersPorts> = {
  name: 'orders',
  summary: 'Orders, payments, stock and its reservations, coupons, shipments (parcels) and order documents.',
  defaultPort: 4003,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    inventoryWarehouseCreate,
    inventoryAdjust,
    inventoryReserve,
    inventoryRelease,
    inventoryCommit,
    readInternalInventory,
    paymentAppInstall,
    paymentAppUninstall,
    paymentWindowSet,
    couponCreate,
    orderCreate,
    orderPaymentConfirm,
    orderMarkPaid,
    orderCancel,
    orderExpireUnpaid,
    orderShipmentCreate,
    orderShipmentDispatch,
    orderShipmentMarkDelivered,
    orderShipmentSetTracking,
    orderDocumentAttach,
    readInternalOrders,
    readInternalOrder,
    shippingZoneCreate,
    shippingMethodCreate,
    shippingMethodUpdate,
    readInternalShippingZones,
    readInternalShippingMethods,
    readInternalShippingQuote,
    // After read.internal.order: the single read declares the Order and Shipment types whole, these their rows.
    adminOrders,
    adminShipments,
    adminWarehouses,
    adminPaymentApps,
    adminCoupons,
    adminShippingZones,
    adminShippingMethods,
  ],
  events: ordersEvents,
  ports: ordersPorts,
  entities: ordersEntities,
  migrations: [
    Orders1795500000001,
    Shipping1795500000002,
    Shipments1795500000003,
    ConfirmingAttempts1795500000004,
    ShippingPrice1795500000005,
    PaymentWindowApp1795500000006,
  ],
  consumers: [tenantSetup],
  jobs: [expireUnpaidJob, releaseExpiredHoldsJob],
  typeDefs,
  resolvers: orderResolvers,
};
