/**
 * Catalog scenarios of `npm run bench`.
 *
 * catalog_products (default): seeds 100,000 products (BENCH_CATALOG_PRODUCTS) into a store of the bench
 *   tenant's own (see `seededStore`), then for read.products feed and full, pages of 24 and 100, measures over HTTP (one client,
 *   requests back to back, on a second instance with the page cache off so that every page is built)
 *   the median and p99 latency, and in the same run the median of the bare
 *   SQL that fetches the same page (the very statements the handler sends, on a pg pool, concurrently
 *   as the handler does when a total is counted apart); reports HTTP median / SQL median and the bytes
 *   of full over feed.
 * catalog_scale (default, the run's longest): page cache off, the median of a feed page of 100 with
 *   10,000 products in a store and with 1,000,000 (BENCH_CATALOG_SCALE) in another, same database;
 *   at 1,000,000 the median of a feed page of 24 unfiltered and filtered by a category subtree, an
 *   option value, a price range and a custom field, each with the total it answered and whether exact.
 *
 * Targets: HTTP median <= 1.5 x bare SQL median for the feed page of 100, <= 2 x for the feed page of
 * 24 (what a page costs outside the database); full/feed bytes >= 5; median at 1,000,000 <= 1.5 x
 * median at 10,000; each filtered median <= 3 x the unfiltered one.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { request } from 'undici';
import { catalog } from '../subgraphs/catalog/src/index';
import { productQuery, type Projection } from '../subgraphs/catalog/src/domain/product-listing';
import { seedCatalog } from '../subgraphs/catalog/src/seed';
import { createTenant, identity } from '../subgraphs/identity/src/index';
import { subgraphDataSource } from '../platform/src/subgraph';
import { loopLoad, type Measurement } from './measure';
import { command } from './orders';
import type { BenchContext, Scenario } from './run';

const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};

async function seed(ctx: BenchContext, tenantId: string, storeId: string, products: number): Promise<number> {
  const ds = subgraphDataSource(ctx.databaseUrl, catalog, 3);
  await ds.initialize();
  const started = Date.now();
  let last = 0;
  try {
    await seedCatalog(ds, {
      tenant_id: tenantId,
      store_ids: [storeId],
      products,
      seed: 1,
      batchSize: 2000,
      concurrency: 2,
      onProgress: (done, total) => {
        if (Date.now() - last > 10_000 || done === total) {
          last = Date.now();
          ctx.log(`seeded ${done}/${total} products (${Math.round((Date.now() - started) / 1000)} s)`);
        }
      },
    });
  } finally {
    await ds.destroy();
  }
  return Math.round((Date.now() - started) / 100) / 10;
}

async function newStore(ctx: BenchContext, name: string): Promise<{ tenant_id: string; store_id: string }> {
  const ds = subgraphDataSource(ctx.databaseUrl, identity, 1);
  await ds.initialize();
  try {
    const tenant = await createTenant(ds, { name, store: `${name}-${Date.now().toString(36)}`, never_expires: true });
    return { tenant_id: tenant.tenant_id, store_id: tenant.store_id };
  } finally {
    await ds.destroy();
  }
}

let benchStore: Promise<{ tenant_id: string; store_id: string; products: number; seed_s: number }> | null = null;
/**
 * A store of the bench tenant with BENCH_CATALOG_PRODUCTS products, seeded once for every scenario that
 * reads it. A store of its own: the checkout scenarios publish their 200 one-SKU mugs to the tenant's
 * first store, and newest first they were the pages a whole run measured (9 KB of feed where the
 * catalog's are 30 KB).
 */
export function seededStore(ctx: BenchContext) {
  benchStore ??= (async () => {
    const products = envInt('BENCH_CATALOG_PRODUCTS', 100_000);
    const { id } = await command(ctx, 'tenant.store.create', { name: 'Bench catalog', handle: `bench-catalog-${Date.now().toString(36)}` });
    const store = { tenant_id: ctx.target.tenant_id, store_id: id as string };
    return { ...store, products, seed_s: await seed(ctx, store.tenant_id, store.store_id, products) };
  })();
  return benchStore;
}

