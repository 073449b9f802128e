import { Client } from 'pg';
import { seedCatalog } from '@backoffice/catalog';
import { BackofficeClient } from '../sdk/src';
import { startTestSystem, type TestSystem } from './helpers';

/** read.products (GET /v1/read/products): public, by store; filters, sorts, facets, projections, paging. */

let t: TestSystem;
const ids: Record<string, string> = {};
let storeA: { store_id: string; handle: string };
let seeded: { store_id: string; tenant_id: string };

const ok = (name: string, input: unknown, token?: string) => t.ok(name, input, token);
/** A public read of store A: no credential. */
const products = (query: Record<string, string> = {}, store = storeA.store_id) => t.read('/products', { store, ...query }, null);
const titles = (body: { items: { title: string }[] }) => body.items.map((p) => p.title);
const keys = (o: object) => Object.keys(o).sort();

beforeAll(async () => {
  t = await startTestSystem();
  const [row] = await t.sql(`SELECT id AS store_id, handle FROM identity.store WHERE tenant_id = $1`, [t.tenant.tenant_id]);
  storeA = row;
  const cat = async (path: string) => (ids[path] = (await ok('catalog.category.create', { path, name: path.split('.').pop() })).category_id);
  await cat('shoes');
  await cat('shoes.running');
  await cat('shoes.running.trail');
  await cat('bags');
  const brand = (await ok('catalog.brand.create', { name: 'Acme' })).brand_id;

  // Alpha: two SKUs (red/42 at 50.00 with a promotion, blue/43 at 70.00), product media with and without URL, a SKU image.
  const alpha = (
    await ok('catalog.product.create', {
      title: 'Alpha Runner',
      handle: 'alpha-runner',
      description: 'Light trail runner',
      status: 'active',
      brand_id: brand,
      metadata: { origin: 'test' },
      categories: [{ category_id: ids['shoes.running.trail'] }],
      custom_fields: { material: 'mesh', waterproof: true, weight: 250 },
    })
  ).product_id;
  ids.alpha = alpha;
  await ok('catalog.option.create', { product_id: alpha, name: 'color', values: ['red', 'blue'], default_value: 'red' });
  await ok('catalog.option.create', { product_id: alpha, name: 'size', values: ['42', '43'], default_value: '42' });
  ids.alpha_red = (
    await ok('catalog.sku.create', {
      product_id: alpha,
      code: 'ALPHA-RED-42',
      amount: 5000,
      currency: 'EUR',
      ean: '4006381333931',
      option_values: [
        { option: 'color', value: 'red' },
        { option: 'size', value: '42' },
      ],
    })
  ).sku_id;
  ids.alpha_blue = (
    await ok('catalog.sku.create', {
      product_id: alpha,
      code: 'ALPHA-BLUE-43',
      amount: 7000,
      compare_at_amount: 9000,
      option_values: [
        { option: 'color', value: 'blue' },
        { option: 'size', value: '43' },
      ],
      metadata: { bin: 'A1' },
    })
  ).sku_id;
  await ok('catalog.sku.set_promotion', { sku_id: ids.alpha_red, promotional_amount: 4000 });
  await ok('catalog.media.attach', { owner_type: 'product', owner_id: alpha, provider_key: 'https://img.example.com/alpha.jpg', alt: 'Alpha' });
  await ok('catalog.media.attach', { owner_type: 'product', owner_id: alpha, provider_key: 'docs/alpha-manual.pdf', kind: 'document' });
  await ok('catalog.media.attach', { owner_type: 'sku', owner_id: ids.alpha_red, provider_key: 'https://img.example.com/alpha-red.jpg' });

  // Bravo: one SKU at 120.00, no options, no media.
  ids.bravo = (
    await ok('catalog.product.create', {
      title: 'Bravo Bag',
      handle: 'bravo-bag',
      status: 'active',
      categories: [{ category_id: ids.bags }],
      custom_fields: { material: 'leather' },
    })
  ).product_id;
  ids.bravo_sku = (await ok('catalog.sku.create', { product_id: ids.bravo, code: 'BRAVO', amount: 12000 })).sku_id;

  // Charlie: a draft, green at 30.00.
  ids.charlie = (
    await ok('catalog.product.create', {
      title: 'Charlie Trail',
      handle: 'charlie-trail',
      status: 'draft',
      categories: [{ category_id: ids['shoes.running'] }],
    })
  ).product_id;
  await ok('catalog.option.create', { product_id: ids.charlie, name: 'color', values: ['green'], default_value: 'green' });
  await ok('catalog.sku.create', { product_id: ids.charlie, code: 'CHARLIE', amount: 3000 });

  // Delta exists but is never published.
  ids.delta = (await ok('catalog.product.create', { title: 'Delta Hidden', handle: 'delta-hidden', status: 'active' })).product_id;
  await ok('catalog.sku.create', { product_id: ids.delta, code: 'DELTA', amount: 100 });

  const summer = (await ok('catalog.collection.create', { handle: 'summer', title: 'Summer' })).collection_id;
  await ok('catalog.collection.add_products', { collection_id: summer, product_ids: [ids.bravo, ids.charlie] });
  for (const p of [ids.alpha, ids.bravo, ids.charlie]) await ok('catalog.product.publish', { product_id: p, store_id: storeA.store_id });

  // A larger seeded catalog in a tenant of its own.
  const other = await t.newTenant();
  seeded = { store_id: other.store_id, tenant_id: other.tenant_id };
  await seedCatalog(t.system.runtimes.get('catalog')!.dataSource, {
    tenant_id: other.tenant_id,
    store_ids: [other.store_id],
    products: 150,
    seed: 7,
    batchSize: 40,
  });
}, 120_000);
afterAll(() => t.stop());

