import { get, type IncomingHttpHeaders } from 'node:http';
import { Client } from 'pg';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { projectTo, resultProblem } from '@backoffice/platform';
import { documentSql, feedProduct, product, shapeItems, type Row } from '../subgraphs/catalog/src/domain/product-document';
import { productQuery } from '../subgraphs/catalog/src/domain/product-listing';
import { priceTermsWithin } from '../subgraphs/catalog/src/domain/publication';
import { seedCatalog } from '@backoffice/catalog';
import { Catalog1796200000001 } from '../subgraphs/catalog/src/migrations/1796200000001-ascii-documents';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The rendered documents read.products sends are exactly what the live query builds, after every
 * kind of change; the listings' filter terms and counts follow; pages carry HTTP caching headers and
 * are never served stale once a change has committed.
 */

let t: TestSystem;
const ok = (name: string, input: unknown) => t.ok(name, input);
const page = (query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/v1/read/products?${new URLSearchParams({ store: t.tenant.store_id, ...query })}`, { headers });

beforeAll(async () => {
  t = await startTestSystem();
}, 120_000);
afterAll(() => t.stop());

/** Every product of the tenant: its stored documents equal the live query's, and match their schemas. */
async function expectDocumentsLive(): Promise<void> {
  const live = shapeItems(
    (await t.sql(`SELECT ${documentSql(true).productColumns} FROM catalog.product p WHERE p.tenant_id = $1 ORDER BY p.id`, [t.tenant.tenant_id])) as Row[],
  );
  const stored = (await t.sql(`SELECT product_id, full_json, feed_json FROM catalog.product_document WHERE tenant_id = $1 ORDER BY product_id`, [
    t.tenant.tenant_id,
  ])) as {
    product_id: string;
    full_json: string;
    feed_json: string;
  }[];
  expect(stored.map((d) => d.product_id)).toEqual(live.map((p) => p.product_id));
  stored.forEach((d, i) => {
    // ASCII text, whatever the catalog's characters (escaped, the same JSON): see asciiJson.
    expect(d.full_json).toMatch(/^[\x20-\x7e]*$/);
    expect(d.feed_json).toMatch(/^[\x20-\x7e]*$/);
    const full = JSON.parse(d.full_json);
    expect(full).toEqual(live[i]);
    expect(resultProblem(product, full)).toBeNull();
    expect(JSON.parse(d.feed_json)).toEqual(projectTo(feedProduct, live[i]));
    expect(resultProblem(feedProduct, JSON.parse(d.feed_json))).toBeNull();
  });
}

/** The listing's terms as the filters see them: ids of one page for a query. */
const idsOf = async (query: Record<string, string>) =>
  ((await (await page({ limit: '100', ...query })).json()) as { items: { product_id: string }[] }).items.map((p) => p.product_id);

it('keeps documents exactly what the live query builds after every kind of change', async () => {
  const steps: [string, () => Promise<unknown>][] = [];
  const ids: Record<string, string> = {};
  const step = (name: string, run: () => Promise<unknown>) => steps.push([name, run]);
  step('category', async () => {
    ids.shoes = (await ok('catalog.category.create', { path: 'shoes', name: 'Shoes' })).category_id;
    ids.trail = (await ok('catalog.category.create', { path: 'shoes.trail', name: 'Trail' })).category_id;
  });
  step('product', async () => {
    ids.p = (
      await ok('catalog.product.create', {
        title: 'Runner',
        handle: 'runner',
        status: 'active',
        categories: [{ category_id: ids.trail }],
        custom_fields: { material: 'mesh', weight: 250 },
      })
    ).product_id;
  });
  step('option', () => ok('catalog.option.create', { product_id: ids.p, name: 'color', values: ['red', 'blue'], default_value: 'red' }));
  step('sku', async () => {
    ids.red = (await ok('catalog.sku.create', { product_id: ids.p, code: 'RUN-RED', amount: 5000, option_values: [{ option: 'color', value: 'red' }] })).sku_id;
  });
  step('sku update', () => ok('catalog.sku.update', { sku_id: ids.red, amount: 5500, name: 'Red runner' }));
  step('promotion', () => ok('catalog.sku.set_promotion', { sku_id: ids.red, promotional_amount: 4500 }));
  step('media', async () => {
    await ok('catalog.media.attach', { owner_type: 'product', owner_id: ids.p, provider_key: 'https://img.example.com/runner.jpg', alt: 'Runner' });
    await ok('catalog.media.attach', { owner_type: 'sku', owner_id: ids.red, provider_key: 'https://img.example.com/red.jpg' });
  });
  step('collection', async () => {
    const { collection_id } = await ok('catalog.collection.create', { handle: 'summer', title: 'Summer' });
    await ok('catalog.collection.add_products', { collection_id, product_ids: [ids.p] });
  });
  step('publication', () => ok('catalog.product.publish', { product_id: ids.p, store_id: t.tenant.store_id }));
  step('product update', () =>
    ok('catalog.product.update', {
      product_id: ids.p,
      title: 'Trail Runner – Ação 🏃',
      categories: [{ category_id: ids.shoes }],
      custom_fields: { material: 'knit', waterproof: true },
    }),
  );
  step('second sku', () =>
    ok('catalog.sku.create', { product_id: ids.p, code: 'RUN-BLUE', amount: 9000, option_values: [{ option: 'color', value: 'blue' }] }),
  );
  for (const [name, run] of steps) {
    await run();
    try {
      await expectDocumentsLive();
    } catch (error) {
      throw new Error(`after the ${name} change: ${(error as Error).message}`);
    }
  }
  // The page spells the title as it was written.
  const listed = (await (await page({ projection: 'feed' })).json()) as { items: { product_id: string; title: string }[] };
  expect(listed.items.find((p) => p.product_id === ids.p)?.title).toBe('Trail Runner – Ação 🏃');
  // The listing's terms followed the last changes: the new category and field, both SKUs' options and amounts.
  expect(await idsOf({ category: 'shoes' })).toEqual([ids.p]);
  expect(await idsOf({ category: 'shoes.trail' })).toEqual([]);
  expect(await idsOf({ 'cf.material': 'knit' })).toEqual([ids.p]);
  expect(await idsOf({ 'cf.material': 'mesh' })).toEqual([]);
  expect(await idsOf({ 'cf.waterproof': 'true' })).toEqual([ids.p]);
  expect(await idsOf({ 'option.color': 'blue' })).toEqual([ids.p]);
  expect(await idsOf({ price_min: '8000', price_max: '9500' })).toEqual([ids.p]);
  expect(await idsOf({ price_min: '6000', price_max: '8000' })).toEqual([]);
  expect(await idsOf({ 'option.color': 'red', price_min: '8000' })).toEqual([]);
  expect(await idsOf({ collection: 'summer' })).toEqual([ids.p]);
  // And so did the counts behind exact totals.
  const total = async (query: Record<string, string>) => (await (await page(query)).json()) as { total: number; total_exact: boolean };
  expect(await total({ category: 'shoes' })).toMatchObject({ total: 1, total_exact: true });
  expect(await total({ category: 'shoes.trail' })).toMatchObject({ total: 0, total_exact: true });
  await ok('catalog.product.unpublish', { product_id: ids.p, store_id: t.tenant.store_id });
  expect(await total({ category: 'shoes' })).toMatchObject({ total: 0, total_exact: true });
  expect(await total({})).toMatchObject({ total: 0, total_exact: true });
  await ok('catalog.product.publish', { product_id: ids.p, store_id: t.tenant.store_id });
});

describe('HTTP caching', () => {
  let productId: string;
  beforeAll(async () => {
    productId = (await ok('catalog.product.create', { title: 'Cached', handle: 'cached', status: 'active' })).product_id;
    await ok('catalog.sku.create', { product_id: productId, amount: 100 });
    await ok('catalog.product.publish', { product_id: productId, store_id: t.tenant.store_id });
  });

  it('answers a strong ETag, Cache-Control and purge keys, and 304 to a matching If-None-Match', async () => {
    const first = await page({ projection: 'feed' });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-z]+-[A-Za-z0-9_-]{22}(-gz)?"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=30');
    expect(first.headers.get('surrogate-key')!.split(' ')).toEqual(expect.arrayContaining([`store-${t.tenant.store_id}`, `product-${productId}`]));
    expect(first.headers.get('cache-tag')!.split(',')).toEqual(first.headers.get('surrogate-key')!.split(' '));
    // Another page of the same catalog has another tag.
    expect((await page({ projection: 'feed', limit: '5' })).headers.get('etag')).not.toBe(etag);
    const again = await page({ projection: 'feed' }, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await page({ projection: 'feed' }, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    // Errors are not pages: no validator.
    const refused = await page({ projection: 'nope' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('etag')).toBeNull();
  });

  it('sends a page compressed in the coding the client takes (brotli first), each under its own strong tag', async () => {
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const url = `${t.url}/v1/read/products?${new URLSearchParams({ store: t.tenant.store_id, limit: '100' })}`;
        get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const plain = await raw({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024); // below 1 KiB a page goes as it is
    const zipped = await raw({ 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    // A browser's header (gzip first) and brotli at a higher weight: brotli; gzip when it weighs more.
    for (const header of ['gzip, deflate, br, zstd', 'gzip;q=0.8, br']) {
      const brotli = await raw({ 'accept-encoding': header });
      expect([header, brotli.headers['content-encoding']]).toEqual([header, 'br']);
      expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
      expect(brotli.headers.etag).toBe(`${plain.headers.etag!.slice(0, -1)}-br"`);
    }
    expect((await raw({ 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw({ 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
    // Other bytes, another strong tag; each revalidates only its own.
    expect(zipped.headers.etag).toBe(`${plain.headers.etag!.slice(0, -1)}-gz"`);
    expect((await raw({ 'accept-encoding': 'gzip', 'if-none-match': zipped.headers.etag! })).status).toBe(304);
    expect((await raw({ 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag! })).status).toBe(200);
    expect((await raw({ 'accept-encoding': 'br', 'if-none-match': zipped.headers.etag! })).status).toBe(200);
    expect((await raw({ 'accept-encoding': 'gzip;q=0', 'if-none-match': plain.headers.etag! })).status).toBe(304);
  });

  it('never serves a page from before a committed change, to a revalidating client or a new one', async () => {
    const before = await page();
    const etag = before.headers.get('etag')!;
    await ok('catalog.product.update', { product_id: productId, title: 'Cached, renamed' });
    const revalidated = await page({}, { 'if-none-match': etag });
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.get('etag')).not.toBe(etag);
    const body = (await revalidated.json()) as { items: { product_id: string; title: string }[] };
    expect(body.items.find((p) => p.product_id === productId)?.title).toBe('Cached, renamed');
  });

  it('hears a change another process committed (its notification) within moments', async () => {
    const etag = (await page()).headers.get('etag')!;
    // What another catalog process's command does at commit: a new version, announced.
    await t.sql(
      `WITH v AS (UPDATE catalog.catalog_version SET version = version + 1 WHERE tenant_id = $1 RETURNING version)
      SELECT pg_notify('catalog_version', $1 || ' ' || v.version) FROM v`,
      [t.tenant.tenant_id],
    );
    const deadline = Date.now() + 5_000;
    let now = etag;
    while (now === etag && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      now = (await page()).headers.get('etag')!;
    }
    expect(now).not.toBe(etag);
  });
});

describe('filters and totals at more than 10,000 listings', () => {
  const PRODUCTS = 10_050;
  let store: { tenant_id: string; store_id: string };
  beforeAll(async () => {
    const other = await t.newTenant();
    store = { tenant_id: other.tenant_id, store_id: other.store_id };
    await seedCatalog(t.system.runtimes.get('catalog')!.dataSource, { tenant_id: store.tenant_id, store_ids: [store.store_id], products: PRODUCTS, seed: 3 });
  }, 180_000);

  const read = async (query: Record<string, string>) => {
    const res = await fetch(`${t.url}/v1/read/products?${new URLSearchParams({ store: store.store_id, limit: '24', projection: 'feed', ...query })}`);
    expect(res.status).toBe(200);
    return (await res.json()) as { items: { product_id: string }[]; total: number; total_exact: boolean };
  };

  it('keeps one plan for a first page of the whole listing, where its window as values would be planned on every run', async () => {
    // One session, as a pooled connection: PostgreSQL counts the plans of each statement it keeps.
    const client = new Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      const plansOf = async (page: number) => {
        const statement = productQuery(store, { store: store.store_id, limit: 24, page }, 'feed').page;
        for (let run = 0; run < 8; run++) await client.query({ name: statement.name, text: statement.text, values: [...statement.values] });
        const { rows } = await client.query('SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = $1', [
          statement.name,
        ]);
        return rows[0];
      };
      // The first page: planned for its values five times, then the generic plan is kept.
      expect(await plansOf(1)).toEqual({ generic: 3, custom: 5 });
      // A page past the first ones: costed as if a tenth of 10,050 listings were read, never kept.
      expect(await plansOf(21)).toEqual({ generic: 0, custom: 8 });
    } finally {
      await client.end();
    }
  });

  /** The same page by the filters' first meaning: rows of the catalog's own tables, joined at read time. */
  const oracle = async (condition: string, params: unknown[]) => {
    const where = `pub.store_id = $1 AND pub.product_id IN (${condition})`;
    const values = [store.store_id, store.tenant_id, ...params];
    const [{ n }] = await t.sql(`SELECT count(*)::int AS n FROM catalog.publication pub WHERE ${where}`, values);
    const ids = (
      await t.sql(
        `SELECT pub.product_id FROM catalog.publication pub WHERE ${where} ORDER BY pub.product_created_at DESC, pub.product_id DESC LIMIT 24`,
        values,
      )
    ).map((r: { product_id: string }) => r.product_id);
    return { n: n as number, ids };
  };

  const cases: [string, Record<string, string>, string, unknown[]][] = [
    [
      'a category subtree',
      { category: 'apparel' },
      `SELECT pc.product_id FROM catalog.category c JOIN catalog.product_category pc ON pc.category_id = c.id WHERE c.tenant_id = $2 AND c.path <@ $3::ltree`,
      ['apparel'],
    ],
    [
      'a leaf category',
      { category: 'apparel.tops.shirts' },
      `SELECT pc.product_id FROM catalog.category c JOIN catalog.product_category pc ON pc.category_id = c.id WHERE c.tenant_id = $2 AND c.path <@ $3::ltree`,
      ['apparel.tops.shirts'],
    ],
    [
      'an option value',
      { 'option.color': 'black' },
      `SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND s.option_values @> $3::jsonb`,
      ['{"color":"black"}'],
    ],
    ['another option value', { 'option.size': 'M' }, `SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND s.option_values ->> 'size' = 'M'`, []],
    [
      'two options on one SKU',
      { 'option.color': 'black', 'option.size': 'L' },
      `SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND s.option_values @> $3::jsonb`,
      ['{"color":"black","size":"L"}'],
    ],
    [
      'a price range',
      { price_min: '5000', price_max: '6000' },
      `SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND s.amount BETWEEN 5000 AND 6000`,
      [],
    ],
    [
      'an option and a price on one SKU',
      { 'option.color': 'red', price_max: '4000' },
      `SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND s.option_values @> '{"color":"red"}' AND s.amount <= 4000`,
      [],
    ],
    [
      'a text custom field',
      { 'cf.season': 'winter' },
      `SELECT p.id FROM catalog.product p WHERE p.tenant_id = $2 AND p.custom_fields @> '{"season":"winter"}'`,
      [],
    ],
    [
      'a number custom field',
      { 'cf.warranty_years': '5.0' },
      `SELECT p.id FROM catalog.product p WHERE p.tenant_id = $2 AND p.custom_fields @> '{"warranty_years":5}'`,
      [],
    ],
    [
      'a boolean custom field',
      { 'cf.eco_certified': 'true' },
      `SELECT p.id FROM catalog.product p WHERE p.tenant_id = $2 AND p.custom_fields @> '{"eco_certified":true}'`,
      [],
    ],
  ];

  it.each(cases)('finds by %s what the catalog tables say, with the exact total up to 10,000', async (_name, query, condition, params) => {
    const [served, expected] = await Promise.all([read(query), oracle(condition, params)]);
    expect(expected.n).toBeGreaterThan(0);
    expect(served.items.map((p) => p.product_id)).toEqual(expected.ids);
    if (expected.n <= 10_000) expect(served).toMatchObject({ total: expected.n, total_exact: true });
    // A term's total comes from the counts, exact however large; any other stops counting past 10,000.
    else expect([served.total, served.total_exact]).toEqual(served.total_exact ? [expected.n, true] : [10_000, false]);
  });

  it('caps a total past 10,000 matches it would have to count, and says so', async () => {
    expect(await read({})).toMatchObject({ total: PRODUCTS, total_exact: true });
    expect(await read({ price_min: '0' })).toMatchObject({ total: 10_000, total_exact: false });
    expect(await read({ price_min: '0', 'option.size': 'M', 'option.color': 'black' })).toMatchObject({ total_exact: true });
  });
});

