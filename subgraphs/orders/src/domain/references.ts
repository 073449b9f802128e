import { forbidden, unauthorized, sqlOf, type Actor, type Sql, type SubgraphContext } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import {
  COUPON_COLUMNS,
  couponOf,
  levelsOfSkus,
  levelsOfWarehouses,
  type AppRow,
  PAYMENT_APP_COLUMNS,
  paymentAppOf,
  storeWindowsOf,
  usesOfCoupons,
  WAREHOUSE_COLUMNS,
  warehouseOf,
  ZONE_COLUMNS,
  zoneOf,
} from './admin-views';
import { FULFILMENT_COLUMN, FULFILMENT_OF_ORDER, type FulfilmentStatus } from './fulfilment';
import {
  attemptsOf,
  documentsOf,
  grouped,
  ITEMS_OF_ORDER,
  itemsOf,
  ordersByIds,
  shipmentItemsOf,
  shipmentsBy,
  type OrderNode,
  type ShipmentNode,
} from './order-entity';
import { METHOD_COLUMNS, methodOut, type MethodRow } from './shipping';

/** The read scope of each list whose rows the graph links to. */
const ORDERS = 'order.read';
const LOGISTICS = 'logistics.read';

type Find<V> = (sql: Sql, ids: readonly string[], actor: Actor) => Promise<V[]>;

/** Rows answered in the asked ids' order, null where absent (another tenant's id too). */
const byId =
  <R>(key: keyof R, find: Find<R>): Find<R | null> =>
  async (sql, ids, actor) => {
    const found = new Map((await find(sql, ids, actor)).map((row) => [row[key] as string, row]));
    return ids.map((id) => found.get(id) ?? null);
  };