describe('feed projection', () => {
  it('has exactly the feed keys on products, media, SKUs and promotional prices', async () => {
    const res = await products({ projection: 'feed', sort: 'title_asc' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['items', 'limit', 'page', 'total', 'total_exact']);
    const [alpha, bravo] = res.body.items;
    const productKeys = ['brand_id', 'categories', 'description', 'handle', 'media', 'metadata', 'product_id', 'skus', 'status', 'title'];
    expect(keys(alpha)).toEqual(productKeys);
    expect(keys(bravo)).toEqual(productKeys);
    expect(alpha.categories).toEqual([{ category_id: ids['shoes.running.trail'], path: 'shoes.running.trail', is_primary: true }]);
    // Media with a URL, and without one (url absent, not null).
    expect(alpha.media).toEqual([{ kind: 'image', url: 'https://img.example.com/alpha.jpg' }, { kind: 'document' }]);
    const skuKeys = ['amount', 'code', 'compare_at_amount', 'currency', 'ean', 'id', 'media', 'name', 'status'];
    const [red, blue] = alpha.skus;
    expect(keys(red)).toEqual([...skuKeys, 'promotional_price'].sort());
    expect(red.promotional_price).toEqual({ unit_amount: 5000, promotional_amount: 4000 });
    expect(keys(red.promotional_price)).toEqual(['promotional_amount', 'unit_amount']);
    expect(red).toMatchObject({ id: ids.alpha_red, code: 'ALPHA-RED-42', amount: 5000, currency: 'EUR', ean: '4006381333931', compare_at_amount: null });
    expect(red.media).toEqual([{ kind: 'image', url: 'https://img.example.com/alpha-red.jpg' }]);
    expect(keys(blue)).toEqual(skuKeys);
    expect(blue).toMatchObject({ amount: 7000, compare_at_amount: 9000, ean: null, media: [] });
    expect(bravo.media).toEqual([]);
    expect(keys(bravo.skus[0])).toEqual(skuKeys);
    expect(alpha.metadata).toEqual({ origin: 'test' });
    expect(bravo.brand_id).toBeNull();
  });

  it('serves the same products in the same order as full, at a fraction of the size', async () => {
    for (const query of [{}, { sort: 'price_asc' }, { category: 'shoes' }] as Record<string, string>[]) {
      const full = await products(query);
      const feed = await products({ ...query, projection: 'feed' });
      expect(feed.body.items.map((p: any) => p.product_id)).toEqual(full.body.items.map((p: any) => p.product_id));
      expect(feed.body.total).toBe(full.body.total);
    }
    const full = await t.read('/products', { store: seeded.store_id, limit: '100' }, null);
    const feed = await t.read('/products', { store: seeded.store_id, limit: '100', projection: 'feed' }, null);
    expect(feed.body.items.map((p: any) => p.product_id)).toEqual(full.body.items.map((p: any) => p.product_id));
    const ratio = JSON.stringify(full.body).length / JSON.stringify(feed.body).length;
    expect(ratio).toBeGreaterThan(4.5);
  });

  it('full is the whole document: options, custom fields, SKU metadata and option values, media details', async () => {
    const res = await products({ sort: 'title_asc', limit: '1' });
    const [alpha] = res.body.items;
    expect(alpha.options.map((o: any) => [o.name, o.values, o.default_value])).toEqual([
      ['color', ['red', 'blue'], 'red'],
      ['size', ['42', '43'], '42'],
    ]);
    expect(alpha.custom_fields).toEqual({ material: 'mesh', waterproof: true, weight: 250 });
    expect(alpha).toHaveProperty('rich_content', null);
    expect(alpha.categories[0]).toMatchObject({ name: 'trail' });
    expect(alpha.price_min).toBe(5000);
    expect(alpha.price_max).toBe(7000);
    expect(alpha.skus[1]).toMatchObject({
      sku_id: ids.alpha_blue,
      metadata: { bin: 'A1' },
      option_values: [
        { option: 'color', value: 'blue' },
        { option: 'size', value: '43' },
      ],
      is_default: false,
    });
    expect(alpha.skus[0].promotional_price).toEqual({ unit_amount: 5000, promotional_amount: 4000 });
    expect(alpha.skus[1]).not.toHaveProperty('promotional_price');
    expect(alpha.media[1]).toEqual({
      kind: 'document',
      media_id: expect.any(String),
      provider_key: 'docs/alpha-manual.pdf',
      alt: null,
      position: 1,
      role: null,
    });
  });
});

describe('filters, sorts, facets', () => {
  it('lists only the published products of the store, newest first by default', async () => {
    const res = await products();
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Charlie Trail', 'Bravo Bag', 'Alpha Runner']);
    expect(res.body).toMatchObject({ page: 1, limit: 24, total: 3 });
    expect(res.body).not.toHaveProperty('facets');
  });

  it.each([
    [{ category: 'shoes' }, ['Charlie Trail', 'Alpha Runner']],
    [{ category: 'shoes.running.trail' }, ['Alpha Runner']],
    [{ category: 'bags' }, ['Bravo Bag']],
    [{ category: 'nothing.here' }, []],
    [{ collection: 'summer' }, ['Charlie Trail', 'Bravo Bag']],
    [{ collection: 'winter' }, []],
    [{ status: 'draft' }, ['Charlie Trail']],
    [{ status: 'active' }, ['Bravo Bag', 'Alpha Runner']],
    [{ status: 'archived' }, []],
    [{ 'option.color': 'red' }, ['Alpha Runner']],
    [{ 'option.color': 'green' }, ['Charlie Trail']],
    [{ 'option.color': 'blue', 'option.size': '43' }, ['Alpha Runner']],
    // Both options must hold on one SKU: there is no red 43.
    [{ 'option.color': 'red', 'option.size': '43' }, []],
    [{ price_min: '6000' }, ['Bravo Bag', 'Alpha Runner']],
    [{ price_max: '3500' }, ['Charlie Trail']],
    [{ price_min: '4500', price_max: '5500' }, ['Alpha Runner']],
    [{ price_min: '5500', price_max: '6500' }, []],
    [{ 'option.color': 'red', price_min: '6000' }, []],
    [{ 'cf.material': 'mesh' }, ['Alpha Runner']],
    [{ 'cf.waterproof': 'true' }, ['Alpha Runner']],
    [{ 'cf.weight': '250' }, ['Alpha Runner']],
    [{ 'cf.material': 'leather', category: 'bags' }, ['Bravo Bag']],
    [{ 'cf.material': 'wood' }, []],
    [{ category: 'shoes', status: 'active' }, ['Alpha Runner']],
  ])('filter %j', async (query, expected) => {
    const res = await products(query as Record<string, string>);
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('takes several values of one option as any of them', async () => {
    const res = await t.read(`/products?store=${storeA.store_id}&option.color=red&option.color=green`, {}, null);
    expect(titles(res.body)).toEqual(['Charlie Trail', 'Alpha Runner']);
  });

  it('is called by the SDK (and CLI) client with its lists as the server reads them: option.<name>, cf.<name>, comma-separated facets', async () => {
    const client = new BackofficeClient({ baseUrl: t.url });
    const options = [
      { name: 'color', value: 'red' },
      { name: 'color', value: 'green' },
    ];
    const body = (await client.call('read.products', {
      store: storeA.store_id,
      options,
      custom_fields: [{ name: 'material', value: 'mesh' }],
      facets: ['price', 'options'],
    })) as never;
    expect(titles(body)).toEqual(['Alpha Runner']);
    expect(keys((body as { facets: object }).facets)).toEqual(['options', 'price']);
  });

  it.each([
    ['newest', ['Charlie Trail', 'Bravo Bag', 'Alpha Runner']],
    ['price_asc', ['Charlie Trail', 'Alpha Runner', 'Bravo Bag']],
    ['price_desc', ['Bravo Bag', 'Alpha Runner', 'Charlie Trail']],
    ['title_asc', ['Alpha Runner', 'Bravo Bag', 'Charlie Trail']],
  ])('sort %s', async (sort, expected) => {
    expect(titles((await products({ sort })).body)).toEqual(expected);
    expect(titles((await products({ sort, projection: 'feed' })).body)).toEqual(expected);
  });

  it('answers facets with counts over the filtered set when asked', async () => {
    const res = await products({ facets: 'all' });
    expect(res.status).toBe(200);
    const { facets } = res.body;
    expect(keys(facets)).toEqual(['categories', 'custom_fields', 'options', 'price']);
    expect(facets.options).toEqual([
      {
        name: 'color',
        values: [
          { value: 'blue', count: 1 },
          { value: 'green', count: 1 },
          { value: 'red', count: 1 },
        ],
      },
      {
        name: 'size',
        values: [
          { value: '42', count: 1 },
          { value: '43', count: 1 },
        ],
      },
    ]);
    expect(facets.categories).toEqual(
      expect.arrayContaining([
        { category_id: ids.bags, path: 'bags', name: 'bags', count: 1 },
        { category_id: ids['shoes.running.trail'], path: 'shoes.running.trail', name: 'trail', count: 1 },
      ]),
    );
    expect(facets.price.min).toBe(3000);
    expect(facets.price.max).toBe(12000);
    expect(facets.price.buckets.reduce((s: number, b: any) => s + b.count, 0)).toBe(3);
    expect(facets.custom_fields).toEqual(
      expect.arrayContaining([
        {
          name: 'material',
          values: [
            { value: 'leather', count: 1 },
            { value: 'mesh', count: 1 },
          ],
        },
        { name: 'waterproof', values: [{ value: 'true', count: 1 }] },
      ]),
    );
    const some = await products({ facets: 'price,options', category: 'shoes', projection: 'feed' });
    expect(keys(some.body.facets)).toEqual(['options', 'price']);
    expect(some.body.facets.price).toMatchObject({ min: 3000, max: 5000 });
    expect((await products({ facets: 'colors' })).status).toBe(400);
  });
});

describe('facets of a whole store', () => {
  it('come from its listing counts, equal to the facets counted row by row', async () => {
    for (const status of [{}, { status: 'active' }] as Record<string, string>[]) {
      const whole = await products({ facets: 'options,custom_fields', ...status });
      // A price floor every product meets: the same products, their facets counted over the rows.
      const rowByRow = await products({ facets: 'options,custom_fields', price_min: '0', ...status });
      expect(rowByRow.body.total).toBe(whole.body.total);
      expect(whole.body.facets.options.length).toBeGreaterThan(0);
      expect(whole.body.facets.custom_fields.length).toBeGreaterThan(0);
      expect(whole.body.facets).toEqual(rowByRow.body.facets);
    }
  });
});

describe('paging, validation and refusals', () => {
  it('pages with limit and page', async () => {
    const second = await products({ limit: '2', page: '2' });
    expect(second.body).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(titles(second.body)).toEqual(['Alpha Runner']);
    const beyond = await products({ limit: '2', page: '5' });
    expect(beyond.body).toMatchObject({ items: [], page: 5, total: 3 });
    const seededPages = await Promise.all([1, 2].map((page) => t.read('/products', { store: seeded.store_id, limit: '100', page: String(page) }, null)));
    expect(seededPages[0].body.items).toHaveLength(100);
    expect(seededPages[1].body.items).toHaveLength(50);
    expect(seededPages[0].body.total).toBe(150);
    const all = new Set([...seededPages[0].body.items, ...seededPages[1].body.items].map((p: any) => p.product_id));
    expect(all.size).toBe(150);
  });

  it.each([
    [{ limit: '0' }],
    [{ limit: '101' }],
    [{ limit: 'x' }],
    [{ page: '0' }],
    [{ page: '-1' }],
    [{ status: 'deleted' }],
    [{ category: 'shoes..running' }],
    [{ category: 'shoes-running' }],
    [{ sort: 'random' }],
    [{ price_min: '-1' }],
    [{ price_min: '10', price_max: '5' }],
    [{ collection: '' }],
    [{ store: '' }],
  ])('refuses %j with 400 validation_failed', async (query) => {
    const res = await products(query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
  });

  it('refuses a missing store with validation_failed and an unknown one with 404 not_found', async () => {
    const missing = await t.read('/products', {}, null);
    expect(missing.status).toBe(400);
    expect(missing.body.error.kind).toBe('validation_failed');
    const unknown = await products({}, 'no-such-store');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.kind).toBe('not_found');
  });

  it('refuses an undeclared projection with 400 unknown_projection, never serving the default', async () => {
    for (const projection of ['compact', 'FEED', 'minimal']) {
      const res = await products({ projection });
      expect(res.status).toBe(400);
      expect(res.body.error.kind).toBe('unknown_projection');
    }
    expect((await products({ projection: 'full' })).status).toBe(200);
    const gql = await t.graphql(
      `query($input: ReadProductsInput!) { read_products(input: $input) { total } }`,
      { input: { store: storeA.store_id, projection: 'compact' } },
      null,
    );
    expect(gql.body.errors[0].extensions.code).toBe('unknown_projection');
  });

  it('accepts extra string parameters but refuses a filter spelled as it cannot read, and resolves the store by handle or id, without a credential', async () => {
    // The reference accepts extra parameters (a link's utm_source)...
    for (const extra of [{ utm_source: 'newsletter' }, { 'foo.bar': 'baz' }] as Record<string, string>[]) {
      const accepted = await products(extra, storeA.handle);
      expect(accepted.status).toBe(200);
      expect(titles(accepted.body)).toEqual(['Charlie Trail', 'Bravo Bag', 'Alpha Runner']);
    }
    // ...but ignored, `options=color:red` would serve the whole page unfiltered.
    const misspelled: Record<string, string>[] = [
      { options: 'color:red' },
      { custom_fields: 'material:cotton' },
      { option: 'color:red' },
      { cf: 'material:cotton' },
      { 'options[color]': 'red' },
      { 'cf[material]': 'cotton' },
    ];
    for (const extra of misspelled) {
      const refused = await products(extra, storeA.handle);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        kind: 'validation_failed',
        message: expect.stringContaining(`unknown query parameter ${Object.keys(extra)[0]};`),
      });
    }
    const byHandle = await products({}, storeA.handle);
    expect(byHandle.status).toBe(200);
    expect(titles(byHandle.body)).toEqual(['Charlie Trail', 'Bravo Bag', 'Alpha Runner']);
    // A credential, even a bad one, changes nothing on a public read.
    const withBadToken = await t.read('/products', { store: storeA.store_id }, 'bok_nonsense');
    expect(withBadToken.status).toBe(200);
  });

  it('keeps tenants apart: a store serves only its own tenant’s published products', async () => {
    const b = await t.newTenant();
    const p = (await ok('catalog.product.create', { title: 'Bravo Bag', handle: 'bravo-bag', status: 'active' }, b.token)).product_id;
    await ok('catalog.sku.create', { product_id: p, code: 'B-BAG', amount: 100 }, b.token);
    await ok('catalog.category.create', { path: 'bags', name: 'bags' }, b.token);
    await ok('catalog.product.publish', { product_id: p, store_id: b.store_id }, b.token);
    const inB = await products({}, b.store_id);
    expect(inB.body.items.map((x: any) => x.product_id)).toEqual([p]);
    expect(inB.body.total).toBe(1);
    expect((await products({ category: 'bags' }, b.store_id)).body.total).toBe(0);
    const inA = await products();
    expect(inA.body.items.map((x: any) => x.product_id)).not.toContain(p);
    expect(inA.body.total).toBe(3);
    // Publishing another tenant's product to store A is refused by the command.
    expect((await t.command('catalog.product.publish', { product_id: p, store_id: storeA.store_id }, b.token)).status).toBe(409);
  });

  it('follows publication: an unpublished product leaves the listing and the total', async () => {
    await ok('catalog.product.unpublish', { product_id: ids.bravo, store_id: storeA.store_id });
    const after = await products();
    expect(titles(after.body)).toEqual(['Charlie Trail', 'Alpha Runner']);
    expect(after.body.total).toBe(2);
    await ok('catalog.product.publish', { product_id: ids.bravo, store_id: storeA.store_id });
    expect((await products()).body.total).toBe(3);
  });
});

describe('cost and GraphQL', () => {
  it('costs the same number of SQL statements for a page of 1 and a page of 99', async () => {
    const spy = jest.spyOn(Client.prototype, 'query');
    const count = async (query: Record<string, string>) => {
      spy.mockClear();
      const res = await t.read('/products', { store: seeded.store_id, ...query }, null);
      expect(res.status).toBe(200);
      return spy.mock.calls.filter(([q]) => {
        const text = typeof q === 'string' ? q : ((q as { text?: string })?.text ?? '');
        return /catalog\.(publication|product|sku|media|category|option|listing_count|collection|catalog_version)/.test(text);
      }).length;
    };
    try {
      // The page with its documents and, when the counts give it, its total (one statement); a total
      // that must count rows (two filters) in a statement of its own; the facets when asked.
      for (const [extra, statements] of [
        [{}, 1],
        [{ projection: 'feed' }, 1],
        [{ category: 'apparel', 'option.color': 'black', facets: 'all' }, 3],
        [{ sort: 'price_desc', 'cf.eco_certified': 'true' }, 1],
      ] as [Record<string, string>, number][]) {
        await count({ ...extra, limit: '2' }); // warm the store lookup and the catalog version
        // Pages no other test asks for: a page already kept would cost nothing (below).
        const one = await count({ ...extra, limit: '1', page: '3' });
        const hundred = await count({ ...extra, limit: '99' });
        expect(one).toBe(hundred);
        expect(hundred).toBe(statements);
        // Asked again, the page is the one kept for this catalog version: no statement at all.
        expect(await count({ ...extra, limit: '99' })).toBe(0);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('answers the same data over GraphQL, where the field selection picks the shape', async () => {
    const rest = await products({ sort: 'title_asc' });
    const gql = await t.graphql(
      `query($input: ReadProductsInput!) { read_products(input: $input) { page limit total items { product_id title handle status metadata brand_id
        categories { category_id path is_primary } media { kind url } skus { id code amount currency promotional_price { unit_amount promotional_amount } option_values { option value } }
        options { name values default_value } } } }`,
      { input: { store: storeA.handle, sort: 'title_asc' } },
      null,
    );
    expect(gql.status).toBe(200);
    const data = gql.body.data.read_products;
    expect(data.total).toBe(3);
    expect(data.items.map((p: any) => p.product_id)).toEqual(rest.body.items.map((p: any) => p.product_id));
    expect(data.items[0].skus[0]).toEqual({
      id: ids.alpha_red,
      code: 'ALPHA-RED-42',
      amount: 5000,
      currency: 'EUR',
      promotional_price: { unit_amount: 5000, promotional_amount: 4000 },
      option_values: [
        { option: 'color', value: 'red' },
        { option: 'size', value: '42' },
      ],
    });
    expect(data.items[0].skus[1].promotional_price).toBeNull();
    expect(data.items[0].media).toEqual([
      { kind: 'image', url: 'https://img.example.com/alpha.jpg' },
      { kind: 'document', url: null },
    ]);
    const filtered = await t.graphql(
      `query($input: ReadProductsInput!) { read_products(input: $input) { total items { title } facets { options { name values { value count } } } } }`,
      { input: { store: storeA.store_id, options: [{ name: 'color', value: 'red' }], facets: ['options'] } },
      null,
    );
    expect(filtered.body.data.read_products.items).toEqual([{ title: 'Alpha Runner' }]);
    expect(filtered.body.data.read_products.facets.options[0].name).toBe('color');
  });
});
