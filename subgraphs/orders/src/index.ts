import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { ordersEvents } from './events';
import { tenantSetup } from './consumers/tenant-setup';
import { releaseExpiredHoldsJob } from './jobs/inventory.release_expired';
import { expireUnpaidJob } from './jobs/order.expire_unpaid';
import { Orders1795500000001 } from './migrations/1795500000001-orders';
import { Shipping1795500000002 } from './migrations/1795500000002-shipping';
import { Shipments1795500000003 } from './migrations/1795500000003-shipments';
import { ConfirmingAttempts1795500000004 } from './migrations/1795500000004-confirming-attempts';
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
 * An order item's SKU is the catalog's entity: the gateway asks the catalog for its current data
 * (batched), so one query returns an order with its SKUs across the two subgraphs. Its store is
 * identity's entity `Store`, referenced the same way.
 */
const typeDefs = `
type Sku @key(fields: "sku_id", resolvable: false) {
  sku_id: ID!
}

extend type OrderItem {
  """The SKU as the catalog has it now (the item keeps its checkout snapshot beside it)."""
  sku: Sku
}

type Store @key(fields: "store_id", resolvable: false) {
  store_id: ID!
}

extend type ReadInternalOrderResult {
  """The order's store as identity has it now (any valid key of the tenant may read it; notification_reply_to masked without pii.read)."""
  store: Store
}`;

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
  ],
  events: ordersEvents,
  ports: ordersPorts,
  entities: ordersEntities,
  migrations: [Orders1795500000001, Shipping1795500000002, Shipments1795500000003, ConfirmingAttempts1795500000004],
  consumers: [tenantSetup],
  jobs: [expireUnpaidJob, releaseExpiredHoldsJob],
  typeDefs,
  resolvers: () => ({
    OrderItem: { sku: (item: { sku_id: string }) => ({ __typename: 'Sku', sku_id: item.sku_id }) },
    ReadInternalOrderResult: { store: (order: { store_id: string }) => ({ __typename: 'Store', store_id: order.store_id }) },
  }),
};
