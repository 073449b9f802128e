import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { ordersEvents } from './events';
import { releaseExpiredHoldsJob } from './jobs/inventory.release_expired';
import { expireUnpaidJob } from './jobs/order.expire_unpaid';
import { Orders1795500000001 } from './migrations/1795500000001-orders';
import { couponCreate } from './operations/coupon.create';
import { inventoryAdjust } from './operations/inventory.adjust';
import { inventoryCommit } from './operations/inventory.commit';
import { inventoryRelease } from './operations/inventory.release';
import { inventoryReserve } from './operations/inventory.reserve';
import { warehouseCreate } from './operations/inventory.warehouse.create';
import { orderCancel } from './operations/order.cancel';
import { orderCreate } from './operations/order.create';
import { orderExpireUnpaid } from './operations/order.expire_unpaid';
import { orderMarkPaid } from './operations/order.mark_paid';
import { orderPaymentConfirm } from './operations/order.payment.confirm';
import { paymentAppInstall } from './operations/payment.app.install';
import { paymentAppUninstall } from './operations/payment.app.uninstall';
import { paymentWindowSet } from './operations/payment.window.set';
import { readInventory } from './operations/read.internal.inventory';
import { readOrder } from './operations/read.internal.order';
import { readOrders } from './operations/read.internal.orders';
import { ordersPorts, type OrdersPorts } from './ports';

export { acceptReported, type OrdersPorts, type PaymentVerifier } from './ports';

/**
 * An order item's SKU is the catalog's entity: the gateway asks the catalog for its current data
 * (batched), so one query returns an order with its SKUs across the two subgraphs.
 */
const typeDefs = `
type Sku @key(fields: "sku_id", resolvable: false) {
  sku_id: String!
}

extend type OrderItem {
  """The SKU as the catalog has it now (the item keeps its checkout snapshot beside it)."""
  sku: Sku
}`;

/** Orders, payments, stock and its reservations, coupons. Shipments and documents arrive with part 2. */
export const orders: SubgraphDefinition<OrdersPorts> = {
  name: 'orders',
  defaultPort: 4003,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    warehouseCreate,
    inventoryAdjust,
    inventoryReserve,
    inventoryRelease,
    inventoryCommit,
    readInventory,
    paymentAppInstall,
    paymentAppUninstall,
    paymentWindowSet,
    couponCreate,
    orderCreate,
    orderPaymentConfirm,
    orderMarkPaid,
    orderCancel,
    orderExpireUnpaid,
    readOrders,
    readOrder,
  ],
  events: ordersEvents,
  ports: ordersPorts,
  entities: [],
  migrations: [Orders1795500000001],
  jobs: [expireUnpaidJob, releaseExpiredHoldsJob],
  typeDefs,
  resolvers: () => ({ OrderItem: { sku: (item: { sku_id: string }) => ({ __typename: 'Sku', sku_id: item.sku_id }) } }) as never,
};
