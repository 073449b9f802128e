import { type Static, t, type Sql } from '@backoffice/platform';
import type { Order, OrderDocument, OrderItem, PaymentAttempt, Reservation, Shipment } from '../entities';
import { ORDER_LIMITS } from './order-limits';
import { addressFor, addressView, customerFor, customerView } from './order-view';
import { documentKind } from './shipments';
import { MACHINES } from './states';

/**
 * The `Order` entity and its parts: the single order read answers it whole; references and mutation
 * results answer its row (`orderNode`), the orders connection the row's fields its page asks (lean or
 * whole); the links (items, attempts, shipments, documents) then loaded per request only when
 * selected (`references.ts`).
 */

export const orderItemView = t.entity('OrderItem', {
  order_item_id: t.string(),
  sku_id: t.string(),
  product_id: t.string(),
  code: t.string(),
  title: t.string({ description: 'as it was at checkout' }),
  qty: t.integer({ minimum: 1 }),
  unit_amount: t.integer({ description: 'the price at checkout (the promotional amount when there was one)' }),
  line_amount: t.integer(),
});

export const paymentAttemptView = t.entity('PaymentAttempt', {
  payment_attempt_id: t.string(),
  app_id: t.string(),
  method: t.string(),
  status: MACHINES.payment_attempt.enum(),
  failure_reason: t.nullable(t.string()),
  provider_reference: t.nullable(t.string()),
  orphaned: t.boolean(),
  created_at: t.timestamp(),
});

const shipmentFields = {
  shipment_id: t.string(),
  status: MACHINES.shipment.enum(undefined, { description: 'pending: not yet dispatched (it may be split)' }),
  warehouse_id: t.string({ description: 'where it ships from' }),
  estimated_delivery_date: t.nullable(t.string({ format: 'date', description: 'YYYY-MM-DD, stamped when the parcel was created' })),
  carrier: t.nullable(t.string()),
  tracking_code: t.nullable(t.string()),
  tracking_url: t.nullable(t.string()),
};
const shipmentTimes = { created_at: t.timestamp(), dispatched_at: t.nullable(t.timestamp()), delivered_at: t.nullable(t.timestamp()) };

export const shipmentItemView = t.entity('ShipmentItem', { order_item_id: t.string(), sku_id: t.string(), qty: t.integer({ minimum: 1 }) });

export const shipmentView = t.entity(
  'Shipment',
  {
    ...shipmentFields,
    items: t.array(shipmentItemView, { maxItems: ORDER_LIMITS.items.max, description: 'in the order of the items' }),
    ...shipmentTimes,
  },
  'shipment_id',
);

/**
 * A shipment's row as the shipments connection answers it: the same GraphQL type (`Shipment`, whose
 * fields the single order read declares first), its items loaded when selected; `order_id` rides
 * along for the `order` link.
 */
export const shipmentNode = t.entity('Shipment', { ...shipmentFields, order_id: t.string(), ...shipmentTimes }, 'shipment_id');

export const orderDocumentView = t.entity('OrderDocument', {
  document_id: t.string(),
  kind: documentKind,
  shipment_id: t.nullable(t.string()),
  name: t.nullable(t.string()),
  file_url: t.nullable(t.string()),
  asset_id: t.nullable(t.string()),
  metadata: t.record(),
  created_at: t.timestamp(),
});

const head = {
  order_id: t.string(),
  store_id: t.string(),
  status: MACHINES.order.enum(),
  cancel_reason: t.nullable(t.string()),
  currency: t.string(),
  subtotal_amount: t.integer(),
  discount_amount: t.integer(),
  shipping_amount: t.integer({ description: 'the shipping method’s price at checkout; 0 without a method or rates (extension)' }),
  total_amount: t.integer({ description: 'subtotal_amount − discount_amount + shipping_amount' }),
  customer: customerView,
  shipping_address: addressView,
  shipping_method_id: t.nullable(t.string()),
};
const reservation = t.object({ reservation_id: t.string(), warehouse_id: t.string(), status: MACHINES.reservation.enum() });
const tail = {
  payment_expires_at: t.nullable(t.timestamp()),
  created_at: t.timestamp(),
  paid_at: t.nullable(t.timestamp()),
  cancelled_at: t.nullable(t.timestamp()),
};

/** The order whole, as `read.internal.order` answers it (and REST with it). */
export const orderView = t.entity(
  'Order',
  {
    ...head,
    items: t.array(orderItemView, { maxItems: ORDER_LIMITS.items.max }),
    reservation,
    payment_attempts: t.array(paymentAttemptView, { maxItems: ORDER_LIMITS.paymentAttempts.max, description: 'newest first' }),
    shipments: t.array(shipmentView, {
      maxItems: ORDER_LIMITS.parcels.max,
      description: 'the parcels, oldest first; together they hold every item in its ordered quantity',
    }),
    documents: t.array(orderDocumentView, { maxItems: ORDER_LIMITS.documents.max, description: 'oldest first' }),
    ...tail,
  },
  'order_id',
);

