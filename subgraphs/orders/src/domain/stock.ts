import { present, conflict, newId, t, validationFailed, sqlOf } from '@backoffice/platform';
import { ORDER_LIMITS } from './order-limits';
import type { EntityManager } from 'typeorm';
import { MACHINES, type StateOf } from './states';

export interface StockLine {
  sku_id: string;
  qty: number;
}

export interface Level {
  sku_id: string;
  warehouse_id: string;
  on_hand: number;
  reserved: number;
  available: number;
}

export interface Reservation {
  id: string;
  tenant_id: string;
  warehouse_id: string;
  status: StateOf<'reservation'>;
  expires_at: Date | null;
  items: StockLine[];
}

/** Lines of SKUs and quantities (1 to `maxQty`), as reserve and checkout take them. */
export const stockLines = (maxQty: number) =>
  t.array(t.object({ sku_id: t.id(), qty: t.integer({ minimum: 1, maximum: maxQty }) }), {
    minItems: 1,
    maxItems: ORDER_LIMITS.items.max,
    description: 'distinct SKUs',
  });

export function distinctSkus(items: ReadonlyArray<{ sku_id: string }>): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.sku_id)) throw validationFailed(`items: sku ${item.sku_id} is listed twice`, { reason: 'duplicate', field: 'items' });
    seen.add(item.sku_id);
  }
}

/** A warehouse code: lowercase words of letters and digits joined by single hyphens. */
export const WAREHOUSE_CODE = '^[a-z0-9]+(-[a-z0-9]+)*$';

/**
 * The tenant's warehouse: the one named, which must be the tenant's, or the `default` one, which
 * every tenant has from its creation (consumers/tenant-setup); made here, once, when a first use of
 * stock comes before that event or the tenant predates it.
 */
