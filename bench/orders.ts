/**
 * Orders scenarios of `npm run bench`.
 *
 * checkout_rest / checkout_bare_sql (a ratio pair, 16 connections): `order.create` with 3 items
 *   (distinct SKUs drawn from 200 published ones with ample stock) and a payment attempt, over
 *   REST, against one pg transaction per checkout doing the same reads and writes: the catalog's
 *   SKU snapshot, the payment app, the default warehouse, the hold (the very functions the handler
 *   calls), the order with its items and attempt, its first parcel, its payment expiry, two outbox
 *   events and the audit row. Target: REST at least 0.3 of the bare transaction.
 * expire_unpaid (seeds 100,000 due orders): `order.expire_unpaid` with limit 1000 over REST,
 *   alternating with one set-based SQL statement that cancels the next 1000 due rows with the same
 *   state changes (orders, attempts, holds, stock) and the same events; the median time of each,
 *   each timed once the relay has handed on the previous run's events. Target: the
 *   sweep at most 2x the statement. The bench server runs with JOBS=off, or the minute's job would
 *   sweep the seeded orders itself.
 *
 *   BENCH_EXPIRE_ORDERS  due orders seeded (default 100000)
 *   BENCH_EXPIRE_ROUNDS  sweeps of each kind (default 25; each takes 1000 due orders)
 */
import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';
import { auditInsertSql } from '../platform/src/audit';
import { newId } from '../platform/src/ids';
import { catalogSkus } from '../subgraphs/catalog/src/domain/checkout-skus';
import { refreshPaymentExpiry } from '../subgraphs/orders/src/domain/payment-expiry';
import { insertShipment } from '../subgraphs/orders/src/domain/shipments';
import { hold, warehouseOf } from '../subgraphs/orders/src/domain/stock';
import { createTenant, identity } from '../subgraphs/identity/src/index';
import { subgraphDataSource } from '../platform/src/subgraph';
import { httpLoad, loopLoad, type Measurement } from './measure';
import type { BenchContext, Scenario } from './run';

const CHECKOUT_CONNECTIONS = 16;
const CHECKOUT_SKUS = 200;
const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

export async function command(ctx: BenchContext, name: string, input: unknown, token = ctx.target.token): Promise<any> {
  const response = await fetch(`${ctx.target.url}/v1/commands/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${name}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

interface Shop {
  skus: string[];
  app_id: string;
}

let shop: Promise<Shop> | null = null;
/** Once per run: published SKUs with ample stock, a payment app with a window, expiry started. */
export function checkoutShop(ctx: BenchContext): Promise<Shop> {
  shop ??= (async () => {
    const skus: string[] = [];
    const tag = Date.now().toString(36);
    for (let i = 0; i < CHECKOUT_SKUS; i += 20) {
      skus.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, async (_, j) => {
            const n = i + j;
            const { product_id } = await command(ctx, 'catalog.product.create', { title: `Bench mug ${n}`, handle: `bench-mug-${tag}-${n}`, status: 'active' });
            const { sku_id } = await command(ctx, 'catalog.sku.create', { product_id, code: `BM-${tag}-${n}`, amount: 1000 + n, currency: 'EUR' });
            await command(ctx, 'catalog.product.publish', { product_id, store_id: ctx.target.store_id });
            await command(ctx, 'inventory.adjust', { sku_id, on_hand: 1_000_000_000 });
            return sku_id as string;
          }),
        )),
      );
    }
    const { app_id } = await command(ctx, 'payment.app.install', {
      app_key: 'manual',
      name: 'Manual',
      methods: [{ method: 'pix', reservation_window_seconds: 3600 }],
    });
    await command(ctx, 'order.expire_unpaid', {});
    ctx.log(`checkout: ${skus.length} SKUs published with stock`);
    return { skus, app_id };
  })();
  return shop;
}

/** Three distinct SKUs, one unit each. */
export function basket(skus: string[]): Array<{ sku_id: string; qty: number }> {
  const picked = new Set<string>();
  while (picked.size < 3) picked.add(skus[Math.floor(Math.random() * skus.length)]);
  return [...picked].map((sku_id) => ({ sku_id, qty: 1 }));
}

export const CUSTOMER = { email: 'buyer@example.com', name: 'Bench Buyer' };

const checkoutRest: Scenario = {
  name: 'checkout_rest',
  description: 'POST /v1/commands/order.create with 3 items and a payment attempt (16 connections)',
  async run(ctx) {
    const { skus, app_id } = await checkoutShop(ctx);
    const body = () => JSON.stringify({ store_id: ctx.target.store_id, customer: CUSTOMER, items: basket(skus), payment: { app_id, method: 'pix' } });
    const load = {
      url: `${ctx.target.url}/v1/commands/order.create`,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${ctx.target.token}`, 'content-type': 'application/json' },
      body: body(),
      bodies: body,
    };
    const probe = await fetch(load.url, { method: 'POST', headers: load.headers, body: body() });
    const answer = (await probe.json()) as { status?: string };
    const measured = await httpLoad(load, { ...ctx.config, connections: CHECKOUT_CONNECTIONS, watched: ctx.watched });
    return {
      ...measured,
      probe: { status: probe.status, ok: probe.status === 200 && answer.status === 'pending_payment', body: JSON.stringify(answer).slice(0, 300) },
    };
  },
};

