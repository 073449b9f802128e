import { t, type Sql } from '@backoffice/platform';
import type { Coupon, PaymentApp, PaymentWindow, ShippingZone, Warehouse } from '../entities';
import { grouped } from './order-entity';
import { ORDER_LIMITS } from './order-limits';
import { PAYMENT_METHODS_MAX } from './payments';
import { levelOf } from './stock';

/** The orders subgraph's configuration entities as its admin lists and references answer them. */

export const stockLevelView = t.entity('StockLevel', {
  sku_id: t.string(),
  warehouse_id: t.string(),
  on_hand: t.integer(),
  reserved: t.integer({ description: 'held by active reservations' }),
  available: t.integer({ description: 'on hand less reserved' }),
});

export const warehouseView = t.entity('Warehouse', { warehouse_id: t.string(), code: t.string(), name: t.string(), created_at: t.timestamp() }, 'warehouse_id');
export const WAREHOUSE_COLUMNS = 'w.id AS warehouse_id, w.code, w.name, w.created_at';
export const warehouseOf = (w: Pick<Warehouse, 'code' | 'name' | 'created_at'> & { warehouse_id: string }) => ({
  ...w,
  created_at: w.created_at.toISOString(),
});

export const paymentAppView = t.entity(
  'PaymentApp',
  {
    app_id: t.string(),
    app_key: t.string(),
    name: t.string(),
    installed: t.boolean({ description: 'false once uninstalled (installing the same app_key again brings it back)' }),
    methods: t.array(
      t.entity('PaymentMethod', {
        method: t.string(),
        reservation_window_seconds: t.nullable(t.integer({ description: 'how long an order waits for payment; null: no window' })),
      }),
      { maxItems: PAYMENT_METHODS_MAX },
    ),
    store_windows: t.array(
      t.entity('PaymentStoreWindow', {
        store_id: t.string(),
        method: t.string(),
        reservation_window_seconds: t.integer({ description: "the store's window for this method, in place of the declared one" }),
      }),
      {
        description: "the stores' overrides of this app's methods' windows (payment_window_set), by store id and method",
        maxItems: ORDER_LIMITS.paymentWindows.max,
      },
    ),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'app_id',
);
export const PAYMENT_APP_COLUMNS = 'a.id AS app_id, a.app_key, a.name, a.installed, a.methods, a.created_at, a.updated_at';
export type AppRow = Pick<PaymentApp, 'app_key' | 'name' | 'installed' | 'created_at' | 'updated_at'> & {
  app_id: string;
  methods: { method: string; reservation_window_seconds: number | null }[];
};
type StoreWindow = Pick<PaymentWindow, 'store_id' | 'method' | 'reservation_window_seconds'>;
/** The app shaped, with its stores' windows out of `storeWindowsOf`'s answer. */
export const paymentAppOf = (a: AppRow, windows: ReadonlyMap<string, StoreWindow[]>) => ({
  ...a,
  methods: a.methods.map(({ method, reservation_window_seconds }) => ({ method, reservation_window_seconds })),
  store_windows: windows.get(a.app_id) ?? [],
  created_at: a.created_at.toISOString(),
  updated_at: a.updated_at.toISOString(),
});

/** The stores' windows for these apps of the tenant, by app id: one statement for a page of apps, whatever its length. */
export async function storeWindowsOf(sql: Sql, appIds: readonly string[], tenantId: string): Promise<ReadonlyMap<string, StoreWindow[]>> {
  const rows = await sql.rows<Pick<PaymentWindow, 'app_id'> & StoreWindow>(
    `SELECT app_id, store_id, method, reservation_window_seconds FROM orders.payment_window WHERE app_id = ANY($1::text[]) AND tenant_id = $2
     ORDER BY app_id, store_id, method`,
    [appIds, tenantId],
  );
  const windows = grouped(rows, appIds, 'app_id', ({ store_id, method, reservation_window_seconds }) => ({ store_id, method, reservation_window_seconds }));
  return new Map(appIds.map((id, i) => [id, windows[i] ?? []]));
}

export const couponView = t.entity(
  'Coupon',
  {
    coupon_id: t.string(),
    code: t.string(),
    percent_off: t.nullable(t.integer()),
    amount_off: t.nullable(t.integer()),
    currency: t.nullable(t.string()),
    max_uses: t.nullable(t.integer({ description: 'null: no cap' })),
    use_count: t.integer({ description: 'orders holding a use now (a cancelled order returns its use)' }),
    expires_at: t.nullable(t.timestamp()),
    created_at: t.timestamp(),
  },
  'coupon_id',
);
export const COUPON_COLUMNS = `c.id AS coupon_id, c.code, c.percent_off, c.amount_off::float8 AS amount_off, c.currency, c.max_uses, c.uses AS use_count,
  c.expires_at, c.created_at`;
export type CouponRow = Pick<Coupon, 'code' | 'percent_off' | 'currency' | 'max_uses' | 'expires_at' | 'created_at'> & {
  coupon_id: string;
  amount_off: number | null;
  use_count: number;
};
export const couponOf = (c: CouponRow) => ({ ...c, expires_at: c.expires_at?.toISOString() ?? null, created_at: c.created_at.toISOString() });

export const zoneView = t.entity(
  'ShippingZone',
  {
    zone_id: t.string(),
    name: t.string(),
    postal_code_from: t.string({ description: 'normalized' }),
    postal_code_to: t.string({ description: 'normalized; the range is inclusive' }),
    created_at: t.timestamp(),
  },
  'zone_id',
);
export const ZONE_COLUMNS = 'id AS zone_id, name, postal_code_from, postal_code_to, created_at';
export type ZoneRow = Pick<ShippingZone, 'name' | 'postal_code_from' | 'postal_code_to' | 'created_at'> & { zone_id: string };
export const zoneOf = (z: ZoneRow) => ({ ...z, created_at: z.created_at.toISOString() });

/** At most this many stock levels per warehouse, and uses per coupon, in a link (the lists are unbounded). */
export const LINK_MAX = 100;

/** The stock levels of these SKUs of the tenant, every warehouse's, by warehouse. */
export async function levelsOfSkus(sql: Sql, skuIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<{ sku_id: string; warehouse_id: string; on_hand: string; reserved: string }>(
    `SELECT sku_id, warehouse_id, on_hand, reserved FROM orders.stock_level WHERE sku_id = ANY($1::text[]) AND tenant_id = $2 ORDER BY sku_id, warehouse_id`,
    [skuIds, tenantId],
  );
  return grouped(rows, skuIds, 'sku_id', levelOf);
}

/** The first LINK_MAX stock levels of each of these warehouses of the tenant, by SKU id. */
export async function levelsOfWarehouses(sql: Sql, warehouseIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<{ sku_id: string; warehouse_id: string; on_hand: string; reserved: string }>(
    `SELECT sku_id, warehouse_id, on_hand, reserved FROM (
       SELECT l.*, row_number() OVER (PARTITION BY warehouse_id ORDER BY sku_id) AS n FROM orders.stock_level l
       WHERE warehouse_id = ANY($1::text[]) AND tenant_id = $2) l
     WHERE n <= ${LINK_MAX} ORDER BY warehouse_id, sku_id`,
    [warehouseIds, tenantId],
  );
  return grouped(rows, warehouseIds, 'warehouse_id', levelOf);
}

/** The LINK_MAX latest orders holding a use of each of these coupons of the tenant. */
export async function usesOfCoupons(sql: Sql, couponIds: readonly string[], tenantId: string) {
  const rows = await sql.rows<{ coupon_id: string; order_id: string; created_at: Date }>(
    `SELECT coupon_id, order_id, created_at FROM (
       SELECT o.coupon_id, o.id AS order_id, o.created_at, row_number() OVER (PARTITION BY o.coupon_id ORDER BY o.created_at DESC, o.id DESC) AS n
       FROM orders."order" o WHERE o.coupon_id = ANY($1::text[]) AND o.tenant_id = $2 AND o.status <> 'cancelled') u
     WHERE n <= ${LINK_MAX} ORDER BY coupon_id, created_at DESC, order_id DESC`,
    [couponIds, tenantId],
  );
  return grouped(rows, couponIds, 'coupon_id', ({ order_id, created_at }) => ({ order_id, created_at: created_at.toISOString() }));
}