/**
 * The order's own row: the same GraphQL type `Order` (the single order read declares its fields
 * first, so this one must be declared after it), its links resolved when selected.
 */
export const orderNode = t.entity('Order', { ...head, reservation, ...tail }, 'order_id');

/** The order's own columns its row reads: not its metadata, nor its amounts as text (they come as numbers). */
type OwnColumn = keyof Pick<
  Order,
  | 'id'
  | 'store_id'
  | 'status'
  | 'cancel_reason'
  | 'currency'
  | 'customer'
  | 'shipping_address'
  | 'shipping_method_id'
  | 'reservation_id'
  | 'payment_expiry'
  | 'payment_due_at'
  | 'created_at'
  | 'paid_at'
  | 'cancelled_at'
>;

export type OrderRow = Pick<Order, OwnColumn> & {
  subtotal: number;
  discount: number;
  shipping: number;
  total: number;
  warehouse_id: string;
  reservation_status: Reservation['status'];
};

const iso = (at: Date | null) => at?.toISOString() ?? null;
const own = (column: OwnColumn) => `o.${column}`;
/** A field of the order's row: the columns it is read from (`o`, its reservation `r`) and its value as the actor may see it. */
const field = <T>(columns: readonly string[], value: (order: OrderRow, pii: boolean) => T) => ({ columns, value });

/** Each field of `orderNode`, in its order: a list reads the lean ones unless its page asks more (`orderFieldsAt`). */
const ORDER_FIELDS = {
  order_id: field([own('id')], (o) => o.id),
  store_id: field([own('store_id')], (o) => o.store_id),
  status: field([own('status')], (o) => o.status),
  cancel_reason: field([own('cancel_reason')], (o) => o.cancel_reason),
  currency: field([own('currency')], (o) => o.currency),
  subtotal_amount: field(['o.subtotal_amount::float8 AS subtotal'], (o) => o.subtotal),
  discount_amount: field(['o.discount_amount::float8 AS discount'], (o) => o.discount),
  shipping_amount: field(['o.shipping_amount::float8 AS shipping'], (o) => o.shipping),
  total_amount: field(['o.total_amount::float8 AS total'], (o) => o.total),
  customer: field([own('customer')], (o, pii) => customerFor(o.customer, pii)),
  shipping_address: field([own('shipping_address')], (o, pii) => addressFor(o.shipping_address, pii)),
  shipping_method_id: field([own('shipping_method_id')], (o) => o.shipping_method_id),
  reservation: field([own('reservation_id'), 'r.warehouse_id', 'r.status AS reservation_status'], (o) => ({
    reservation_id: o.reservation_id,
    warehouse_id: o.warehouse_id,
    status: o.reservation_status,
  })),
  payment_expires_at: field([own('payment_expiry'), own('payment_due_at')], (o) => (o.payment_expiry === 'timed' ? iso(o.payment_due_at) : null)),
  created_at: field([own('created_at')], (o) => o.created_at.toISOString()),
  paid_at: field([own('paid_at')], (o) => iso(o.paid_at)),
  cancelled_at: field([own('cancelled_at')], (o) => iso(o.cancelled_at)),
};
type OrderField = keyof typeof ORDER_FIELDS;
const ALL_FIELDS = Object.keys(ORDER_FIELDS) as OrderField[];
/**
 * What a list reads of each order unless its page asks more: its own scalar columns and one time (the
 * links' keys among them). Not the customer, the address (JSON both), the reservation (a join) nor
 * the other times.
 */
const ORDER_LEAN: readonly OrderField[] = ALL_FIELDS.filter(
  (name) => !['customer', 'shipping_address', 'reservation', 'payment_expires_at', 'paid_at', 'cancelled_at'].includes(name),
);

export type OrderNode = { [F in OrderField]: ReturnType<(typeof ORDER_FIELDS)[F]['value']> };

/** The SELECT list of an order's row with these fields. */
export const orderColumns = (fields: readonly OrderField[]) => fields.flatMap((name) => ORDER_FIELDS[name].columns).join(', ');

/** The SELECT list and FROM of an order's whole row (`o`, its reservation `r`). */
const ORDER_COLUMNS = orderColumns(ALL_FIELDS);
const ORDER_FROM = 'orders."order" o JOIN orders.reservation r ON r.id = o.reservation_id';