/** A second instance with the page cache off: what a page costs when it must be built. */
export const uncachedServer = (ctx: BenchContext) => ctx.server({ PRODUCTS_PAGE_CACHE_BYTES: '0' });

const median = (m: Measurement) => m.latency_ms.p50;

/**
 * One client, requests back to back: latency, not throughput. The client is undici's `request` (what
 * Node's fetch runs on, without its WHATWG streams, which alone cost 0.9–1.4 ms a page here), sending
 * a browser's Accept-Encoding (as storefront_throughput does) and decoding what comes back: the SQL
 * side's pg client is as lean, so the ratio is the server's.
 */
async function httpLatency(url: string, seconds: number, watched: BenchContext['watched']): Promise<{ m: Measurement; bytes: number }> {
  let bytes = 0;
  const step = async () => {
    const response = await request(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const raw = Buffer.from(await response.body.arrayBuffer());
    const coding = response.headers['content-encoding'];
    const body = coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}: ${body.toString().slice(0, 200)}`);
    bytes = body.byteLength;
  };
  await loopLoad(step, { workers: 1, seconds: Math.min(2, seconds), watched }); // warm-up
  return { m: await loopLoad(step, { workers: 1, seconds, watched }), bytes };
}

async function sqlLatency(
  pool: Pool,
  store: { tenant_id: string; store_id: string },
  limit: number,
  projection: Projection,
  seconds: number,
  watched: BenchContext['watched'],
) {
  const q = productQuery(store, { store: store.store_id, limit, page: 1 }, projection);
  // As the handler sends them (a store's whole listing named, so kept prepared).
  const statements = [q.page, ...(q.total ? [q.total] : [])];
  const step = () => Promise.all(statements.map((s) => pool.query(s)));
  await loopLoad(step, { workers: 1, seconds: Math.min(2, seconds), watched });
  return loopLoad(step, { workers: 1, seconds, watched });
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

export const catalogProducts: Scenario = {
  name: 'catalog_products',
  description: 'read.products over HTTP (one client) vs the bare SQL of the same page, feed and full, pages of 24 and 100, 100,000 products',
  async run(ctx) {
    const { products, seed_s: seedSeconds, ...store } = await seededStore(ctx);
    // Every request the same page: measured with the page cache off, or it would compare the cache with SQL.
    const server = await uncachedServer(ctx);
    const watched = { ...ctx.watched, serverPid: server.pid };
    const seconds = Math.max(3, Math.min(ctx.config.seconds, 8));
    // The bare SQL runs with the server's session settings (no JIT), so only the layers above it differ.
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: 4, application_name: 'backoffice-bench', options: '-c jit=off' });
    const figures: Record<string, unknown> = { products, seed_s: seedSeconds };
    const bytes: Record<string, number> = {};
    let main: Measurement | null = null;
    try {
      for (const projection of ['feed', 'full'] as const) {
        for (const limit of [24, 100]) {
          const url = `${server.url}/v1/read/products?store=${store.store_id}&limit=${limit}&projection=${projection}`;
          const http = await httpLatency(url, seconds, watched);
          const sql = await sqlLatency(pool, store, limit, projection, seconds, watched);
          const key = `${projection}_${limit}`;
          bytes[key] = http.bytes;
          figures[key] = {
            http_p50_ms: median(http.m),
            http_p99_ms: http.m.latency_ms.p99,
            sql_p50_ms: median(sql),
            sql_p99_ms: sql.latency_ms.p99,
            http_over_sql: round(median(http.m) / median(sql)),
            bytes: http.bytes,
            requests: http.m.total,
            errors: http.m.errors + sql.errors,
          };
          ctx.log(`catalog ${key}: ${JSON.stringify(figures[key])}`);
          if (key === 'feed_100') main = http.m;
        }
      }
    } finally {
      await pool.end();
    }
    const overSql = (key: string, most: number) => {
      const { http_over_sql: value } = figures[key] as { http_over_sql: number };
      return { value, target: `<= ${most}`, pass: value <= most };
    };
    const bytesRatio = round(bytes.full_100 / bytes.feed_100);
    figures.bytes_full_over_feed = { page_24: round(bytes.full_24 / bytes.feed_24), page_100: bytesRatio };
    figures.targets = {
      feed_100_http_over_sql: overSql('feed_100', 1.5),
      feed_24_http_over_sql: overSql('feed_24', 2),
      bytes_full_over_feed: { value: bytesRatio, target: '>= 5', pass: bytesRatio >= 5 },
    };
    return { ...main!, extra: figures, note: 'latencies from one client back to back; rps is of the feed page of 100' };
  },
};

/** The filtered pages catalog_scale compares with the unfiltered one (values the seed's vocabulary holds). */
const SCALE_FILTERS = {
  category: 'category=apparel.tops',
  option: 'option.color=red',
  price: 'price_min=2000&price_max=2500',
  custom_field: 'cf.season=winter',
} as const;

export const catalogScale: Scenario = {
  name: 'catalog_scale',
  description:
    'read.products at 1,000,000 products, page cache off (one client): feed page of 24 unfiltered vs filtered by ' +
    'category, option, price range and custom field; feed page of 100 at 10,000 vs 1,000,000',
  async run(ctx) {
    const large = envInt('BENCH_CATALOG_SCALE', 1_000_000);
    const seconds = Math.max(3, Math.min(ctx.config.seconds, 8));
    const server = await uncachedServer(ctx);
    const watched = { ...ctx.watched, serverPid: server.pid };
    const figures: Record<string, unknown> = {};
    const targets: Record<string, { value: number; target: string; pass: boolean }> = {};
    const medians: Record<string, number> = {};
    let main: Measurement | null = null;
    for (const [label, products] of [
      ['small', 10_000],
      ['large', large],
    ] as const) {
      const store = await newStore(ctx, `scale-${label}`);
      const seedSeconds = await seed(ctx, store.tenant_id, store.store_id, products);
      const result: Record<string, unknown> = { products, seed_s: seedSeconds };
      const pages: [string, string][] = [
        ['feed_100', 'limit=100&projection=feed'],
        ['full_24', 'limit=24'],
        ['feed_100_price_asc', 'limit=100&projection=feed&sort=price_asc'],
        ...(label === 'large'
          ? [
              ['feed_24', 'limit=24&projection=feed'] as [string, string],
              ...Object.entries(SCALE_FILTERS).map(([name, query]) => [`feed_24_${name}`, `limit=24&projection=feed&${query}`] as [string, string]),
            ]
          : []),
      ];
      for (const [name, query] of pages) {
        const url = `${server.url}/v1/read/products?store=${store.store_id}&${query}`;
        const { m } = await httpLatency(url, seconds, watched);
        const body = (await (await fetch(url)).json()) as { total?: number; total_exact?: boolean };
        result[name] = { query, p50_ms: median(m), p99_ms: m.latency_ms.p99, errors: m.errors, total: body.total, total_exact: body.total_exact };
        medians[`${label}_${name}`] = median(m);
        if (label === 'large' && name === 'feed_100') main = m;
      }
      figures[label] = result;
      ctx.log(`catalog scale ${label}: ${JSON.stringify(result)}`);
    }
    const ratio = round(medians.large_feed_100 / medians.small_feed_100);
    targets.median_large_over_small = { value: ratio, target: '<= 1.5', pass: ratio <= 1.5 };
    for (const name of Object.keys(SCALE_FILTERS)) {
      const value = round(medians[`large_feed_24_${name}`] / medians.large_feed_24);
      targets[`filtered_${name}_over_unfiltered`] = { value, target: '<= 3', pass: value <= 3 };
    }
    figures.targets = targets;
    return { ...main!, extra: figures, note: 'latencies from one client back to back, page cache off; the row is the feed page of 100 at the large size' };
  },
};