describe('price terms', () => {
  it('name only buckets wholly inside a range: a listing counted as surely matching does match', async () => {
    const amounts = [0, 5, 9, 10, 19, 99, 100, 1999, 2000, 2099, 2100, 2499, 2500, 2501, 123456, 9007199254740991];
    const rows = await t.sql<{ a: string; term: string }>(`SELECT a::text, catalog.price_term(a) AS term FROM unnest($1::bigint[]) a`, [amounts]);
    for (const [min, max] of [
      [2000, 2500],
      [0, 9],
      [10, 99],
      [5, 2100],
      [0, Number.MAX_SAFE_INTEGER],
      [2001, 2098],
    ]) {
      const inside = new Set(priceTermsWithin(min, max));
      for (const { a, term } of rows) if (inside.has(term)) expect([a, Number(a) >= min && Number(a) <= max]).toEqual([a, true]);
    }
    // Aligned bounds cover every amount between them.
    const aligned = new Set(priceTermsWithin(2000, 2499));
    expect(rows.filter((r) => aligned.has(r.term)).map((r) => Number(r.a))).toEqual([2000, 2099, 2100, 2499]);
    expect(priceTermsWithin(2001, 2098)).toEqual([]);
  });
});

describe('listing counts under concurrent writers', () => {
  it('writers touching the same counts wait for each other (no deadlock), and the counts equal the listings', async () => {
    const other = await t.newTenant();
    const second = (await t.command('tenant.store.create', { name: 'Second', handle: `second-${other.store_id.slice(-6).toLowerCase()}` }, other.token)).body;
    const stores = [other.store_id, second.id as string];
    // Eight transactions at once, each upserting hundreds of shared (store, status, term) counts.
    await seedCatalog(t.system.runtimes.get('catalog')!.dataSource, {
      tenant_id: other.tenant_id,
      store_ids: stores,
      products: 3_200,
      batchSize: 100,
      concurrency: 8,
      seed: 5,
    });
    const recount = await t.sql(
      `SELECT store_id, status, term, count(*)::int AS n FROM catalog.publication, unnest(terms || ''::text) AS term
       WHERE tenant_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [other.tenant_id],
    );
    const counts = await t.sql(
      `SELECT store_id, status, term, published AS n FROM catalog.listing_count WHERE tenant_id = $1 AND published <> 0 ORDER BY 1, 2, 3`,
      [other.tenant_id],
    );
    expect(recount.length).toBeGreaterThan(100);
    expect(counts).toEqual(recount);
  }, 120_000);
});

it('renders documents stored with other characters again, in ASCII, and moves the catalog version (migration 1796200000001)', async () => {
  const { product_id } = await ok('catalog.product.create', { title: 'Café – crème', handle: 'cafe-creme', status: 'active' });
  // As an earlier rendering stored it: the same JSON with the characters as they are.
  await t.sql(`UPDATE catalog.product_document SET full_json = $2, feed_json = $3 WHERE product_id = $1`, [
    product_id,
    ...((await t.sql(`SELECT full_json, feed_json FROM catalog.product_document WHERE product_id = $1`, [product_id])) as Record<string, string>[]).flatMap(
      (d) => [JSON.stringify(JSON.parse(d.full_json)), JSON.stringify(JSON.parse(d.feed_json))],
    ),
  ]);
  const version = async () =>
    ((await t.sql(`SELECT version::int AS v FROM catalog.catalog_version WHERE tenant_id = $1`, [t.tenant.tenant_id])) as { v: number }[])[0].v;
  const before = await version();
  const runner = t.system.runtimes.get('catalog')!.dataSource.createQueryRunner();
  try {
    await new Catalog1796200000001().up(runner);
  } finally {
    await runner.release();
  }
  await expectDocumentsLive();
  expect(await version()).toBe(before + 1);
});