export async function warehouseOf(db: EntityManager, tenantId: string, warehouseId: string | undefined): Promise<string> {
  if (warehouseId) {
    const [found] = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM orders.warehouse WHERE id = $1 AND tenant_id = $2`, [warehouseId, tenantId]);
    if (!found) throw conflict(`warehouse ${warehouseId} does not exist in this tenant`, { reason: 'not_found', field: 'warehouse_id' });
    return found.id;
  }
  const byCode = async () =>
    (await sqlOf(db).rows<{ id: string }>(`SELECT id FROM orders.warehouse WHERE tenant_id = $1 AND code = 'default'`, [tenantId]))[0]?.id;
  const existing = await byCode();
  if (existing) return existing;
  const [made] = await sqlOf(db).rows<{ id: string }>(
    `INSERT INTO orders.warehouse (id, tenant_id, code, name) VALUES ($1, $2, 'default', 'Default') ON CONFLICT (tenant_id, code) DO NOTHING RETURNING id`,
    [newId('whs'), tenantId],
  );
  // A concurrent first use made it: committed now, and visible to this new statement (read committed).
  return made?.id ?? present(await byCode(), 'the default warehouse');
}

export const levelOf = (row: { sku_id: string; warehouse_id: string; on_hand: string | number; reserved: string | number }): Level => {
  const onHand = Number(row.on_hand);
  const reserved = Number(row.reserved);
  return { sku_id: row.sku_id, warehouse_id: row.warehouse_id, on_hand: onHand, reserved, available: onHand - reserved };
};

/**
 * Holds `lines` in a warehouse, all or nothing: each level's `reserved` grows only where
 * `on_hand - reserved` covers it (one statement, rows locked in SKU order so concurrent holds
 * cannot deadlock); a line it could not cover is a conflict naming the SKU.
 */
export async function hold(
  db: EntityManager,
  tenantId: string,
  warehouseId: string,
  lines: readonly StockLine[],
  expiresAt: Date | null,
): Promise<Reservation> {
  const sorted = [...lines].sort((a, b) => (a.sku_id < b.sku_id ? -1 : a.sku_id > b.sku_id ? 1 : 0));
  const skuIds = sorted.map((l) => l.sku_id);
  const qtys = sorted.map((l) => l.qty);
  const locked = await sqlOf(db).rows<{ sku_id: string; on_hand: string; reserved: string }>(
    `SELECT sku_id, on_hand, reserved FROM orders.stock_level WHERE warehouse_id = $1 AND sku_id = ANY($2::text[]) ORDER BY sku_id FOR UPDATE`,
    [warehouseId, skuIds],
  );
  const bySku = new Map(locked.map((r) => [r.sku_id, Number(r.on_hand) - Number(r.reserved)]));
  for (const line of sorted) {
    const available = bySku.get(line.sku_id) ?? 0;
    if (available < line.qty)
      throw conflict(`not enough stock of ${line.sku_id}: ${available} available, ${line.qty} asked`, {
        reason: 'insufficient_stock',
        field: `items[${lines.indexOf(line)}].qty`,
      });
  }
  const id = newId('res');
  await sqlOf(db).run(
    `WITH r AS (INSERT INTO orders.reservation (id, tenant_id, warehouse_id, status, expires_at) VALUES ($1, $2, $3, 'active', $4)),
          i AS (INSERT INTO orders.reservation_item (reservation_id, sku_id, qty) SELECT $1, u.sku_id, u.qty FROM unnest($5::text[], $6::int[]) AS u(sku_id, qty))
     UPDATE orders.stock_level l SET reserved = l.reserved + u.qty, updated_at = now()
     FROM unnest($5::text[], $6::int[]) AS u(sku_id, qty) WHERE l.warehouse_id = $3 AND l.sku_id = u.sku_id`,
    [id, tenantId, warehouseId, expiresAt, skuIds, qtys],
  );
  return { id, tenant_id: tenantId, warehouse_id: warehouseId, status: 'active', expires_at: expiresAt, items: sorted };
}

/** Reservations of the tenant, locked (in id order), with their lines; those not found are absent. */
export async function lockReservations(db: EntityManager, tenantId: string, reservationIds: readonly string[]): Promise<Reservation[]> {
  // One round trip: the lines (never changed after the hold is taken) come along as JSON.
  return await sqlOf(db).rows<Reservation>(
    `SELECT r.id, r.tenant_id, r.warehouse_id, r.status, r.expires_at,
            (SELECT json_agg(json_build_object('sku_id', i.sku_id, 'qty', i.qty) ORDER BY i.sku_id) FROM orders.reservation_item i WHERE i.reservation_id = r.id) AS items
     FROM orders.reservation r WHERE r.id = ANY($1::text[]) AND r.tenant_id = $2 ORDER BY r.id FOR UPDATE OF r`,
    [reservationIds, tenantId],
  );
}

/** A reservation of the tenant, locked, with its lines; a conflict when there is none. */
export async function lockReservation(db: EntityManager, tenantId: string, reservationId: string): Promise<Reservation> {
  const [found] = await lockReservations(db, tenantId, [reservationId]);
  if (!found) throw conflict(`reservation ${reservationId} does not exist in this tenant`, { reason: 'not_found', field: 'reservation_id' });
  return found;
}

/**
 * Settles active holds: `released` gives their units back (reserved drops), `committed` consumes
 * them (on_hand and reserved both drop), in one statement for all. Returns those that changed: a
 * hold already settled the same way is left alone; a move the state table refuses is a conflict.
 * Stock rows are locked in (warehouse, SKU) order, as `hold` does, so that concurrent settles and
 * holds cannot deadlock.
 */
export async function settle(db: EntityManager, reservations: readonly Reservation[], to: 'released' | 'committed'): Promise<Reservation[]> {
  const changing = reservations.filter((r) => MACHINES.reservation.assertMove(r.id, r.status, to) === 'move');
  if (!changing.length) return [];
  const lines = changing.flatMap((r) => r.items.map((i) => ({ warehouse_id: r.warehouse_id, ...i })));
  const params = [lines.map((l) => l.warehouse_id), lines.map((l) => l.sku_id), lines.map((l) => l.qty)];
  const summed = `SELECT warehouse_id, sku_id, sum(qty)::bigint AS qty FROM unnest($1::text[], $2::text[], $3::int[]) AS l(warehouse_id, sku_id, qty) GROUP BY 1, 2`;
  await sqlOf(db).run(
    `SELECT 1 FROM orders.stock_level l JOIN (${summed}) u USING (warehouse_id, sku_id) ORDER BY l.warehouse_id, l.sku_id FOR UPDATE OF l`,
    params,
  );
  await sqlOf(db).run(
    `WITH r AS (UPDATE orders.reservation SET status = $5, settled_at = now() WHERE id = ANY($4::text[]))
     UPDATE orders.stock_level l SET reserved = l.reserved - u.qty, on_hand = l.on_hand - CASE WHEN $5 = 'committed' THEN u.qty ELSE 0 END, updated_at = now()
     FROM (${summed}) u WHERE l.warehouse_id = u.warehouse_id AND l.sku_id = u.sku_id`,
    [...params, changing.map((r) => r.id), to],
  );
  for (const r of changing) r.status = to;
  return changing;
}