/** A pg client seen as the EntityManager the domain functions take (TypeORM answers UPDATEs as [rows, count]). */
const managerOf = (client: PoolClient) =>
  ({
    query: async (sql: string, params?: unknown[]) => {
      const r = await client.query(sql, params);
      return r.command === 'UPDATE' || r.command === 'DELETE' ? [r.rows, r.rowCount] : r.rows;
    },
  }) as unknown as EntityManager;

const checkoutBareSql: Scenario = {
  name: 'checkout_bare_sql',
  description: "One pg transaction per checkout with order.create's reads and writes (16 clients)",
  async run(ctx) {
    const { skus, app_id } = await checkoutShop(ctx);
    const { tenant_id, store_id, actor } = ctx.target;
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: CHECKOUT_CONNECTIONS, application_name: 'backoffice-bench' });
    const step = async () => {
      const items = basket(skus);
      const client = await pool.connect();
      const db = managerOf(client);
      try {
        await client.query('BEGIN');
        const snapshot = await catalogSkus(db as unknown as Parameters<typeof catalogSkus>[0]).skus(
          tenant_id,
          items.map((i) => i.sku_id),
          store_id,
        );
        if (snapshot.length !== 3) throw new Error('the catalog did not answer three SKUs');
        await client.query(`SELECT id FROM orders.payment_app WHERE id = $1 AND tenant_id = $2 AND installed AND methods @> $3::jsonb`, [
          app_id,
          tenant_id,
          JSON.stringify([{ method: 'pix' }]),
        ]);
        const warehouseId = await warehouseOf(db, tenant_id, undefined);
        const reservation = await hold(db, tenant_id, warehouseId, items, null);
        const orderId = newId('ord');
        const total = snapshot.reduce((sum, s) => sum + s.unit_amount, 0);
        await client.query(
          `WITH o AS (
             INSERT INTO orders."order" (id, tenant_id, store_id, status, currency, subtotal_amount, discount_amount, total_amount, customer, reservation_id, metadata)
             VALUES ($1, $2, $3, 'pending_payment', 'EUR', $4, 0, $4, $5, $6, '{}')),
           i AS (
             INSERT INTO orders.order_item (id, order_id, tenant_id, sku_id, product_id, code, title, qty, unit_amount, line_amount, position)
             SELECT u.id, $1, $2, u.sku_id, u.product_id, u.code, u.title, 1, u.amount, u.amount, u.position
             FROM unnest($7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::int[]) AS u(id, sku_id, product_id, code, title, amount, position))
           INSERT INTO orders.payment_attempt (id, tenant_id, order_id, app_id, method, status) VALUES ($14, $2, $1, $15, 'pix', 'open')`,
          [
            orderId,
            tenant_id,
            store_id,
            total,
            JSON.stringify(CUSTOMER),
            reservation.id,
            snapshot.map(() => newId('oit')),
            snapshot.map((s) => s.sku_id),
            snapshot.map((s) => s.product_id),
            snapshot.map((s) => s.code),
            snapshot.map((s) => s.title),
            snapshot.map((s) => s.unit_amount),
            snapshot.map((_, i) => i),
            newId('pat'),
            app_id,
          ],
        );
        await insertShipment(db, { tenant_id, order_id: orderId, warehouse_id: warehouseId, estimated_delivery_date: null });
        await refreshPaymentExpiry(db, tenant_id, { orderIds: [orderId] });
        const request = `req_bench_${randomUUID()}`;
        await client.query(
          `WITH e AS (INSERT INTO orders.outbox_event (event_id, tenant_id, type, payload, actor_id, request_id)
                      SELECT e.id, $7, e.type, e.payload, $8, $9 FROM unnest($10::text[], $11::text[], $12::jsonb[]) AS e(id, type, payload))
           ${auditInsertSql('orders')}`,
          [
            [tenant_id],
            [actor.api_key_id],
            [actor.name],
            ['order.create'],
            ['ok'],
            [request],
            tenant_id,
            actor.api_key_id,
            request,
            [newId('evt'), newId('evt')],
            ['inventory.reserved', 'order.created'],
            [JSON.stringify({ reservation_id: reservation.id, items }), JSON.stringify({ order_id: orderId, items, total_amount: total })],
          ],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    };
    try {
      if (ctx.config.warmupSeconds > 0) await loopLoad(step, { workers: CHECKOUT_CONNECTIONS, seconds: ctx.config.warmupSeconds, watched: ctx.watched });
      return await loopLoad(step, { workers: CHECKOUT_CONNECTIONS, seconds: ctx.config.seconds, watched: ctx.watched });
    } finally {
      await pool.end();
    }
  },
};

