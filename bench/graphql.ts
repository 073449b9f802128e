/**
 * The GraphQL path of `npm run bench` (issue: the GraphQL path at REST speed).
 *
 * graphql_path (default): the same work through the REST shim and through POST /graphql, in
 *   alternating rounds of one run at BENCH_CONNECTIONS (32): whoami (the same five fields), and the
 *   feed page of 24 of read.products (pages 1..20 rotating, the very document the REST shim sends,
 *   so the same fields) on the catalog_products store. Targets: /graphql whoami >= 0.8 of REST
 *   whoami, /graphql feed >= 0.3 of the REST feed; the REST feed / REST whoami is reported beside
 *   them (today's ≈ 0.95 must not fall).
 * admin_order_list (default): 200 orders of 3 items each made by order.create; one client (undici), requests
 *   back to back, the admin's order list of 50 with items → sku → product title over /graphql (the
 *   orders subgraph, then the catalog's Sku entities) against one SQL statement on a pg pool that
 *   reads the same rows (orders, their items, the SKUs and their products). Target: /graphql p50 at
 *   most 2x the SQL's.
 */
import { Pool } from 'pg';
import { request } from 'undici';
import { operationDocument } from '../platform/src/graphql-sdl';
import { readProducts } from '../subgraphs/catalog/src/operations/read.products';
import { seededStore } from './catalog';
import { httpLoad, loopLoad, type HttpLoad, type Measurement } from './measure';
import { checkoutShop, command, basket, CUSTOMER } from './orders';
import type { BenchContext, Scenario } from './run';

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const PAGES = 20;
const WHOAMI = 'query Whoami { read_internal_whoami { actor_id name tenant_id credential_id scopes } }';

/** POST /graphql; `body` a text (sent as is, as REST's fixed path is) or a function (a fresh body each request, as REST's rotating paths). */
const graphql = (ctx: BenchContext, body: string | (() => string), token: string | null): HttpLoad => ({
  url: `${ctx.target.url}/graphql`,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  ...(typeof body === 'string' ? { body } : { body: body(), bodies: body }),
});

/** Refuses to measure fast errors: one request must answer 200 with what `check` expects. */
async function probe(load: HttpLoad, check: (body: Record<string, any>) => boolean): Promise<void> {
  const response = await fetch(load.url, { method: load.method, headers: load.headers, body: load.body });
  const text = await response.text();
  let body: Record<string, any> = {};
  try {
    body = JSON.parse(text);
  } catch {}
  if (response.status !== 200 || body.errors || !check(body)) throw new Error(`probe of ${load.url} answered ${response.status}: ${text.slice(0, 300)}`);
}

interface Side {
  name: string;
  load: HttpLoad;
  check: (body: Record<string, any>) => boolean;
}

/** Each side measured in `rounds` alternating rounds; rps over the rounds' whole time, p50 the rounds' median. */
async function alternate(ctx: BenchContext, sides: Side[], label: string) {
  for (const side of sides) await probe(side.load, side.check);
  const measured = new Map<string, Measurement[]>(sides.map((s) => [s.name, []]));
  const rounds = ctx.config.rounds;
  const seconds = Math.max(1, Math.round(ctx.config.seconds / rounds));
  for (let r = 0; r < rounds; r++) {
    for (const side of sides) {
      const warmupSeconds = r === 0 ? ctx.config.warmupSeconds : Math.min(1, ctx.config.warmupSeconds);
      ctx.log(`${label} ${side.name} (round ${r + 1}/${rounds}): ${warmupSeconds} s warm-up + ${seconds} s`);
      measured.get(side.name)!.push(await httpLoad(side.load, { connections: ctx.config.connections, seconds, warmupSeconds, watched: ctx.watched }));
    }
  }
  const figures: Record<
    string,
    { rps: number; rounds_rps: number[]; p50_ms: number; p99_ms: number; non2xx: number; errors: number; cpu_server_percent: number | null }
  > = {};
  for (const side of sides) {
    const ms = measured.get(side.name)!;
    const duration = ms.reduce((s, m) => s + m.duration_s, 0);
    figures[side.name] = {
      rps: Math.round((ms.reduce((s, m) => s + m.rps * m.duration_s, 0) / duration) * 10) / 10,
      rounds_rps: ms.map((m) => m.rps),
      p50_ms: ms.map((m) => m.latency_ms.p50).sort((a, b) => a - b)[Math.floor(ms.length / 2)],
      p99_ms: Math.max(...ms.map((m) => m.latency_ms.p99)),
      non2xx: ms.reduce((s, m) => s + m.non2xx, 0),
      errors: ms.reduce((s, m) => s + m.errors + m.timeouts, 0),
      cpu_server_percent: ms.at(-1)!.cpu_percent.server,
    };
    ctx.log(`${label} ${side.name}: ${JSON.stringify(figures[side.name])}`);
  }
  return { measured, figures };
}