/** The FROM of an order's row with these fields: its reservation joined only when read (every order has one: the join drops none). */
export const orderFrom = (fields: readonly OrderField[]) => (fields.includes('reservation') ? ORDER_FROM : 'orders."order" o');

/** What a list reads for a selection at `path`: the lean fields, or all when it asks another (two texts, not one per subset). */
const leanOrAll = <F extends string>(all: readonly F[], lean: readonly F[], selects: (path: string) => boolean, path: string): readonly F[] =>
  all.some((name) => !lean.includes(name) && selects(`${path}.${name}`)) ? all : lean;

/** The order fields a list reads for a selection at `path` (e.g. `edges.node`). */
export const orderFieldsAt = (selects: (path: string) => boolean, path: string) => leanOrAll(ALL_FIELDS, ORDER_LEAN, selects, path);

/** Those fields of an order's row (read with `orderColumns(fields)`) as the actor may see them. */
export function orderFields(order: OrderRow, pii: boolean, fields: readonly OrderField[]): Partial<OrderNode> {
  const node: Record<string, unknown> = {};
  for (const name of fields) node[name] = ORDER_FIELDS[name].value(order, pii);
  return node;
}

/** An order's whole row as the actor may see it (personal fields masked without pii.read). */
export const orderOf = (order: OrderRow, pii: boolean) => orderFields(order, pii, ALL_FIELDS) as OrderNode;