/** The tenant's rows of one table by id, shaped. */
const tenantRows =
  <R, V>(columns: string, from: string, shape: (row: R) => V): Find<V> =>
  async (sql, ids, actor) =>
    (await sql.prepared<R>(`SELECT ${columns} FROM ${from} WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, actor.tenant_id])).map(shape);

const batch = <V>(scope: string, find: Find<V>) => ({ scope, find });

/** Everything the graph loads, each with the read scope of the list it comes from. */
const BATCHES = {
  orders: batch(
    ORDERS,
    byId('order_id', (sql, ids, actor) => ordersByIds(sql, ids, actor.tenant_id, actor.scopes.includes('pii.read'))),
  ),
  items: batch(ORDERS, (sql, ids, actor) => itemsOf(sql, ids, actor.tenant_id)),
  fulfilment: batch(
    ORDERS,
    byId('order_id', (sql, ids, actor) =>
      sql.rows<{ order_id: string; fulfilment_status: FulfilmentStatus }>(
        `SELECT o.id AS order_id, ${FULFILMENT_COLUMN} FROM orders."order" o WHERE o.id = ANY($1::text[]) AND o.tenant_id = $2`,
        [ids, actor.tenant_id],
      ),
    ),
  ),
  attempts: batch(ORDERS, (sql, ids, actor) => attemptsOf(sql, ids, actor.tenant_id)),
  documents: batch(ORDERS, (sql, ids, actor) => documentsOf(sql, ids, actor.tenant_id)),
  orderShipments: batch(ORDERS, async (sql, ids, actor) => grouped(await shipmentsBy(sql, 'order_id', ids, actor.tenant_id), ids, 'order_id', (s) => s)),
  shipmentItems: batch(ORDERS, (sql, ids, actor) => shipmentItemsOf(sql, ids, actor.tenant_id)),
  shipments: batch(
    LOGISTICS,
    byId('shipment_id', (sql, ids, actor) => shipmentsBy(sql, 'id', ids, actor.tenant_id)),
  ),
  skuLevels: batch(LOGISTICS, (sql, ids, actor) => levelsOfSkus(sql, ids, actor.tenant_id)),
  warehouseLevels: batch(LOGISTICS, (sql, ids, actor) => levelsOfWarehouses(sql, ids, actor.tenant_id)),
  warehouses: batch(LOGISTICS, byId('warehouse_id', tenantRows(WAREHOUSE_COLUMNS, 'orders.warehouse w', warehouseOf))),
  // Payment apps and coupons have no read scope of their own: they are read with the orders naming them.
  apps: batch(
    ORDERS,
    byId('app_id', async (sql, ids, actor) => {
      const apps = await tenantRows(PAYMENT_APP_COLUMNS, 'orders.payment_app a', (a: AppRow) => a)(sql, ids, actor);
      const windows = await storeWindowsOf(sql, ids, actor.tenant_id);
      return apps.map((a) => paymentAppOf(a, windows));
    }),
  ),
  coupons: batch(ORDERS, byId('coupon_id', tenantRows(COUPON_COLUMNS, 'orders.coupon c', couponOf))),
  couponUses: batch(ORDERS, (sql, ids, actor) => usesOfCoupons(sql, ids, actor.tenant_id)),
  zones: batch(LOGISTICS, byId('zone_id', tenantRows(ZONE_COLUMNS, 'orders.shipping_zone', zoneOf))),
  methods: batch(LOGISTICS, byId('method_id', tenantRows<MethodRow, ReturnType<typeof methodOut>>(METHOD_COLUMNS, 'orders.shipping_method m', methodOut))),
};

type Name = keyof typeof BATCHES;
type ValueOf<K extends Name> = Awaited<ReturnType<(typeof BATCHES)[K]['find']>>[number];

/** One set of loaders per request (the context is the request's): N rows' links cost one statement per kind, not N. */
const perRequest = new WeakMap<SubgraphContext, Map<Name, DataLoader<string, unknown>>>();

/** Loads one row (or list) of `name` for the request's actor, after checking the scope of the list it comes from. */
async function load<K extends Name>(dataSource: DataSource, context: SubgraphContext, name: K, id: string, fresh = false): Promise<ValueOf<K>> {
  const actor = context.call?.actor;
  if (!actor) throw unauthorized().toGraphQLError();
  const { scope, find } = BATCHES[name];
  if (!actor.scopes.includes(scope)) throw forbidden(scope).toGraphQLError();
  // A command's result reads what the command left, not what an earlier command of the request had loaded.
  if (fresh) perRequest.delete(context);
  const loaders = perRequest.get(context) ?? new Map<Name, DataLoader<string, unknown>>();
  perRequest.set(context, loaders);
  const loader = loaders.get(name) ?? new DataLoader<string, unknown>((ids) => (find as Find<unknown>)(sqlOf(dataSource), ids, actor));
  loaders.set(name, loader);
  // Sound: the loader under `name` was made from BATCHES[name], whose values are ValueOf<K>.
  return (await loader.load(id)) as ValueOf<K>;
}

type Parent<T> = T & Record<string, unknown>;

/**
 * The orders subgraph's entities and links. Rows are loaded per request in batches (above); a link
 * whose data its parent already holds (the single order read answers the order whole) is not
 * loaded again. Each load checks the read scope of the list it comes from (forbidden naming it,
 * on that field only) and searches the actor's tenant only (another tenant's id resolves to null).
 */
export function orderResolvers({ dataSource }: { dataSource: DataSource }) {
  const get =
    <K extends Name>(name: K) =>
    (id: string, context: SubgraphContext) =>
      load(dataSource, context, name, id);
  const order = get('orders');
  const items = get('items');
  const orderShipments = get('orderShipments');
  const shipmentItems = get('shipmentItems');
  const shipmentsOf = async (o: Parent<OrderNode>, context: SubgraphContext) =>
    (o.shipments as Omit<ShipmentNode, 'order_id'>[] | undefined)?.map((s) => ({ ...s, order_id: o.order_id })) ?? orderShipments(o.order_id, context);
  const linesOf = (s: Parent<ShipmentNode>, context: SubgraphContext) =>
    (s.items as { order_item_id: string; qty: number }[] | undefined) ?? shipmentItems(s.shipment_id, context);
  const field =
    <K extends Name>(name: K, key: string, fresh = false) =>
    (parent: Record<string, unknown>, _: unknown, context: SubgraphContext) =>
      load(dataSource, context, name, parent[key] as string, fresh);
  return {
    Order: {
      __resolveReference: (ref: { order_id: string }, context: SubgraphContext) => order(ref.order_id, context),
      store: (o: OrderNode) => ({ __typename: 'Store', store_id: o.store_id }),
      items: (o: Parent<OrderNode> & { [ITEMS_OF_ORDER]?: unknown[] }, _: unknown, context: SubgraphContext) =>
        o.items ?? o[ITEMS_OF_ORDER] ?? items(o.order_id, context),
      payment_attempts: (o: Parent<OrderNode>, _: unknown, context: SubgraphContext) => o.payment_attempts ?? load(dataSource, context, 'attempts', o.order_id),
      documents: (o: Parent<OrderNode>, _: unknown, context: SubgraphContext) => o.documents ?? load(dataSource, context, 'documents', o.order_id),
      shipments: (o: Parent<OrderNode>, _: unknown, context: SubgraphContext) => shipmentsOf(o, context),
      shipping_method: (o: OrderNode, _: unknown, context: SubgraphContext) =>
        o.shipping_method_id && load(dataSource, context, 'methods', o.shipping_method_id),
      // The list reads it in its page's statement; elsewhere one statement answers every order of the request.
      fulfilment_status: async (o: Parent<OrderNode> & { [FULFILMENT_OF_ORDER]?: FulfilmentStatus }, _: unknown, context: SubgraphContext) =>
        o[FULFILMENT_OF_ORDER] ?? (await load(dataSource, context, 'fulfilment', o.order_id))?.fulfilment_status,
    },
    OrderItem: { sku: (item: { sku_id: string }) => ({ __typename: 'Sku', sku_id: item.sku_id }) },
    PaymentAttempt: { payment_app: field('apps', 'app_id') },
    Shipment: {
      __resolveReference: (ref: { shipment_id: string }, context: SubgraphContext) => load(dataSource, context, 'shipments', ref.shipment_id),
      items: (s: Parent<ShipmentNode>, _: unknown, context: SubgraphContext) => linesOf(s, context),
      order: field('orders', 'order_id'),
      warehouse: field('warehouses', 'warehouse_id'),
    },
    Sku: {
      __resolveReference: (ref: { sku_id: string }) => ({ sku_id: ref.sku_id }),
      stock_levels: field('skuLevels', 'sku_id'),
    },
    StockLevel: { warehouse: field('warehouses', 'warehouse_id') },
    Warehouse: {
      __resolveReference: (ref: { warehouse_id: string }, context: SubgraphContext) => load(dataSource, context, 'warehouses', ref.warehouse_id),
      levels: field('warehouseLevels', 'warehouse_id'),
    },
    PaymentApp: { __resolveReference: (ref: { app_id: string }, context: SubgraphContext) => load(dataSource, context, 'apps', ref.app_id) },
    Coupon: {
      __resolveReference: (ref: { coupon_id: string }, context: SubgraphContext) => load(dataSource, context, 'coupons', ref.coupon_id),
      uses: field('couponUses', 'coupon_id'),
    },
    CouponUse: { order: field('orders', 'order_id') },
    ShippingZone: { __resolveReference: (ref: { zone_id: string }, context: SubgraphContext) => load(dataSource, context, 'zones', ref.zone_id) },
    ShippingMethod: {
      __resolveReference: (ref: { method_id: string }, context: SubgraphContext) => load(dataSource, context, 'methods', ref.method_id),
    },
    ...mutationResults((name, key) => field(name, key, true)),
  };
}

type Field = <K extends Name>(name: K, key: string) => (parent: Record<string, unknown>, _: unknown, context: SubgraphContext) => Promise<ValueOf<K>>;

/** The entity each command's result names, resolved here with the same loaders (the gateway fetches nothing more). */
function mutationResults(field: Field) {
  const order = { order: field('orders', 'order_id') };
  const shipment = { ...order, shipment: field('shipments', 'shipment_id') };
  const paymentApp = { payment_app: field('apps', 'app_id') };
  return {
    OrderCreateResult: shipment,
    OrderPaymentConfirmResult: order,
    OrderMarkPaidResult: order,
    OrderCancelResult: order,
    OrderDocumentAttachResult: order,
    OrderShipmentCreateResult: shipment,
    OrderShipmentDispatchResult: shipment,
    OrderShipmentMarkDeliveredResult: shipment,
    OrderShipmentSetTrackingResult: shipment,
    InventoryWarehouseCreateResult: { warehouse: field('warehouses', 'warehouse_id') },
    InventoryAdjustResult: { warehouse: field('warehouses', 'warehouse_id') },
    PaymentAppInstallResult: paymentApp,
    PaymentAppUninstallResult: paymentApp,
    PaymentWindowSetResult: paymentApp,
    CouponCreateResult: { coupon: field('coupons', 'coupon_id') },
    ShippingZoneCreateResult: { shipping_zone: field('zones', 'zone_id') },
    ShippingMethodCreateResult: { shipping_method: field('methods', 'method_id') },
  };
}