const target = (value: number, bound: number, atLeast = true) => ({
  value,
  target: `${atLeast ? '>=' : '<='} ${bound}`,
  pass: atLeast ? value >= bound : value <= bound,
});

export const graphqlPath: Scenario = {
  name: 'graphql_path',
  description: 'whoami and the feed page of 24 (pages 1..20 rotating) through the REST shim and through POST /graphql, the same fields, alternating rounds',
  async run(ctx) {
    const store = await seededStore(ctx);
    const { token } = ctx.target;
    let page = 0;
    const nextPage = () => (page++ % PAGES) + 1;
    const feedDocument = operationDocument(readProducts, 'feed');
    const items24 = (items: unknown) => Array.isArray(items) && items.length === 24;
    const sides: Side[] = [
      {
        name: 'whoami_rest',
        load: { url: `${ctx.target.url}/v1/read/internal/whoami`, method: 'GET', headers: { authorization: `Bearer ${token}` } },
        check: (b) => b.actor_id === ctx.target.actor.api_key_id,
      },
      {
        name: 'whoami_graphql',
        load: graphql(ctx, JSON.stringify({ query: WHOAMI }), token),
        check: (b) => b.data?.read_internal_whoami?.actor_id === ctx.target.actor.api_key_id,
      },
      {
        name: 'feed_24_rest',
        load: {
          url: `${ctx.target.url}/v1/read/products?store=${store.store_id}&limit=24&projection=feed&page=1`,
          method: 'GET',
          headers: {},
          paths: () => `/v1/read/products?store=${store.store_id}&limit=24&projection=feed&page=${nextPage()}`,
        },
        check: (b) => items24(b.items),
      },
      {
        name: 'feed_24_graphql',
        load: graphql(
          ctx,
          () => JSON.stringify({ query: feedDocument, variables: { input: { store: store.store_id, limit: 24, projection: 'feed', page: nextPage() } } }),
          null,
        ),
        check: (b) => items24(b.data?.read_products?.items),
      },
    ];
    const { measured, figures } = await alternate(ctx, sides, 'graphql_path');
    const over = (a: string, b: string) => round(figures[a].rps / figures[b].rps);
    return {
      ...measured.get('whoami_graphql')!.at(-1)!,
      rps: figures.whoami_graphql.rps,
      note: 'the row is /graphql whoami; every side in extra',
      extra: {
        products: store.products,
        ...figures,
        rest_feed_24_over_whoami: over('feed_24_rest', 'whoami_rest'),
        targets: {
          graphql_whoami_over_rest: target(over('whoami_graphql', 'whoami_rest'), 0.8),
          graphql_feed_24_over_rest: target(over('feed_24_graphql', 'feed_24_rest'), 0.3),
        },
      },
    };
  },
};

const ORDERS = 200;
const ORDER_LIST = `query AdminOrders {
  orders(first: 50) {
    edges { node { id status total_amount currency created_at items { code qty line_amount sku { code product { title } } } } }
  }
}`;

/** The same rows in one statement: the newest 50 orders, their items in order, each item's SKU and product. */
const ORDER_LIST_SQL = `
  WITH page AS (
    SELECT id, status, total_amount, currency, created_at FROM orders."order"
    WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50)
  SELECT page.*, i.code, i.qty, i.line_amount, s.code AS sku_code, p.title
  FROM page
  JOIN orders.order_item i ON i.order_id = page.id
  JOIN catalog.sku s ON s.id = i.sku_id AND s.tenant_id = $1
  JOIN catalog.product p ON p.id = s.product_id AND p.tenant_id = $1
  ORDER BY page.created_at DESC, page.id DESC, i.position`;

