import { AppError, conflict, newId, t, validationFailed, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { MACHINES, type StateOf } from './states';
import type { Shipment } from '../entities';

/** The kinds of order documents (the reference's order.document.attach). */
export const DOCUMENT_KINDS = ['fiscal_invoice', 'shipping_label', 'packing_slip', 'content_declaration', 'delivery_proof', 'other'] as const;
/** A document's kind: one GraphQL enum in the command and the read. */
export const documentKind = t.enum(DOCUMENT_KINDS, { name: 'OrderDocumentKind' });

/** A URL a caller gives (tracking, document): http or https only, up to 2048 characters. */
export const httpUrlField = (description: string) => t.string({ minLength: 1, maxLength: 2048, description: `http(s) URL; ${description}` });

/** Refuses anything but an absolute http(s) URL (no javascript:, data:, ftp:, relative paths). */
export function requireHttpUrl(field: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationFailed(`${field}: not an absolute URL`, { reason: 'pattern', field });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw validationFailed(`${field}: only http and https URLs are accepted`, { reason: 'pattern', field });
}

export interface ShipmentItem {
  order_item_id: string;
  qty: number;
}

/** A shipment as its operations read it; the date as text (YYYY-MM-DD: no time zone in between). */
export type ShipmentRow = Pick<
  Shipment,
  'id' | 'order_id' | 'tenant_id' | 'warehouse_id' | 'status' | 'tracking_carrier' | 'tracking_code' | 'tracking_url'
> & { estimated_delivery_date: string | null };

export interface ShippingOrder {
  id: string;
  tenant_id: string;
  status: StateOf<'order'>;
}

/** How a shipment's state reads in a message. */
const PARCEL_STATE_WORDS: Record<string, string> = { pending: 'not yet dispatched' };

const SHIPMENT_COLUMNS = `id, order_id, tenant_id, warehouse_id, status, estimated_delivery_date::text AS estimated_delivery_date, tracking_carrier, tracking_code, tracking_url`;

/**
 * Writes a new shipment of an order, not dispatched, holding `items` (default: every item of the order
 * in its full quantity: the shipment of a new order). `estimatedDeliveryDate` (YYYY-MM-DD or null) is
 * stamped now and never recalculated. One statement; returns the shipment's id.
 */
export async function insertShipment(
  db: EntityManager,
  shipment: { tenant_id: string; order_id: string; warehouse_id: string; estimated_delivery_date: string | null },
  items?: readonly ShipmentItem[],
): Promise<string> {
  const id = newId('shp');
  const head = `WITH s AS (INSERT INTO orders.shipment (id, tenant_id, order_id, warehouse_id, status, estimated_delivery_date) VALUES ($1, $2, $3, $4, 'pending', $5::date))
     INSERT INTO orders.shipment_item (shipment_id, order_item_id, qty)`;
  const params = [id, shipment.tenant_id, shipment.order_id, shipment.warehouse_id, shipment.estimated_delivery_date];
  if (items)
    await sqlOf(db).run(`${head} SELECT $1::text, u.* FROM unnest($6::text[], $7::int[]) AS u`, [
      ...params,
      items.map((i) => i.order_item_id),
      items.map((i) => i.qty),
    ]);
  else await sqlOf(db).run(`${head} SELECT $1::text, i.id, i.qty FROM orders.order_item i WHERE i.order_id = $3`, params);
  return id;
}

/**
 * An order of the tenant, share-locked for a change to its shipments or documents (cancel and mark
 * paid wait for it, and it for them; shipment commands on one order run side by side); a conflict
 * when there is none.
 */
export async function orderForShipping(db: EntityManager, tenantId: string, orderId: string): Promise<ShippingOrder> {
  const [order] = await sqlOf(db).rows<ShippingOrder>(`SELECT id, tenant_id, status FROM orders."order" WHERE id = $1 AND tenant_id = $2 FOR SHARE`, [
    orderId,
    tenantId,
  ]);
  if (!order) throw conflict(`order ${orderId} does not exist in this tenant`, { reason: 'not_found', field: 'order_id' });
  return order;
}

/** A shipment of the order, locked; a conflict when the order has no such shipment. */
export async function lockShipment(db: EntityManager, orderId: string, shipmentId: string): Promise<ShipmentRow> {
  const [shipment] = await sqlOf(db).rows<ShipmentRow>(`SELECT ${SHIPMENT_COLUMNS} FROM orders.shipment WHERE id = $1 AND order_id = $2 FOR UPDATE`, [
    shipmentId,
    orderId,
  ]);
  if (!shipment) throw conflict(`shipment ${shipmentId} is not a parcel of order ${orderId}`, { reason: 'not_found' });
  return shipment;
}

/**
 * The order's one shipment (among those in `states`, when given), locked, for a command that may omit
 * `shipment_id`: none is a conflict, several a validation failure asking for `field`.
 */
export async function lockOnlyShipment(db: EntityManager, orderId: string, field: string, states?: readonly string[]): Promise<ShipmentRow> {
  const filter = `order_id = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[]))`;
  for (let attempt = 0; ; attempt += 1) {
    const shipments = await sqlOf(db).rows<ShipmentRow>(`SELECT ${SHIPMENT_COLUMNS} FROM orders.shipment WHERE ${filter} ORDER BY id FOR UPDATE`, [
      orderId,
      states ?? null,
    ]);
    // The lock waited for concurrent splits, whose new shipments that statement could not see: a new
    // statement does. The same shipments: they are the order's now; otherwise look again.
    const now = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM orders.shipment WHERE ${filter} ORDER BY id`, [orderId, states ?? null]);
    if (now.length !== shipments.length || now.some((p, i) => p.id !== shipments[i].id)) {
      if (attempt < 3) continue;
      throw conflict(`the parcels of order ${orderId} keep changing; try again`, { reason: 'unavailable' });
    }
    const which = states ? `parcels ${states.map((state) => PARCEL_STATE_WORDS[state] ?? state).join(' or ')}` : 'parcels';
    if (!shipments.length) throw conflict(`order ${orderId} has no ${which}`, { reason: 'illegal_transition' });
    if (shipments.length > 1) throw validationFailed(`${field}: order ${orderId} has ${shipments.length} ${which}; name one`, { reason: 'required', field });
    return shipments[0];
  }
}

/**
 * Moves `lines` out of the locked shipment `source` into a new shipment at `warehouseId`, stamped with
 * the source's estimated delivery date. Each line must be an item of the source's order (else a
 * conflict) and within what the source holds (else `exceeds_remaining` with `requested` and
 * `remaining`). A source left empty is deleted, its documents moved to the new shipment. Returns the
 * new shipment and whether the source was deleted.
 */
export async function splitShipment(
  db: EntityManager,
  source: ShipmentRow,
  lines: readonly ShipmentItem[],
  warehouseId: string,
): Promise<{ shipment_id: string; deleted: boolean }> {
  const ids = lines.map((l) => l.order_item_id);
  const sql = sqlOf(db);
  const [ours, held] = await Promise.all([
    sql.rows<{ id: string }>(`SELECT id FROM orders.order_item WHERE order_id = $1 AND id = ANY($2::text[])`, [source.order_id, ids]),
    sql.rows<ShipmentItem>(`SELECT order_item_id, qty FROM orders.shipment_item WHERE shipment_id = $1`, [source.id]),
  ]);
  const known = new Set(ours.map((r) => r.id));
  const stranger = ids.find((id) => !known.has(id));
  if (stranger)
    throw conflict(`order item ${stranger} is not an item of order ${source.order_id}`, {
      reason: 'not_found',
      field: `items[${lines.findIndex((l) => l.order_item_id === stranger)}].order_item_id`,
    });
  const holds = new Map(held.map((h) => [h.order_item_id, h.qty]));
  for (const line of lines) {
    const remaining = holds.get(line.order_item_id) ?? 0;
    if (line.qty > remaining) {
      throw new AppError(
        'exceeds_remaining',
        `order item ${line.order_item_id}: ${line.qty} requested, shipment ${source.id} holds ${remaining}`,
        {
          order_item_id: line.order_item_id,
          shipment_id: source.id,
          requested: line.qty,
          remaining,
        },
        { field: `items[${lines.indexOf(line)}].qty` },
      );
    }
    holds.set(line.order_item_id, remaining - line.qty);
  }
  const emptied = [...holds.values()].every((qty) => qty === 0);
  // Out of the source: rows moved entirely go, the others shrink (the CHECK keeps every row above 0).
  await sql.run(
    `WITH u AS (SELECT * FROM unnest($2::text[], $3::int[]) AS u(order_item_id, qty)),
          gone AS (DELETE FROM orders.shipment_item s USING u WHERE s.shipment_id = $1 AND s.order_item_id = u.order_item_id AND s.qty = u.qty),
          touched AS (UPDATE orders.shipment SET updated_at = now() WHERE id = $1)
     UPDATE orders.shipment_item s SET qty = s.qty - u.qty FROM u WHERE s.shipment_id = $1 AND s.order_item_id = u.order_item_id AND s.qty > u.qty`,
    [source.id, ids, lines.map((l) => l.qty)],
  );
  const shipmentId = await insertShipment(
    db,
    { tenant_id: source.tenant_id, order_id: source.order_id, warehouse_id: warehouseId, estimated_delivery_date: source.estimated_delivery_date },
    lines,
  );
  if (emptied) {
    // Everything it held moved on, and so do the documents that named it.
    await sql.run(
      `WITH moved AS (UPDATE orders.order_document SET shipment_id = $2 WHERE shipment_id = $1)
       DELETE FROM orders.shipment WHERE id = $1`,
      [source.id, shipmentId],
    );
  }
  return { shipment_id: shipmentId, deleted: emptied };
}

/** A shipment in an event's words. */
export const shipmentEvent = (shipment: ShipmentRow) => ({
  order_id: shipment.order_id,
  shipment_id: shipment.id,
  status: shipment.status,
  carrier: shipment.tracking_carrier,
  tracking_code: shipment.tracking_code,
  tracking_url: shipment.tracking_url,
});

/** When a shipment reached each state after the first. */
const STAMP = { dispatched: 'dispatched_at', delivered: 'delivered_at' } as const;

/**
 * Moves a locked shipment to `to` (dispatched, delivered) as the state table allows: false when it is
 * there already (a repeat: no change), a conflict for a move the table refuses (back, or skipping).
 */
export async function advanceShipment(db: EntityManager, shipment: ShipmentRow, to: 'dispatched' | 'delivered'): Promise<boolean> {
  if (MACHINES.shipment.assertMove(shipment.id, shipment.status, to) === 'same') return false;
  await sqlOf(db).run(`UPDATE orders.shipment SET status = $2, ${STAMP[to]} = now(), updated_at = now() WHERE id = $1`, [shipment.id, to]);
  shipment.status = to;
  return true;
}
