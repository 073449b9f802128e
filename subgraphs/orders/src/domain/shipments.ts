import { AppError, conflict, newId, t, validationFailed } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { MACHINES, type StateOf } from './states';

/** The kinds of order documents (the reference's order.document.attach). */
export const DOCUMENT_KINDS = ['fiscal_invoice', 'shipping_label', 'packing_slip', 'content_declaration', 'delivery_proof', 'other'] as const;

/** A URL a caller gives (tracking, document): http or https only, up to 2048 characters. */
export const httpUrlField = (description: string) => t.string({ minLength: 1, maxLength: 2048, description: `http(s) URL; ${description}` });

/** Refuses anything but an absolute http(s) URL (no javascript:, data:, ftp:, relative paths). */
export function requireHttpUrl(field: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationFailed(`${field}: not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationFailed(`${field}: only http and https URLs are accepted`);
}

export interface ParcelItem {
  order_item_id: string;
  qty: number;
}

export interface ParcelRow {
  id: string;
  order_id: string;
  tenant_id: string;
  warehouse_id: string;
  status: StateOf<'shipment'>;
  /** YYYY-MM-DD (read as text: no time zone in between). */
  estimated_delivery_date: string | null;
  tracking_carrier: string | null;
  tracking_code: string | null;
  tracking_url: string | null;
}

export interface ShippingOrder {
  id: string;
  tenant_id: string;
  status: StateOf<'order'>;
}

/** How a parcel's state reads in a message. */
const PARCEL_STATE_WORDS: Record<string, string> = { pending: 'not yet dispatched' };

const PARCEL_COLUMNS = `id, order_id, tenant_id, warehouse_id, status, estimated_delivery_date::text AS estimated_delivery_date, tracking_carrier, tracking_code, tracking_url`;

/**
 * Writes a new parcel of an order, not dispatched, holding `items` (default: every item of the order
 * in its full quantity: the parcel of a new order). `estimatedDeliveryDate` (YYYY-MM-DD or null) is
 * stamped now and never recalculated. One statement; returns the parcel's id.
 */
export async function insertParcel(
  db: EntityManager,
  parcel: { tenant_id: string; order_id: string; warehouse_id: string; estimated_delivery_date: string | null },
  items?: readonly ParcelItem[],
): Promise<string> {
  const id = newId('shp');
  const head = `WITH s AS (INSERT INTO orders.shipment (id, tenant_id, order_id, warehouse_id, status, estimated_delivery_date) VALUES ($1, $2, $3, $4, 'pending', $5::date))
     INSERT INTO orders.shipment_item (shipment_id, order_item_id, qty)`;
  const params = [id, parcel.tenant_id, parcel.order_id, parcel.warehouse_id, parcel.estimated_delivery_date];
  if (items) await db.query(`${head} SELECT $1::text, u.* FROM unnest($6::text[], $7::int[]) AS u`, [...params, items.map((i) => i.order_item_id), items.map((i) => i.qty)]);
  else await db.query(`${head} SELECT $1::text, i.id, i.qty FROM orders.order_item i WHERE i.order_id = $3`, params);
  return id;
}

/**
 * An order of the tenant, share-locked for a change to its parcels or documents (cancel and mark
 * paid wait for it, and it for them; parcel commands on one order run side by side); a conflict
 * when there is none.
 */
export async function orderForShipping(db: EntityManager, tenantId: string, orderId: string): Promise<ShippingOrder> {
  const [order] = (await db.query(`SELECT id, tenant_id, status FROM orders."order" WHERE id = $1 AND tenant_id = $2 FOR SHARE`, [orderId, tenantId])) as ShippingOrder[];
  if (!order) throw conflict(`order ${orderId} does not exist in this tenant`);
  return order;
}

/** A parcel of the order, locked; a conflict when the order has no such parcel. */
export async function lockParcel(db: EntityManager, orderId: string, shipmentId: string): Promise<ParcelRow> {
  const [parcel] = (await db.query(`SELECT ${PARCEL_COLUMNS} FROM orders.shipment WHERE id = $1 AND order_id = $2 FOR UPDATE`, [shipmentId, orderId])) as ParcelRow[];
  if (!parcel) throw conflict(`shipment ${shipmentId} is not a parcel of order ${orderId}`);
  return parcel;
}

/**
 * The order's one parcel (among those in `states`, when given), locked, for a command that may omit
 * `shipment_id`: none is a conflict, several a validation failure asking for `field`.
 */
export async function lockOnlyParcel(db: EntityManager, orderId: string, field: string, states?: readonly string[]): Promise<ParcelRow> {
  const filter = `order_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))`;
  for (let attempt = 0; ; attempt += 1) {
    const parcels = (await db.query(`SELECT ${PARCEL_COLUMNS} FROM orders.shipment WHERE ${filter} ORDER BY id FOR UPDATE`, [orderId, states ?? null])) as ParcelRow[];
    // The lock waited for concurrent splits, whose new parcels that statement could not see: a new
    // statement does. The same parcels: they are the order's now; otherwise look again.
    const now = (await db.query(`SELECT id FROM orders.shipment WHERE ${filter} ORDER BY id`, [orderId, states ?? null])) as Array<{ id: string }>;
    if (now.length !== parcels.length || now.some((p, i) => p.id !== parcels[i].id)) {
      if (attempt < 3) continue;
      throw conflict(`the parcels of order ${orderId} keep changing; try again`);
    }
    const which = states ? `parcels ${states.map((state) => PARCEL_STATE_WORDS[state] ?? state).join(' or ')}` : 'parcels';
    if (!parcels.length) throw conflict(`order ${orderId} has no ${which}`);
    if (parcels.length > 1) throw validationFailed(`${field}: order ${orderId} has ${parcels.length} ${which}; name one`);
    return parcels[0];
  }
}

/**
 * Moves `lines` out of the locked parcel `source` into a new parcel at `warehouseId`, stamped with
 * the source's estimated delivery date. Each line must be an item of the source's order (else a
 * conflict) and within what the source holds (else `exceeds_remaining` with `requested` and
 * `remaining`). A source left empty is deleted, its documents moved to the new parcel. Returns the
 * new parcel and whether the source was deleted.
 */
export async function splitParcel(
  db: EntityManager,
  source: ParcelRow,
  lines: readonly ParcelItem[],
  warehouseId: string,
): Promise<{ shipment_id: string; deleted: boolean }> {
  const ids = lines.map((l) => l.order_item_id);
  const [ours, held] = (await Promise.all([
    db.query(`SELECT id FROM orders.order_item WHERE order_id = $1 AND id = ANY($2::text[])`, [source.order_id, ids]),
    db.query(`SELECT order_item_id, qty FROM orders.shipment_item WHERE shipment_id = $1`, [source.id]),
  ])) as [Array<{ id: string }>, ParcelItem[]];
  const known = new Set(ours.map((r) => r.id));
  const stranger = ids.find((id) => !known.has(id));
  if (stranger) throw conflict(`order item ${stranger} is not an item of order ${source.order_id}`);
  const holds = new Map(held.map((h) => [h.order_item_id, h.qty]));
  for (const line of lines) {
    const remaining = holds.get(line.order_item_id) ?? 0;
    if (line.qty > remaining) {
      throw new AppError('exceeds_remaining', `order item ${line.order_item_id}: ${line.qty} requested, shipment ${source.id} holds ${remaining}`, {
        order_item_id: line.order_item_id,
        shipment_id: source.id,
        requested: line.qty,
        remaining,
      });
    }
    holds.set(line.order_item_id, remaining - line.qty);
  }
  const emptied = [...holds.values()].every((qty) => qty === 0);
  // Out of the source: rows moved entirely go, the others shrink (the CHECK keeps every row above 0).
  await db.query(
    `WITH u AS (SELECT * FROM unnest($2::text[], $3::int[]) AS u(order_item_id, qty)),
          gone AS (DELETE FROM orders.shipment_item s USING u WHERE s.shipment_id = $1 AND s.order_item_id = u.order_item_id AND s.qty = u.qty),
          touched AS (UPDATE orders.shipment SET updated_at = now() WHERE id = $1)
     UPDATE orders.shipment_item s SET qty = s.qty - u.qty FROM u WHERE s.shipment_id = $1 AND s.order_item_id = u.order_item_id AND s.qty > u.qty`,
    [source.id, ids, lines.map((l) => l.qty)],
  );
  const shipmentId = await insertParcel(
    db,
    { tenant_id: source.tenant_id, order_id: source.order_id, warehouse_id: warehouseId, estimated_delivery_date: source.estimated_delivery_date },
    lines,
  );
  if (emptied) {
    // Everything it held moved on, and so do the documents that named it.
    await db.query(
      `WITH moved AS (UPDATE orders.order_document SET shipment_id = $2 WHERE shipment_id = $1)
       DELETE FROM orders.shipment WHERE id = $1`,
      [source.id, shipmentId],
    );
  }
  return { shipment_id: shipmentId, deleted: emptied };
}

/** A parcel in an event's words. */
export const parcelEvent = (parcel: ParcelRow) => ({
  order_id: parcel.order_id,
  shipment_id: parcel.id,
  status: parcel.status,
  carrier: parcel.tracking_carrier,
  tracking_code: parcel.tracking_code,
  tracking_url: parcel.tracking_url,
});

/** When a parcel reached each state after the first. */
const STAMP = { dispatched: 'dispatched_at', delivered: 'delivered_at' } as const;

/**
 * Moves a locked parcel to `to` (dispatched, delivered) as the state table allows: false when it is
 * there already (a repeat: no change), a conflict for a move the table refuses (back, or skipping).
 */
export async function advanceParcel(db: EntityManager, parcel: ParcelRow, to: 'dispatched' | 'delivered'): Promise<boolean> {
  if (MACHINES.shipment.assertMove(parcel.id, parcel.status, to) === 'same') return false;
  await db.query(`UPDATE orders.shipment SET status = $2, ${STAMP[to]} = now(), updated_at = now() WHERE id = $1`, [parcel.id, to]);
  parcel.status = to;
  return true;
}