/** A tenant of its own with `orders` unpaid orders long past due (3 lines and an open attempt each). */
export async function seedDueOrders(ctx: BenchContext, orders: number): Promise<{ token: string; tenant_id: string }> {
  const ids = subgraphDataSource(ctx.databaseUrl, identity, 1);
  await ids.initialize();
  let tenant: Awaited<ReturnType<typeof createTenant>>;
  try {
    tenant = await createTenant(ids, { name: 'Expiry', store: `expiry-${Date.now().toString(36)}`, never_expires: true });
  } finally {
    await ids.destroy();
  }
  const pool = new Pool({ connectionString: ctx.databaseUrl, max: 1, application_name: 'backoffice-bench' });
  const started = Date.now();
  try {
    const t = tenant.tenant_id;
    // Ids of this seed's own: expire_unpaid and background_drain each seed in one run of the bench.
    const bx = `bx${Date.now().toString(36)}`;
    // The tenant's setup (orders' tenant-setup consumer) may have made these already, or come later.
    const { rows } = await pool.query(
      `INSERT INTO orders.warehouse (id, tenant_id, code, name) VALUES ($1, $2, 'default', 'Default')
       ON CONFLICT (tenant_id, code) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
      [newId('whs'), t],
    );
    const w = rows[0].id as string;
    const app = newId('pap');
    const statements: Array<[string, unknown[]]> = [
      [
        `INSERT INTO orders.payment_app (id, tenant_id, app_key, name, methods) VALUES ($1, $2, 'manual', 'Manual', '[{"method":"pix","reservation_window_seconds":60}]')`,
        [app, t],
      ],
      [
        `INSERT INTO orders.expiry_start (tenant_id, started_at) VALUES ($1, now() - interval '1 day') ON CONFLICT (tenant_id) DO UPDATE SET started_at = EXCLUDED.started_at`,
        [t],
      ],
      [
        `INSERT INTO orders.stock_level (warehouse_id, sku_id, tenant_id, on_hand) SELECT $1, 'sku_bx_' || k, $2, 1000000000 FROM generate_series(0, 99) k`,
        [w, t],
      ],
      [
        `INSERT INTO orders.reservation (id, tenant_id, warehouse_id, status) SELECT 'res_${bx}_' || g, $2, $1, 'active' FROM generate_series(1, $3) g`,
        [w, t, orders],
      ],
      // Three distinct SKUs per hold: 7g, 7g+13, 7g+26 modulo 100.
      [
        `INSERT INTO orders.reservation_item (reservation_id, sku_id, qty) SELECT 'res_${bx}_' || g, 'sku_bx_' || ((7 * g + 13 * j) % 100), 1 FROM generate_series(1, $1) g, generate_series(0, 2) j`,
        [orders],
      ],
      [
        `UPDATE orders.stock_level l SET reserved = x.n FROM (SELECT sku_id, count(*) AS n FROM orders.reservation_item ` +
          `WHERE reservation_id LIKE 'res\\_${bx}\\_%' GROUP BY 1) x WHERE l.warehouse_id = $1 AND l.sku_id = x.sku_id`,
        [w],
      ],
      [
        `INSERT INTO orders."order" (id, tenant_id, store_id, status, currency, subtotal_amount, discount_amount, total_amount, customer, reservation_id, payment_expiry, payment_due_at, created_at)
         SELECT 'ord_${bx}_' || g, $1, $2, 'pending_payment', 'EUR', 3000, 0, 3000, '{"email":"buyer@example.com","name":"Bench Buyer"}', 'res_${bx}_' || g,
                'timed', now() - interval '3 hours' + g * interval '1 ms' + interval '60 seconds', now() - interval '3 hours' FROM generate_series(1, $3) g`,
        [t, tenant.store_id, orders],
      ],
      [
        `INSERT INTO orders.order_item (id, order_id, tenant_id, sku_id, product_id, code, title, qty, unit_amount, line_amount, position)
         SELECT 'oit_${bx}_' || g || '_' || j, 'ord_${bx}_' || g, $1, 'sku_bx_' || ((7 * g + 13 * j) % 100), 'prd_bx', 'BX', 'Bench mug', 1, 1000, 1000, j
         FROM generate_series(1, $2) g, generate_series(0, 2) j`,
        [t, orders],
      ],
      [
        `INSERT INTO orders.payment_attempt (id, tenant_id, order_id, app_id, method, status, created_at)
         SELECT 'pat_${bx}_' || g, $1, 'ord_${bx}_' || g, $2, 'pix', 'open', now() - interval '3 hours' + g * interval '1 ms' FROM generate_series(1, $3) g`,
        [t, app, orders],
      ],
      [`ANALYZE orders."order", orders.order_item, orders.payment_attempt, orders.reservation, orders.reservation_item, orders.stock_level`, []],
    ];
    for (const [sql, params] of statements) await pool.query(sql, params);
  } finally {
    await pool.end();
  }
  ctx.log(`expire_unpaid: seeded ${orders} due orders in ${Math.round((Date.now() - started) / 100) / 10} s`);
  return { token: tenant.token, tenant_id: tenant.tenant_id };
}

/**
 * What a sweep of 1000 does, as one statement: the same state changes (orders, attempts, holds,
 * stock) and the same events in the outbox (a command's events are part of its effect, as in the
 * checkout baseline); the floor a sweep is compared with.
 */
const SET_BASED_EXPIRY = `
  WITH due AS (
    SELECT id, store_id, reservation_id FROM orders."order"
    WHERE tenant_id = $1 AND status = 'pending_payment' AND payment_expiry = 'timed' AND payment_due_at <= now()
    ORDER BY payment_due_at, id LIMIT 1000 FOR UPDATE),
  o AS (
    UPDATE orders."order" o SET status = 'cancelled', cancel_reason = 'payment_expired', cancelled_at = now(), updated_at = now(), payment_expiry = NULL, payment_due_at = NULL
    FROM due WHERE o.id = due.id RETURNING o.id, o.store_id, o.customer),
  a AS (
    UPDATE orders.payment_attempt a SET status = 'failed', failure_reason = 'expired', updated_at = now()
    FROM due WHERE a.order_id = due.id AND a.status IN ('open', 'confirming') RETURNING a.id, a.order_id),
  r AS (
    UPDATE orders.reservation r SET status = 'released', settled_at = now() FROM due WHERE r.id = due.reservation_id AND r.status = 'active'
    RETURNING r.id, r.warehouse_id, due.id AS order_id),
  lines AS (SELECT r.id, r.warehouse_id, r.order_id, i.sku_id, i.qty FROM r JOIN orders.reservation_item i ON i.reservation_id = r.id),
  s AS (
    UPDATE orders.stock_level l SET reserved = l.reserved - x.qty, updated_at = now()
    FROM (SELECT warehouse_id, sku_id, sum(qty) AS qty FROM lines GROUP BY 1, 2) x
    WHERE l.warehouse_id = x.warehouse_id AND l.sku_id = x.sku_id),
  e AS (
    INSERT INTO orders.outbox_event (event_id, tenant_id, type, payload, actor_id, request_id)
    SELECT 'evt_bx_' || gen_random_uuid(), $1, type, payload, 'bench', 'req_bench' FROM (
      SELECT 'order.cancelled' AS type, jsonb_build_object('order_id', id, 'store_id', store_id, 'reason', 'payment_expired', 'customer', customer) AS payload FROM o
      UNION ALL
      SELECT 'payment.attempt_failed', jsonb_build_object('payment_attempt_id', id, 'order_id', order_id, 'reason', 'expired') FROM a
      UNION ALL
      SELECT 'inventory.released', jsonb_build_object('reservation_id', id, 'warehouse_id', warehouse_id, 'reason', 'order_cancelled', 'order_id', order_id,
             'items', jsonb_agg(jsonb_build_object('sku_id', sku_id, 'qty', qty) ORDER BY sku_id))
      FROM lines GROUP BY id, warehouse_id, order_id) events)
  SELECT count(*)::int AS n FROM due`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

const expireUnpaid: Scenario = {
  name: 'expire_unpaid',
  description: 'order.expire_unpaid limit 1000 over 100,000 due orders (REST) vs one set-based SQL statement cancelling the same number',
  async run(ctx) {
    const orders = envInt('BENCH_EXPIRE_ORDERS', 100_000);
    const rounds = Math.min(envInt('BENCH_EXPIRE_ROUNDS', 25), Math.floor(orders / 2000));
    const shop = await seedDueOrders(ctx, orders);
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: 1, application_name: 'backoffice-bench' });
    const sweeps: number[] = [];
    const statements: number[] = [];
    let cancelled = 0;
    // Each timed run starts once the relay has handed on the previous sweep's events (it works
    // after commit, beside whatever runs next): both sides are timed on a quiet database.
    const settled = async () => {
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((ok) => setTimeout(ok, 50))) {
        const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders.outbox_event WHERE status = 'pending'`);
        if (rows[0].n === 0) return;
      }
    };
    const sweep = async () => {
      await settled();
      const t0 = performance.now();
      const result = (await command(ctx, 'order.expire_unpaid', { limit: 1000 }, shop.token)) as { expired: unknown[] };
      sweeps.push(performance.now() - t0);
      if (result.expired.length !== 1000) throw new Error(`a sweep expired ${result.expired.length} orders, not 1000`);
      cancelled += 1000;
    };
    const statement = async () => {
      await settled();
      const t0 = performance.now();
      const { rows } = await pool.query<{ n: number }>(SET_BASED_EXPIRY, [shop.tenant_id]);
      statements.push(performance.now() - t0);
      if (rows[0].n !== 1000) throw new Error(`the statement cancelled ${rows[0].n} orders, not 1000`);
      cancelled += 1000;
    };
    try {
      const started = performance.now();
      // Alternating, and each kind first in turn, so that the shrinking backlog and the relay's
      // publishing of the sweeps' events weigh on both alike.
      for (let i = 0; i < rounds; i += 1) {
        if (i % 2 === 0) {
          await sweep();
          await statement();
        } else {
          await statement();
          await sweep();
        }
      }
      const { rows } = await pool.query<{ bad: number }>(
        `SELECT count(*)::int AS bad FROM orders.stock_level l WHERE l.tenant_id = $1 AND l.reserved <> (
           SELECT coalesce(sum(i.qty), 0) FROM orders.reservation r JOIN orders.reservation_item i ON i.reservation_id = r.id
           WHERE r.status = 'active' AND r.warehouse_id = l.warehouse_id AND i.sku_id = l.sku_id)`,
        [shop.tenant_id],
      );
      const ratio = round(median(sweeps) / median(statements), 2);
      const measured: Measurement = {
        rps: round((rounds * 1000) / (sweeps.reduce((s, v) => s + v, 0) / 1000)),
        latency_ms: {
          mean: round(sweeps.reduce((s, v) => s + v, 0) / sweeps.length),
          p50: round(median(sweeps)),
          p99: round(Math.max(...sweeps)),
          max: round(Math.max(...sweeps)),
        },
        total: sweeps.length,
        non2xx: 0,
        errors: 0,
        timeouts: 0,
        duration_s: round((performance.now() - started) / 1000, 2),
        connections: 1,
        cpu_percent: { server: null, loadgen: 0, postgres: null, kernel: null, other: null },
      };
      return {
        ...measured,
        note: 'rps = orders expired per second by the sweeps; latencies are of one sweep of 1000',
        extra: {
          due_orders_seeded: orders,
          sweeps_each: rounds,
          sweep_ms: { p50: round(median(sweeps)), min: round(Math.min(...sweeps)), max: round(Math.max(...sweeps)) },
          statement_ms: { p50: round(median(statements)), min: round(Math.min(...statements)), max: round(Math.max(...statements)) },
          orders_cancelled: cancelled,
          stock_levels_inconsistent: rows[0].bad,
          targets: { sweep_over_statement: { value: ratio, target: '<= 2', pass: ratio <= 2 } },
        },
      };
    } finally {
      await pool.end();
    }
  },
};

export const ordersScenarios = { checkoutRest, checkoutBareSql, expireUnpaid };