export const adminOrderList: Scenario = {
  name: 'admin_order_list',
  description: "The admin's order list of 50 with items → sku → product title over /graphql against one SQL statement reading the same rows (one client)",
  async run(ctx) {
    const { skus, app_id } = await checkoutShop(ctx);
    for (let made = 0; made < ORDERS; made += 20) {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          command(ctx, 'order.create', { store_id: ctx.target.store_id, customer: CUSTOMER, items: basket(skus), payment: { app_id, method: 'pix' } }),
        ),
      );
    }
    const body = JSON.stringify({ query: ORDER_LIST });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${ctx.target.token}` };
    const url = `${ctx.target.url}/graphql`;
    // undici's `request` (what Node's fetch runs on, without its WHATWG streams, as catalog_products'
    // client): the SQL side's pg client is as lean, so the ratio is the server's.
    const step = async () => {
      const response = await request(url, { method: 'POST', headers, body });
      const answer = (await response.body.json()) as {
        data?: { orders?: { edges: Array<{ node: { items: Array<{ sku: { product: { title: string } } }> } }> } };
        errors?: unknown;
      };
      const edges = answer.data?.orders?.edges;
      if (response.statusCode !== 200 || answer.errors || edges?.length !== 50 || !edges[0].node.items[0]?.sku?.product?.title)
        throw new Error(`the order list answered ${response.statusCode}: ${JSON.stringify(answer).slice(0, 300)}`);
    };
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: 1, application_name: 'backoffice-bench' });
    // Planned on statistics, as autovacuum would have them by now: without, the bare SQL's plan is a
    // matter of timing (1.7 ms or 8 ms for the same rows, seen run to run), and so is the ratio.
    await pool.query(`ANALYZE orders."order", orders.order_item, orders.reservation, catalog.sku, catalog.product`);
    const sql = async () => {
      const { rows } = await pool.query({ name: 'bench_order_list', text: ORDER_LIST_SQL, values: [ctx.target.tenant_id] });
      if (rows.length < 150) throw new Error(`the order list statement read ${rows.length} rows`);
    };
    const rounds = ctx.config.rounds;
    const seconds = Math.max(1, Math.round(ctx.config.seconds / rounds));
    const graphqlRounds: Measurement[] = [];
    const sqlRounds: Measurement[] = [];
    try {
      for (let r = 0; r < rounds; r++) {
        const warmup = r === 0 ? Math.max(1, ctx.config.warmupSeconds) : 1;
        for (const [name, fn, into] of [
          ['graphql', step, graphqlRounds],
          ['sql', sql, sqlRounds],
        ] as const) {
          ctx.log(`admin_order_list ${name} (round ${r + 1}/${rounds}): ${warmup} s warm-up + ${seconds} s`);
          await loopLoad(fn, { workers: 1, seconds: warmup, watched: ctx.watched });
          into.push(await loopLoad(fn, { workers: 1, seconds, watched: ctx.watched }));
        }
      }
    } finally {
      await pool.end();
    }
    const p50 = (ms: Measurement[]) => ms.map((m) => m.latency_ms.p50).sort((a, b) => a - b)[Math.floor(ms.length / 2)];
    const graphqlP50 = p50(graphqlRounds);
    const sqlP50 = p50(sqlRounds);
    return {
      ...graphqlRounds.at(-1)!,
      note: 'the row is the /graphql order list, one client',
      extra: {
        orders: ORDERS,
        graphql_p50_ms: graphqlP50,
        graphql_p99_ms: Math.max(...graphqlRounds.map((m) => m.latency_ms.p99)),
        sql_p50_ms: sqlP50,
        sql_p99_ms: Math.max(...sqlRounds.map((m) => m.latency_ms.p99)),
        targets: { admin_order_list_p50_over_sql: target(round(graphqlP50 / sqlP50, 2), 2, false) },
      },
    };
  },
};
