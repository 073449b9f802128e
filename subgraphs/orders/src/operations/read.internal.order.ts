import { notFound, t, sqlOf } from '@backoffice/platform';
import { addressFor, addressView, customerFor, customerView } from '../domain/order-view';
import { documentKind } from '../domain/shipments';
import { MACHINES } from '../domain/states';
import type { Order, OrderDocument, OrderItem, PaymentAttempt, Reservation, Shipment, ShipmentItem } from '../entities';
import { defineOrdersOperation } from '../ports';

const item = t.entity('OrderItem', {
  order_item_id: t.string(),
  sku_id: t.string(),
  product_id: t.string(),
  code: t.string(),
  title: t.string({ description: 'as it was at checkout' }),
  qty: t.integer({ minimum: 1 }),
  unit_amount: t.integer({ description: 'the price at checkout (the promotional amount when there was one)' }),
  line_amount: t.integer(),
});

const attempt = t.object({
  payment_attempt_id: t.string(),
  app_id: t.string(),
  method: t.string(),
  status: MACHINES.payment_attempt.enum(),
  failure_reason: t.nullable(t.string()),
  provider_reference: t.nullable(t.string()),
  orphaned: t.boolean(),
  created_at: t.timestamp(),
});

const shipment = t.entity('Shipment', {
  shipment_id: t.string(),
  status: MACHINES.shipment.enum(undefined, { description: 'pending: not yet dispatched (it may be split)' }),
  warehouse_id: t.string({ description: 'where it ships from' }),
  estimated_delivery_date: t.nullable(t.string({ format: 'date', description: 'YYYY-MM-DD, stamped when the parcel was created' })),
  carrier: t.nullable(t.string()),
  tracking_code: t.nullable(t.string()),
  tracking_url: t.nullable(t.string()),
  items: t.array(t.entity('ShipmentItem', { order_item_id: t.string(), sku_id: t.string(), qty: t.integer({ minimum: 1 }) }), {
    description: 'in the order of the items',
  }),
  created_at: t.timestamp(),
  dispatched_at: t.nullable(t.timestamp()),
  delivered_at: t.nullable(t.timestamp()),
});

const document = t.entity('OrderDocument', {
  document_id: t.string(),
  kind: documentKind,
  shipment_id: t.nullable(t.string()),
  name: t.nullable(t.string()),
  file_url: t.nullable(t.string()),
  asset_id: t.nullable(t.string()),
  metadata: t.record(),
  created_at: t.timestamp(),
});

type OrderRead = Order & { subtotal: number; discount: number; total: number; warehouse_id: string; reservation_status: Reservation['status'] };
type ItemRead = Pick<OrderItem, 'sku_id' | 'product_id' | 'code' | 'title' | 'qty'> & { order_item_id: string; unit_amount: number; line_amount: number };
type AttemptRead = Pick<PaymentAttempt, 'app_id' | 'method' | 'status' | 'failure_reason' | 'provider_reference' | 'created_at'> & {
  payment_attempt_id: string;
  orphaned: boolean;
};
type ShipmentRead = Pick<Shipment, 'status' | 'warehouse_id' | 'tracking_code' | 'tracking_url' | 'created_at' | 'dispatched_at' | 'delivered_at'> & {
  shipment_id: string;
  estimated_delivery_date: string | null;
  carrier: string | null;
};
type DocumentRead = Pick<OrderDocument, 'kind' | 'shipment_id' | 'name' | 'file_url' | 'asset_id' | 'metadata' | 'created_at'> & { document_id: string };