/** The tenant's orders of these ids (another tenant's are absent). */
export async function ordersByIds(sql: Sql, ids: readonly string[], tenantId: string, pii: boolean): Promise<OrderNode[]> {
  const rows = await sql.prepared<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM ${ORDER_FROM} WHERE o.id = ANY($1::text[]) AND o.tenant_id = $2`, [ids, tenantId]);
  return rows.map((row) => orderOf(row, pii));
}

type ItemRow = Pick<OrderItem, 'order_id' | 'sku_id' | 'product_id' | 'code' | 'title' | 'qty'> & {
  order_item_id: string;
  unit_amount: number;
  line_amount: number;
};

/** The items of these orders of the tenant, each order's in their position. */
export async function itemsOf(sql: Sql, orderIds: readonly string[], tenantId: string) {
  const rows = await sql.prepared<ItemRow>(
    `SELECT order_id, id AS order_item_id, sku_id, product_id, code, title, qty, unit_amount::float8 AS unit_amount, line_amount::float8 AS line_amount
     FROM orders.order_item WHERE order_id = ANY($1::text[]) AND tenant_id = $2 ORDER BY order_id, position`,
    [orderIds, tenantId],
  );
  return grouped(rows, orderIds, 'order_id', ({ order_id, ...item }) => item);
}

/** The items an order's row carries when its read selected them (see `itemsColumn`): `Order.items` then loads nothing. */
export const ITEMS_OF_ORDER = Symbol('items');

/** An item's fields (as `orderItemView` and `itemsOf` answer them), each with its column, in the order a list reads them. */
const ITEM_COLUMNS = {
  order_item_id: 'i.id',
  sku_id: 'i.sku_id',
  product_id: 'i.product_id',
  code: 'i.code',
  title: 'i.title',
  qty: 'i.qty',
  unit_amount: 'i.unit_amount',
  line_amount: 'i.line_amount',
} as const satisfies Record<keyof Static<typeof orderItemView>, string>;
type ItemField = keyof typeof ITEM_COLUMNS;
const ITEM_FIELDS = Object.keys(ITEM_COLUMNS) as ItemField[];
/** What a list reads of each item unless its page asks more: the SKU (`OrderItem.sku` needs only its id), code, quantity and amounts. */
const ITEM_LEAN: readonly ItemField[] = ['sku_id', 'code', 'qty', 'unit_amount', 'line_amount'];

/** The item fields a list reads for a selection at `path` (e.g. `edges.node.items`); null when it asks no items. */
export const itemFieldsAt = (selects: (path: string) => boolean, path: string) => (selects(path) ? leanOrAll(ITEM_FIELDS, ITEM_LEAN, selects, path) : null);

/**
 * The order's (`o`) items, those fields of each in their position, as a column of its row read in the
 * same statement. Each item is a JSON array, not an object: a page of items is quicker to build and
 * read without the keys (docs/decisions/order-list.md; `itemsOfColumn` names the values again).
 */
export const itemsColumn = (fields: readonly ItemField[]) =>
  `(SELECT coalesce(json_agg(json_build_array(${fields.map((field) => ITEM_COLUMNS[field]).join(', ')}) ORDER BY i.position), '[]')
  FROM orders.order_item i WHERE i.order_id = o.id AND i.tenant_id = o.tenant_id) AS items`;

/** The items `itemsColumn(fields)` read, as objects of those fields. */
export function itemsOfColumn(fields: readonly ItemField[], items: readonly unknown[][]): Record<string, unknown>[] {
  return items.map((values) => {
    const item: Record<string, unknown> = {};
    for (let k = 0; k < fields.length; k++) item[fields[k]] = values[k];
    return item;
  });
}

type AttemptRow = Pick<PaymentAttempt, 'order_id' | 'app_id' | 'method' | 'status' | 'failure_reason' | 'provider_reference' | 'created_at'> & {
  payment_attempt_id: string;
  orphaned: boolean;
};

/** The payment attempts of these orders of the tenant, newest first. */
export async function attemptsOf(sql: Sql, orderIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<AttemptRow>(
    `SELECT order_id, id AS payment_attempt_id, app_id, method, status, failure_reason, provider_reference, orphaned_at IS NOT NULL AS orphaned, created_at
     FROM orders.payment_attempt WHERE order_id = ANY($1::text[]) AND tenant_id = $2 ORDER BY created_at DESC, id DESC`,
    [orderIds, tenantId],
  );
  return grouped(rows, orderIds, 'order_id', ({ order_id, ...a }) => ({ ...a, created_at: a.created_at.toISOString() }));
}

export type ShipmentRow = Pick<
  Shipment,
  'order_id' | 'status' | 'warehouse_id' | 'tracking_code' | 'tracking_url' | 'created_at' | 'dispatched_at' | 'delivered_at'
> & {
  shipment_id: string;
  estimated_delivery_date: string | null;
  carrier: string | null;
};

/** The SELECT list of a shipment's row (`s`) as `shipmentNode`. */
export const SHIPMENT_COLUMNS = `s.id AS shipment_id, s.order_id, s.status, s.warehouse_id, s.estimated_delivery_date::text AS estimated_delivery_date,
  s.tracking_carrier AS carrier, s.tracking_code, s.tracking_url, s.created_at, s.dispatched_at, s.delivered_at`;

export const shipmentOf = (s: ShipmentRow) => ({
  ...s,
  created_at: s.created_at.toISOString(),
  dispatched_at: iso(s.dispatched_at),
  delivered_at: iso(s.delivered_at),
});

export type ShipmentNode = ReturnType<typeof shipmentOf>;

/** The tenant's shipments, by their ids or their orders' ids, oldest first. */
export async function shipmentsBy(sql: Sql, by: 'id' | 'order_id', ids: readonly string[], tenantId: string): Promise<ShipmentNode[]> {
  const rows = await sql.rows<ShipmentRow>(
    `SELECT ${SHIPMENT_COLUMNS} FROM orders.shipment s WHERE s.${by} = ANY($1::text[]) AND s.tenant_id = $2 ORDER BY s.created_at, s.id`,
    [ids, tenantId],
  );
  return rows.map(shipmentOf);
}

/** The items of these shipments of the tenant, in the order of the order's items. */
export async function shipmentItemsOf(sql: Sql, shipmentIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<{ shipment_id: string; order_item_id: string; sku_id: string; qty: number }>(
    `SELECT s.shipment_id, s.order_item_id, i.sku_id, s.qty FROM orders.shipment_item s JOIN orders.order_item i ON i.id = s.order_item_id
     WHERE s.shipment_id = ANY($1::text[]) AND i.tenant_id = $2 ORDER BY i.position`,
    [shipmentIds, tenantId],
  );
  return grouped(rows, shipmentIds, 'shipment_id', ({ shipment_id, ...item }) => item);
}

type DocumentRow = Pick<OrderDocument, 'order_id' | 'kind' | 'shipment_id' | 'name' | 'file_url' | 'asset_id' | 'metadata' | 'created_at'> & {
  document_id: string;
};

/** The documents of these orders of the tenant, oldest first. */
export async function documentsOf(sql: Sql, orderIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<DocumentRow>(
    `SELECT order_id, id AS document_id, kind, shipment_id, name, file_url, asset_id, metadata, created_at
     FROM orders.order_document WHERE order_id = ANY($1::text[]) AND tenant_id = $2 ORDER BY created_at, id`,
    [orderIds, tenantId],
  );
  return grouped(rows, orderIds, 'order_id', ({ order_id, ...d }) => ({ ...d, created_at: d.created_at.toISOString() }));
}

/** Rows grouped by `key`, one list per asked id (in the asked order), each row shaped. */
export function grouped<K extends string, R extends Record<K, string>, V>(rows: R[], ids: readonly string[], key: K, shape: (row: R) => V): V[][] {
  const byId = new Map<string, V[]>(ids.map((id) => [id, []]));
  for (const row of rows) byId.get(row[key])?.push(shape(row));
  return ids.map((id) => byId.get(id) ?? []);
}
