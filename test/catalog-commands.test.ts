import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const ok = (name: string, input: unknown, token?: string) => t.ok(name, input, token);
const eventsOf = async (type: string) => {
  await t.system.runtimes.get('catalog')!.relay.kick();
  return (await t.read('/internal/events', { type, limit: '100' })).body.items as any[];
};
let seq = 0;
const product = (extra: Record<string, unknown> = {}) => ok('catalog.product.create', { title: 'Trail shoe', handle: `trail-shoe-${++seq}`, ...extra });

describe('catalog.product.create and update', () => {
  it('creates a product with categories (one primary), brand and custom fields, and emits catalog.product.created', async () => {
    const shoes = await ok('catalog.category.create', { path: 'apparel', name: 'Apparel' });
    const running = await ok('catalog.category.create', { path: 'apparel.running', name: 'Running' });
    const brand = await ok('catalog.brand.create', { name: 'Acme' });
    const created = await product({
      status: 'active',
      brand_id: brand.brand_id,
      categories: [{ category_id: shoes.category_id }, { category_id: running.category_id, is_primary: true }],
      custom_fields: { material: 'mesh', waterproof: false },
      metadata: { source: 'test' },
    });
    expect(created.product_id).toMatch(/^prd_/);
    const rows = await t.sql(`SELECT category_id, is_primary FROM catalog.product_category WHERE product_id = $1 ORDER BY is_primary`, [created.product_id]);
    expect(rows).toEqual([
      { category_id: shoes.category_id, is_primary: false },
      { category_id: running.category_id, is_primary: true },
    ]);
    const events = await eventsOf('catalog.product.created');
    // Handed on after commit; no consumer takes catalog events yet.
    expect(events.find((e) => e.payload.product_id === created.product_id)).toMatchObject({ status: 'unrouted' });
  });

  it('refuses a taken handle, a missing parent category, two primaries, and unknown brands or categories', async () => {
    const first = await product();
    const [{ handle }] = await t.sql(`SELECT handle FROM catalog.product WHERE id = $1`, [first.product_id]);
    expect((await t.command('catalog.product.create', { title: 'x', handle })).status).toBe(409);
    expect((await t.command('catalog.category.create', { path: 'nowhere.child', name: 'x' })).status).toBe(409);
    const c1 = await ok('catalog.category.create', { path: 'c1', name: 'c1' });
    const c2 = await ok('catalog.category.create', { path: 'c2', name: 'c2' });
    const two = await t.command('catalog.product.create', {
      title: 'x',
      handle: 'two-primaries',
      categories: [
        { category_id: c1.category_id, is_primary: true },
        { category_id: c2.category_id, is_primary: true },
      ],
    });
    expect(two.status).toBe(400);
    expect((await t.command('catalog.product.create', { title: 'x', handle: 'ghost-brand', brand_id: 'brd_nope' })).status).toBe(409);
    expect((await t.command('catalog.product.create', { title: 'x', handle: 'ghost-cat', categories: [{ category_id: 'cat_nope' }] })).status).toBe(409);
  });

  it.each([
    [{ title: '', handle: 'a' }, 'title'],
    [{ title: 'x', handle: 'Not A Handle' }, 'handle'],
    [{ title: 'x', handle: 'a', status: 'live' }, 'status'],
    [{ title: 'x', handle: 'a', category: 'apparel' }, 'category'],
  ])('validates %j', async (input, field) => {
    const res = await t.command('catalog.product.create', input);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  it('updates partially, moves status (never archived back to draft), and emits catalog.product.updated', async () => {
    const p = await product({ description: 'kept' });
    const res = await ok('catalog.product.update', { product_id: p.product_id, status: 'archived' });
    expect(res).toEqual({ product_id: p.product_id, status: 'archived' });
    const [row] = await t.sql(`SELECT description, status FROM catalog.product WHERE id = $1`, [p.product_id]);
    expect(row).toEqual({ description: 'kept', status: 'archived' });
    expect((await t.command('catalog.product.update', { product_id: p.product_id, status: 'draft' })).status).toBe(409);
    expect((await t.command('catalog.product.update', { product_id: p.product_id, status: 'active' })).status).toBe(200);
    const events = await eventsOf('catalog.product.updated');
    expect(
      events
        .filter((e) => e.payload.product_id === p.product_id)
        .map((e) => e.payload.status)
        .sort(),
    ).toEqual(['active', 'archived']);
  });
});

describe('SKUs and options', () => {
  it('adds SKUs, keeps the price range and the default SKU, and emits catalog.sku.created', async () => {
    const p = await product();
    const a = await ok('catalog.sku.create', { product_id: p.product_id, amount: 1990, currency: 'EUR', ean: '4006381333931', code: `A-${seq}` });
    const b = await ok('catalog.sku.create', { product_id: p.product_id, amount: 990, compare_at_amount: 1290, is_default: true });
    const skus = await t.sql(`SELECT id, is_default, currency, amount::int FROM catalog.sku WHERE product_id = $1 ORDER BY position`, [p.product_id]);
    expect(skus).toEqual([
      { id: a.sku_id, is_default: false, currency: 'EUR', amount: 1990 },
      { id: b.sku_id, is_default: true, currency: 'EUR', amount: 990 },
    ]);
    const [range] = await t.sql(`SELECT price_min::int, price_max::int FROM catalog.product WHERE id = $1`, [p.product_id]);
    expect(range).toEqual({ price_min: 990, price_max: 1990 });
    const events = await eventsOf('catalog.sku.created');
    expect(events.filter((e) => e.payload.product_id === p.product_id)).toHaveLength(2);
  });

  it.each([
    [{ amount: -1 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{ amount: 9007199254740992 }, 'amount'],
    [{ amount: 1, currency: 'EURO' }, 'currency'],
    [{ amount: 1, currency: 'EU' }, 'currency'],
    [{ amount: 1, compare_at_amount: -5 }, 'compare_at_amount'],
    [{ amount: 1, code: '' }, 'code'],
    [{ amount: 1, option_values: [{ option: 'size' }] }, 'value'],
    [{ amount: 1, metadata: [] }, 'metadata'],
    [{ amount: 1, currency: 'ßab' }, 'currency'],
    [{ amount: 1, code: 'x'.repeat(201) }, 'code'],
    [{}, 'amount'],
  ])('validates %j', async (input, field) => {
    const res = await t.command('catalog.sku.create', { product_id: 'prd_any', ...input });
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
    expect(res.body.error.message).toContain(field);
  });

  it('gives every existing SKU the default value of a new option, and checks option values of new SKUs', async () => {
    const p = await product();
    const first = await ok('catalog.sku.create', { product_id: p.product_id, amount: 100 });
    const second = await ok('catalog.sku.create', { product_id: p.product_id, amount: 200 });
    await ok('catalog.option.create', { product_id: p.product_id, name: 'color', values: ['red', 'blue'], default_value: 'red' });
    const values = await t.sql(`SELECT id, option_values FROM catalog.sku WHERE product_id = $1 ORDER BY position`, [p.product_id]);
    expect(values).toEqual([
      { id: first.sku_id, option_values: { color: 'red' } },
      { id: second.sku_id, option_values: { color: 'red' } },
    ]);
    const blue = await ok('catalog.sku.create', { product_id: p.product_id, amount: 300, option_values: [{ option: 'color', value: 'blue' }] });
    const [row] = await t.sql(`SELECT option_values FROM catalog.sku WHERE id = $1`, [blue.sku_id]);
    expect(row.option_values).toEqual({ color: 'blue' });
    expect((await t.command('catalog.sku.create', { product_id: p.product_id, amount: 1, option_values: [{ option: 'color', value: 'green' }] })).status).toBe(
      409,
    );
    expect((await t.command('catalog.sku.create', { product_id: p.product_id, amount: 1, option_values: [{ option: 'size', value: 'm' }] })).status).toBe(409);
    expect((await t.command('catalog.option.create', { product_id: p.product_id, name: 'color', values: ['x'], default_value: 'x' })).status).toBe(409);
    expect((await t.command('catalog.option.create', { product_id: p.product_id, name: 'size', values: ['s'], default_value: 'm' })).status).toBe(400);
    expect((await t.command('catalog.option.create', { product_id: p.product_id, name: 'size', values: [], default_value: 's' })).status).toBe(400);
  });

  it('sets and clears a promotion below the unit amount', async () => {
    const p = await product();
    const sku = await ok('catalog.sku.create', { product_id: p.product_id, amount: 1000 });
    expect(await ok('catalog.sku.set_promotion', { sku_id: sku.sku_id, promotional_amount: 800 })).toEqual({ sku_id: sku.sku_id, promotional_amount: 800 });
    expect((await t.command('catalog.sku.set_promotion', { sku_id: sku.sku_id, promotional_amount: 1000 })).status).toBe(409);
    expect(await ok('catalog.sku.set_promotion', { sku_id: sku.sku_id, promotional_amount: null })).toEqual({ sku_id: sku.sku_id, promotional_amount: null });
  });
});

describe('media', () => {
  it('attaches to a product and to a SKU, with the event of its owner', async () => {
    const p = await product();
    const sku = await ok('catalog.sku.create', { product_id: p.product_id, amount: 1 });
    const onProduct = await ok('catalog.media.attach', {
      owner_type: 'product',
      owner_id: p.product_id,
      provider_key: 'https://cdn.example/p.jpg',
      alt: 'front',
    });
    expect(onProduct).toMatchObject({ owner_type: 'product', kind: 'image', position: 0 });
    const second = await ok('catalog.media.attach', { owner_type: 'product', owner_id: p.product_id, provider_key: 'asset:manual', kind: 'document' });
    expect(second.position).toBe(1);
    const again = await ok('catalog.media.attach', {
      owner_type: 'product',
      owner_id: p.product_id,
      provider_key: 'asset:manual',
      kind: 'document',
      role: 'manual',
    });
    expect(again.media_id).toBe(second.media_id);
    const onSku = await ok('catalog.media.attach', { owner_type: 'sku', owner_id: sku.sku_id, provider_key: 'https://cdn.example/s.jpg', position: 5 });
    expect(onSku).toMatchObject({ owner_type: 'sku', product_id: p.product_id, position: 5 });
    const rows = await t.sql(`SELECT owner_type, url, kind, role FROM catalog.media WHERE product_id = $1 ORDER BY owner_type, position`, [p.product_id]);
    expect(rows).toEqual([
      { owner_type: 'product', url: 'https://cdn.example/p.jpg', kind: 'image', role: null },
      { owner_type: 'product', url: null, kind: 'document', role: 'manual' },
      { owner_type: 'sku', url: 'https://cdn.example/s.jpg', kind: 'image', role: null },
    ]);
    const productEvents = (await eventsOf('catalog.product.updated')).filter((e) => e.payload.product_id === p.product_id);
    const skuEvents = (await eventsOf('catalog.sku.updated')).filter((e) => e.payload.sku_id === sku.sku_id);
    expect(productEvents).toHaveLength(3);
    expect(skuEvents).toHaveLength(1);
    expect((await t.command('catalog.media.attach', { owner_type: 'sku', owner_id: 'sku_nope', provider_key: 'k' })).status).toBe(409);
    expect((await t.command('catalog.media.attach', { owner_type: 'brand', owner_id: 'x', provider_key: 'k' })).status).toBe(400);
    expect((await t.command('catalog.media.attach', { owner_type: 'product', owner_id: p.product_id, provider_key: 'k', kind: 'gif' })).status).toBe(400);
    expect(
      (await t.command('catalog.media.attach', { owner_type: 'product', owner_id: p.product_id, provider_key: 'k', position: 3_000_000_000 })).status,
    ).toBe(400);
    expect((await t.command('catalog.media.attach', { owner_type: 'product', owner_id: p.product_id, provider_key: 'k'.repeat(2001) })).status).toBe(400);
  });
});

describe('publication, collections and tenants', () => {
  it('publishes to an own store by id or handle, idempotently, and keeps the listing counts', async () => {
    const p = await product({ status: 'active' });
    const [{ handle }] = await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [t.tenant.store_id]);
    expect(await ok('catalog.product.publish', { product_id: p.product_id, store_id: handle })).toEqual({
      product_id: p.product_id,
      store_id: t.tenant.store_id,
      published: true,
    });
    await ok('catalog.product.publish', { product_id: p.product_id, store_id: t.tenant.store_id });
    const count = async (status: string) =>
      (await t.sql(`SELECT published FROM catalog.listing_count WHERE store_id = $1 AND status = $2 AND term = ''`, [t.tenant.store_id, status]))[0]
        ?.published ?? 0;
    expect(await count('active')).toBe(1);
    await ok('catalog.product.update', { product_id: p.product_id, status: 'archived', title: 'Renamed' });
    expect(await count('active')).toBe(0);
    expect(await count('archived')).toBe(1);
    const [listing] = await t.sql(`SELECT status, title FROM catalog.publication WHERE product_id = $1`, [p.product_id]);
    expect(listing).toEqual({ status: 'archived', title: 'Renamed' });
    expect((await ok('catalog.product.unpublish', { product_id: p.product_id, store_id: t.tenant.store_id })).published).toBe(false);
    expect(await count('archived')).toBe(0);
    const published = await eventsOf('catalog.product.published');
    expect(published.filter((e) => e.payload.product_id === p.product_id)).toHaveLength(1);
  });

  it('keeps tenants apart: another tenant’s product, SKU and store are conflicts', async () => {
    const other = await t.newTenant();
    const theirs = await ok('catalog.product.create', { title: 'Theirs', handle: 'theirs' }, other.token);
    const theirSku = await ok('catalog.sku.create', { product_id: theirs.product_id, amount: 5 }, other.token);
    const mine = await product();
    for (const [name, input] of [
      ['catalog.sku.create', { product_id: theirs.product_id, amount: 1 }],
      ['catalog.option.create', { product_id: theirs.product_id, name: 'x', values: ['a'], default_value: 'a' }],
      ['catalog.media.attach', { owner_type: 'sku', owner_id: theirSku.sku_id, provider_key: 'k' }],
      ['catalog.product.update', { product_id: theirs.product_id, title: 'mine now' }],
      ['catalog.product.publish', { product_id: mine.product_id, store_id: other.store_id }],
      ['catalog.product.publish', { product_id: theirs.product_id, store_id: t.tenant.store_id }],
    ] as const) {
      const res = await t.command(name, input);
      expect([name, res.status, res.body.error?.kind]).toEqual([name, 409, 'conflict']);
    }
    // Handles are per tenant.
    expect((await t.command('catalog.product.create', { title: 'Mine', handle: 'theirs' })).status).toBe(200);
  });

  it('creates collections and adds members once', async () => {
    const col = await ok('catalog.collection.create', { handle: 'summer', title: 'Summer' });
    const a = await product();
    const b = await product();
    expect(await ok('catalog.collection.add_products', { collection_id: col.collection_id, product_ids: [a.product_id, b.product_id] })).toEqual({
      collection_id: col.collection_id,
      added: 2,
    });
    expect((await ok('catalog.collection.add_products', { collection_id: col.collection_id, product_ids: [a.product_id] })).added).toBe(0);
    expect((await t.command('catalog.collection.add_products', { collection_id: col.collection_id, product_ids: ['prd_nope'] })).status).toBe(409);
    expect((await t.command('catalog.collection.create', { handle: 'summer', title: 'Again' })).status).toBe(409);
  });

  it('needs the catalog scopes', async () => {
    const weak = await ok('iam.api_key.create', { name: 'catalog-reader', scopes: ['catalog.admin.read'] });
    const res = await t.command('catalog.product.create', { title: 'x', handle: 'x' }, weak.token);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('catalog.product.write');
    const sku = await t.command('catalog.sku.create', { product_id: 'p', amount: 1 }, weak.token);
    expect(sku.body.error.message).toContain('catalog.sku.write');
  });
});

describe('races and limits', () => {
  it('answers conflict, never internal, when two updates race for one handle', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = [await product(), await product()];
      const handle = `raced-${round}`;
      const results = await Promise.all([a, b].map((p) => t.command('catalog.product.update', { product_id: p.product_id, handle })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    }
  });

  it('refuses category labels PostgreSQL cannot hold, on the command and on the public read', async () => {
    const label = 'a'.repeat(256);
    expect((await t.command('catalog.category.create', { path: label, name: 'long' })).status).toBe(400);
    expect((await t.read('/products', { store: t.tenant.store_id, category: label }, null)).status).toBe(400);
  });
});

describe('events', () => {
  it('every catalog command recorded its event, with the actor and request', async () => {
    await t.system.runtimes.get('catalog')!.relay.kick();
    const rows = await t.sql(`SELECT DISTINCT type FROM catalog.outbox_event WHERE actor_id = $1 AND request_id IS NOT NULL AND status = 'unrouted'`, [
      t.tenant.api_key_id,
    ]);
    expect(rows.map((r) => r.type).sort()).toEqual([
      'catalog.brand.created',
      'catalog.category.created',
      'catalog.collection.created',
      'catalog.collection.updated',
      'catalog.product.created',
      'catalog.product.published',
      'catalog.product.unpublished',
      'catalog.product.updated',
      'catalog.sku.created',
      'catalog.sku.updated',
    ]);
  });
});