export const readInternalOrder = defineOrdersOperation({
  name: 'read.internal.order',
  kind: 'read',
  access: 'internal',
  scope: 'order.read',
  summary:
    'One order: items with their price snapshot, the reservation and its status, payment attempts, totals, customer ' +
    'and address, parcels (items and quantities, warehouse, status, estimated delivery date, tracking) and ' +
    'documents; personal fields masked without pii.read (extension).',
  restPath: '/internal/order',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({ order_id: t.id() }),
  result: t.object({
    order_id: t.string(),
    store_id: t.string(),
    status: MACHINES.order.enum(),
    cancel_reason: t.nullable(t.string()),
    currency: t.string(),
    subtotal_amount: t.integer(),
    discount_amount: t.integer(),
    total_amount: t.integer(),
    customer: customerView,
    shipping_address: addressView,
    shipping_method_id: t.nullable(t.string()),
    items: t.array(item),
    reservation: t.object({ reservation_id: t.string(), warehouse_id: t.string(), status: MACHINES.reservation.enum() }),
    payment_attempts: t.array(attempt, { description: 'newest first' }),
    shipments: t.array(shipment, { description: 'the parcels, oldest first; together they hold every item in its ordered quantity' }),
    documents: t.array(document, { description: 'oldest first' }),
    payment_expires_at: t.nullable(t.timestamp()),
    created_at: t.timestamp(),
    paid_at: t.nullable(t.timestamp()),
    cancelled_at: t.nullable(t.timestamp()),
  }),
  events: [],
  async handler({ input, actor, db }) {
    // One snapshot: shipments, their items and documents agree even while a split commits.
    return db.transaction('REPEATABLE READ', async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      const pii = actor.scopes.includes('pii.read');
      // One query at a time: a transaction's connection runs one at a time.
      const sql = sqlOf(tx);
      const order = await sql.one<OrderRead>(
        `SELECT o.*, o.subtotal_amount::float8 AS subtotal, o.discount_amount::float8 AS discount, o.total_amount::float8 AS total, r.warehouse_id, r.status AS reservation_status
         FROM orders."order" o JOIN orders.reservation r ON r.id = o.reservation_id WHERE o.id = $1 AND o.tenant_id = $2`,
        [input.order_id, actor.tenant_id],
      );
      if (!order) throw notFound(`order ${input.order_id} does not exist in this tenant`);
      const items = await sql.rows<ItemRead>(
        `SELECT id AS order_item_id, sku_id, product_id, code, title, qty, unit_amount::float8 AS unit_amount, line_amount::float8 AS line_amount
         FROM orders.order_item WHERE order_id = $1 ORDER BY position`,
        [order.id],
      );
      const attempts = await sql.rows<AttemptRead>(
        `SELECT id AS payment_attempt_id, app_id, method, status, failure_reason, provider_reference, orphaned_at IS NOT NULL AS orphaned, created_at
         FROM orders.payment_attempt WHERE order_id = $1 ORDER BY created_at DESC, id DESC`,
        [order.id],
      );
      const shipments = await sql.rows<ShipmentRead>(
        `SELECT id AS shipment_id, status, warehouse_id, estimated_delivery_date::text AS estimated_delivery_date, tracking_carrier AS carrier, tracking_code, tracking_url,
                created_at, dispatched_at, delivered_at
         FROM orders.shipment WHERE order_id = $1 ORDER BY created_at, id`,
        [order.id],
      );
      const shipmentItems = await sql.rows<ShipmentItem & Pick<OrderItem, 'sku_id'>>(
        `SELECT s.shipment_id, s.order_item_id, i.sku_id, s.qty FROM orders.shipment_item s JOIN orders.order_item i ON i.id = s.order_item_id
         WHERE i.order_id = $1 ORDER BY i.position`,
        [order.id],
      );
      const documents = await sql.rows<DocumentRead>(
        `SELECT id AS document_id, kind, shipment_id, name, file_url, asset_id, metadata, created_at FROM orders.order_document WHERE order_id = $1 ORDER BY created_at, id`,
        [order.id],
      );
      const iso = (at: Date | null) => at?.toISOString() ?? null;
      return {
        order_id: order.id,
        store_id: order.store_id,
        status: order.status,
        cancel_reason: order.cancel_reason,
        currency: order.currency,
        subtotal_amount: order.subtotal,
        discount_amount: order.discount,
        total_amount: order.total,
        customer: customerFor(order.customer, pii),
        shipping_address: addressFor(order.shipping_address, pii),
        shipping_method_id: order.shipping_method_id,
        items,
        reservation: { reservation_id: order.reservation_id, warehouse_id: order.warehouse_id, status: order.reservation_status },
        payment_attempts: attempts.map((a) => ({ ...a, created_at: a.created_at.toISOString() })),
        shipments: shipments.map((p) => ({
          ...p,
          items: shipmentItems.filter((i) => i.shipment_id === p.shipment_id).map(({ order_item_id, sku_id, qty }) => ({ order_item_id, sku_id, qty })),
          created_at: p.created_at.toISOString(),
          dispatched_at: iso(p.dispatched_at),
          delivered_at: iso(p.delivered_at),
        })),
        documents: documents.map((d) => ({ ...d, created_at: d.created_at.toISOString() })),
        payment_expires_at: order.payment_expiry === 'timed' ? iso(order.payment_due_at) : null,
        created_at: order.created_at.toISOString(),
        paid_at: iso(order.paid_at),
        cancelled_at: iso(order.cancelled_at),
      };
    });
  },
});
