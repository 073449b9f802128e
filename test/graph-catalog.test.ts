import { signContext } from '@backoffice/platform';
import { execute, parse } from 'graphql';
import { startTestSystem, statementsDuring, type TestSystem } from './helpers';

/**
 * The catalog's graph through the gateway: products with their SKUs (and back), categories as a
 * tree, brands, collections and the stores a product is published to; the entity a command
 * changed on its result; the admin connections; batching (statements counted per request) and
 * tenant isolation.
 */
let t: TestSystem;
const ok = (name: string, input: unknown, token?: string) => t.ok(name, input, token);
const ids: Record<string, string> = {};
const products: string[] = [];

const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
  const res = await t.graphql(query, variables, token);
  expect(res.status).toBe(200);
  return res.body as { data: any; errors?: { message: string; path?: string[]; extensions: { code: string } }[] };
};

/** A product page: every link the admin's product screen shows, in one request. */
const PRODUCT_FIELDS = `product_id title
  skus { sku_id code weight_grams length_cm width_cm height_cm product { product_id } }
  categories { category_id is_primary category { path parent { path } children { path } } }
  brand { brand_id name }
  collections { handle product_count }
  stores { store_id published_at store { store_id handle } }`;

beforeAll(async () => {
  t = await startTestSystem();
  ids.brand = (await ok('catalog.brand.create', { name: 'Acme' })).brand_id;
  for (const path of ['apparel', 'apparel.shoes', 'apparel.shoes.running', 'apparel.shirts', 'home']) {
    ids[path] = (await ok('catalog.category.create', { path, name: path.split('.').at(-1) })).category_id;
  }
  ids.collection = (await ok('catalog.collection.create', { handle: 'summer', title: 'Summer' })).collection_id;
  for (let n = 1; n <= 6; n++) {
    const { product_id } = await ok('catalog.product.create', {
      title: `Shoe ${n}`,
      handle: `shoe-${n}`,
      status: 'active',
      brand_id: ids.brand,
      categories: [{ category_id: ids['apparel.shoes'] }, { category_id: ids.home }],
    });
    products.push(product_id);
    for (const size of ['S', 'M']) {
      await ok('catalog.sku.create', {
        product_id,
        code: `SHOE-${n}-${size}`,
        amount: 1000 * n,
        weight_grams: 800 + n,
        length_cm: 30,
        width_cm: 20,
        height_cm: 12,
      });
    }
    await ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
  }
  await ok('catalog.collection.add_products', { collection_id: ids.collection, product_ids: products });
});
afterAll(() => t.stop());

/** Runs a request and counts the SELECTs it sent the catalog's tables. */
async function counted(query: string, variables: Record<string, unknown> = {}) {
  // The relay's polling and the audit's flush touch catalog's own platform tables, not the catalog.
  const catalog = /^\s*(SELECT|WITH)[\s\S]*catalog\.(product|sku|category|brand|collection|publication)\b/i;
  const { result: body, statements: texts, prepared } = await statementsDuring(catalog, () => gql(query, variables));
  return { body, texts, prepared };
}

describe('a product page in one request', () => {
  it('shows the product with its SKUs and their shipping attributes, categories as a tree, brand, collections and stores', async () => {
    const { data, errors } = await gql(`query($id: ID!) { catalog_product(input: { product_id: $id }) { ${PRODUCT_FIELDS} } }`, { id: products[0] });
    expect(errors).toBeUndefined();
    const product = data.catalog_product;
    expect(product.skus).toEqual([
      { sku_id: expect.any(String), code: 'SHOE-1-S', weight_grams: 801, length_cm: 30, width_cm: 20, height_cm: 12, product: { product_id: products[0] } },
      { sku_id: expect.any(String), code: 'SHOE-1-M', weight_grams: 801, length_cm: 30, width_cm: 20, height_cm: 12, product: { product_id: products[0] } },
    ]);
    expect(product.categories).toEqual([
      {
        category_id: ids['apparel.shoes'],
        is_primary: true,
        category: { path: 'apparel.shoes', parent: { path: 'apparel' }, children: [{ path: 'apparel.shoes.running' }] },
      },
      { category_id: ids.home, is_primary: false, category: { path: 'home', parent: null, children: [] } },
    ]);
    expect(product.brand).toEqual({ brand_id: ids.brand, name: 'Acme' });
    expect(product.collections).toEqual([{ handle: 'summer', product_count: 6 }]);
    expect(product.stores).toEqual([
      {
        store_id: t.tenant.store_id,
        published_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        store: { store_id: t.tenant.store_id, handle: expect.any(String) },
      },
    ]);
  });

  it('costs the same statements for a page of 2 products as for a page of 6: one per kind of link, not one per row', async () => {
    const query = `query($first: SafeInt) { products(first: $first) { edges { node { ${PRODUCT_FIELDS} } } } }`;
    const two = await counted(query, { first: 2 });
    const six = await counted(query, { first: 6 });
    expect(two.body.errors).toBeUndefined();
    expect(six.body.errors).toBeUndefined();
    expect(six.body.data.products.edges).toHaveLength(6);
    expect(six.body.data.products.edges.every((e: any) => e.node.brand.name === 'Acme' && e.node.skus.length === 2 && e.node.stores.length === 1)).toBe(true);
    // Each link's loader ran once for the six products (a loader per row would run six times: checked by breaking one).
    for (const loader of [
      /JOIN catalog\.collection col ON col\.id = cp\.collection_id/,
      /FROM catalog\.publication pub WHERE/,
      /FROM catalog\.sku s WHERE s\.id = ANY/,
      /JOIN catalog\.category c ON c\.tenant_id = child/,
    ]) {
      expect([String(loader), six.texts.filter((text) => loader.test(text)).length]).toEqual([String(loader), 1]);
    }
    // The connection's page and count, then one each: SKU facts, categories, their parents and children, brands, collections, publications, products (Sku.product).
    expect(six.texts.length).toBe(10);
    expect(two.texts.length).toBe(10);
  });
});

describe('Sku.product', () => {
  it('reaches the product from a SKU, and from an order item through the orders subgraph', async () => {
    const { sku_id } = await ok('catalog.sku.create', { product_id: products[1], code: 'SOLD-1', amount: 2500, currency: 'EUR' });
    await ok('inventory.adjust', { sku_id, on_hand: 5 });
    const { order_id } = await ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 1 }] });
    const { data, errors } = await gql(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { items { sku_id sku { code product { product_id title } } } } }`,
      { id: order_id },
    );
    expect(errors).toBeUndefined();
    expect(data.read_internal_order.items).toEqual([{ sku_id, sku: { code: 'SOLD-1', product: { product_id: products[1], title: 'Shoe 2' } } }]);
  });

  it('reads only the heads of SKUs and products whose lists are not selected, and the whole documents when they are', async () => {
    // A product of its own: the connections below count the seeded products' SKUs.
    const { product_id } = await ok('catalog.product.create', { title: 'Clog', handle: 'clog', status: 'active' });
    await ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
    const { sku_id } = await ok('catalog.sku.create', { product_id, code: 'SOLD-2', amount: 2500, currency: 'EUR' });
    await ok('inventory.adjust', { sku_id, on_hand: 5 });
    const { order_id } = await ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 1 }] });
    const items = (selection: string) =>
      counted(`query($id: ID!) { read_internal_order(input: { order_id: $id }) { items { sku { ${selection} } } } }`, { id: order_id });
    // A list is a subquery per row (media, option values; categories, SKUs): an order list's titles need none.
    const lists = /FROM catalog\.media m|jsonb_each_text|FROM catalog\.product_category|FROM catalog\.sku s WHERE s\.product_id = p\.id/;
    const heads = await items('code amount promotional_price { promotional_amount } product { title handle price_min }');
    expect(heads.body.data.read_internal_order.items).toEqual([
      {
        sku: { code: 'SOLD-2', amount: 2500, promotional_price: null, product: { title: 'Clog', handle: 'clog', price_min: 2500 } },
      },
    ]);
    // One statement, kept prepared: the SKU heads bring their products' cards along, each narrowed to
    // what is asked (no description nor rich content; no EAN, metadata nor brand either).
    expect(heads.texts).toHaveLength(1);
    expect(heads.prepared).toEqual(heads.texts);
    expect(heads.texts.filter((text) => lists.test(text))).toEqual([]);
    expect(heads.texts[0]).not.toMatch(/p\.description|p\.rich_content|s\.ean|s\.metadata|p\.brand_id/);
    expect(heads.texts[0]).toMatch(/'promotional_amount', s\.promotional_amount.*'price_min', p\.price_min/s);
    // A field beyond the card: the product's head comes along instead, still in the one statement.
    const described = await items('code product { title description }');
    expect(described.body.data.read_internal_order.items).toEqual([{ sku: { code: 'SOLD-2', product: { title: 'Clog', description: null } } }]);
    expect(described.texts).toHaveLength(1);
    expect(described.texts[0]).toMatch(/p\.description/);
    const whole = await items('code media { kind } product { title skus { code } }');
    expect(whole.body.data.read_internal_order.items[0].sku).toEqual({
      code: 'SOLD-2',
      media: [],
      product: { title: 'Clog', skus: [{ code: 'SOLD-2' }] },
    });
    expect(whole.texts).toHaveLength(2);
    expect(whole.texts.every((text) => lists.test(text))).toBe(true);
  });

  it('resolves another tenant’s SKU by reference as null, and the entity links only with the admin read scope', async () => {
    const other = await t.newTenant();
    const foreign = await ok('catalog.product.create', { title: 'Foreign', handle: 'foreign' }, other.token);
    const foreignSku = (await ok('catalog.sku.create', { product_id: foreign.product_id, amount: 1 }, other.token)).sku_id;
    const own = (await gql('{ skus(first: 1, filter: { q: "SHOE-1-S" }) { edges { node { sku_id } } } }')).data.skus.edges[0].node.sku_id;
    const who = (await t.read('/internal/whoami')).body;
    const actor = {
      tenant_id: who.tenant_id,
      api_key_id: who.actor_id,
      credential_id: who.credential_id,
      name: 'owner',
      scopes: ['catalog.admin.read'],
      is_owner: true,
    };
    const runtime = t.system.runtimes.get('catalog')!;
    const entities = (scopes: string[]) =>
      execute({
        schema: runtime.schema,
        document: parse(
          'query($r: [_Any!]!) { _entities(representations: $r) { ... on Sku { sku_id product { title } weight_grams } ... on Category { path } } }',
        ),
        variableValues: {
          r: [
            { __typename: 'Sku', sku_id: foreignSku },
            { __typename: 'Sku', sku_id: own },
            { __typename: 'Category', category_id: ids.home },
          ],
        },
        contextValue: runtime.contextFor(signContext(t.contextSecret, { actor: { ...actor, scopes }, request_id: 'req_graph_catalog' })),
      });
    const scoped = await entities(['catalog.admin.read']);
    expect(scoped.errors).toBeUndefined();
    expect(scoped.data!._entities).toEqual([null, { sku_id: own, product: { title: 'Shoe 1' }, weight_grams: 801 }, { path: 'home' }]);
    const unscoped = await entities(['order.read']);
    expect(unscoped.data!._entities).toEqual([null, null, null]);
    expect(unscoped.errors?.[0].extensions?.code).toBe('forbidden');
    // Through the gateway, the other tenant sees none of this tenant's SKUs.
    const theirs = await gql('{ skus(first: 100) { edges { node { sku_id } } totalCount } }', {}, other.token);
    expect(theirs.data.skus).toEqual({ edges: [{ node: { sku_id: foreignSku } }], totalCount: 1 });
  });
});

describe('a command’s result names the entity it changed', () => {
  it('answers the product, SKU, category, brand and collection as they are after the command', async () => {
    const created = await gql(
      `mutation { catalog_product_create(input: { title: "Boot", handle: "boot", brand_id: "${ids.brand}" }) { product_id product { title status brand { name } } } }`,
    );
    expect(created.errors).toBeUndefined();
    const productId = created.data.catalog_product_create.product_id;
    expect(created.data.catalog_product_create.product).toEqual({ title: 'Boot', status: 'draft', brand: { name: 'Acme' } });

    // Two changes in one request: each result shows its own change, not what the request loaded before it.
    const sku = await gql(`mutation {
      a: catalog_sku_create(input: { product_id: "${productId}", code: "BOOT-1", amount: 5000, weight_grams: 1200 }) { sku_id sku { code amount weight_grams product { title } } }
    }`);
    expect(sku.errors).toBeUndefined();
    const skuId = sku.data.a.sku_id;
    expect(sku.data.a.sku).toEqual({ code: 'BOOT-1', amount: 5000, weight_grams: 1200, product: { title: 'Boot' } });
    const twice = await gql(
      `mutation($active: CatalogProductUpdateInput!) {
      a: catalog_sku_update(input: { sku_id: "${skuId}", amount: 5500, height_cm: 40 }) { amount sku { amount height_cm } }
      b: catalog_sku_update(input: { sku_id: "${skuId}", amount: 6000 }) { amount sku { amount height_cm } product { price_min } }
      c: catalog_sku_set_promotion(input: { sku_id: "${skuId}", promotional_amount: 4000 }) { sku { promotional_price { unit_amount promotional_amount } } }
      d: catalog_product_update(input: $active) { status product { status price_min } }
      e: catalog_product_publish(input: { product_id: "${productId}", store_id: "${t.tenant.store_id}" }) { published product { stores { store_id } } }
    }`,
      // Enum values as variables: the same JSON whether the schema spells them as strings or as enums.
      { active: { product_id: productId, status: 'active' } },
    );
    expect(twice.errors).toBeUndefined();
    expect(twice.data).toEqual({
      a: { amount: 5500, sku: { amount: 5500, height_cm: 40 } },
      b: { amount: 6000, sku: { amount: 6000, height_cm: 40 }, product: { price_min: 6000 } },
      c: { sku: { promotional_price: { unit_amount: 6000, promotional_amount: 4000 } } },
      d: { status: 'active', product: { status: 'active', price_min: 6000 } },
      e: { published: true, product: { stores: [{ store_id: t.tenant.store_id }] } },
    });

    const groupings = await gql(`mutation {
      category: catalog_category_create(input: { path: "apparel.shoes.trail", name: "Trail" }) { category_id category { path name parent { path } } }
      brand: catalog_brand_create(input: { name: "Bolt" }) { brand { name } }
      collection: catalog_collection_create(input: { handle: "boots", title: "Boots" }) { collection_id collection { handle product_count } }
    }`);
    expect(groupings.errors).toBeUndefined();
    expect(groupings.data.category.category).toEqual({ path: 'apparel.shoes.trail', name: 'Trail', parent: { path: 'apparel.shoes' } });
    expect(groupings.data.brand.brand).toEqual({ name: 'Bolt' });
    expect(groupings.data.collection.collection).toEqual({ handle: 'boots', product_count: 0 });
    const added = await gql(
      `mutation($c: ID!, $p: [ID!]!) { catalog_collection_add_products(input: { collection_id: $c, product_ids: $p }) { added collection { product_count products { title } } } }`,
      { c: groupings.data.collection.collection_id, p: [productId, products[0]] },
    );
    expect(added.data.catalog_collection_add_products).toEqual({
      added: 2,
      collection: { product_count: 2, products: [{ title: 'Boot' }, { title: 'Shoe 1' }] },
    });
  });

  it('keeps REST’s results as they were: the entity fields are GraphQL’s alone', async () => {
    const res = await t.command('catalog.brand.create', { name: 'Rest brand' });
    expect(Object.keys(res.body)).toEqual(['brand_id']);
  });

  it('refuses the entity field, not the command, to a key without the admin read scope', async () => {
    const key = (await ok('iam.api_key.create', { name: 'writer', scopes: ['catalog.product.write'] })).token as string;
    const res = await gql('mutation { catalog_brand_create(input: { name: "Writer brand" }) { brand_id brand { name } } }', {}, key);
    expect(res.data.catalog_brand_create).toEqual({ brand_id: expect.any(String), brand: null });
    expect(res.errors?.[0]).toMatchObject({ path: ['catalog_brand_create', 'brand'], extensions: { code: 'forbidden' } });
    expect(res.errors?.[0].message).toMatch(/catalog\.admin\.read/);
  });
});

describe('admin connections of the catalog', () => {
  it('lists SKUs with filters and keyset paging', async () => {
    const first = await gql(
      `query($o: SkuOrder) { skus(first: 2, filter: { product_id: "${products[2]}" }, orderBy: $o) {
        edges { node { code product { title } } } pageInfo { hasNextPage endCursor } totalCount } }`,
      { o: { field: 'code', direction: 'ASC' } },
    );
    expect(first.errors).toBeUndefined();
    expect(first.data.skus.edges.map((e: any) => e.node)).toEqual([
      { code: 'SHOE-3-M', product: { title: 'Shoe 3' } },
      { code: 'SHOE-3-S', product: { title: 'Shoe 3' } },
    ]);
    expect(first.data.skus.totalCount).toBe(2);
    expect(first.data.skus.pageInfo.hasNextPage).toBe(false);
    const byCode = await gql('query($o: SkuOrder) { skus(first: 3, filter: { q: "shoe-4" }, orderBy: $o) { edges { node { code amount } } } }', {
      o: { field: 'amount', direction: 'DESC' },
    });
    expect(byCode.data.skus.edges.map((e: any) => e.node.code).sort()).toEqual(['SHOE-4-M', 'SHOE-4-S']);
  });

  it('lists categories by path, a parent’s children, and the roots', async () => {
    const all = await gql('{ categories(first: 3) { edges { node { path } } pageInfo { hasNextPage endCursor } totalCount } }');
    expect(all.data.categories.edges.map((e: any) => e.node.path)).toEqual(['apparel', 'apparel.shirts', 'apparel.shoes']);
    expect(all.data.categories.pageInfo.hasNextPage).toBe(true);
    const next = await gql('query($a: String) { categories(first: 2, after: $a) { edges { node { path } } } }', { a: all.data.categories.pageInfo.endCursor });
    expect(next.data.categories.edges.map((e: any) => e.node.path)).toEqual(['apparel.shoes.running', 'apparel.shoes.trail']);
    const children = await gql(`{ categories(filter: { parent_id: "${ids['apparel.shoes']}" }) { edges { node { path } } totalCount } }`);
    expect(children.data.categories.edges.map((e: any) => e.node.path)).toEqual(['apparel.shoes.running', 'apparel.shoes.trail']);
    const roots = await gql('query($o: CategoryOrder) { categories(filter: { root: true }, orderBy: $o) { edges { node { name children { name } } } } }', {
      o: { field: 'name', direction: 'DESC' },
    });
    expect(roots.data.categories.edges.map((e: any) => e.node)).toEqual([
      { name: 'home', children: [] },
      { name: 'apparel', children: [{ name: 'shirts' }, { name: 'shoes' }] },
    ]);
  });

  it('lists brands and collections, with their filters', async () => {
    const brands = await gql('{ brands { edges { node { name } } totalCount } }');
    expect(brands.data.brands.edges.map((e: any) => e.node.name)).toEqual(['Acme', 'Bolt', 'Rest brand', 'Writer brand']);
    const acme = await gql('{ brands(filter: { q: "acm" }) { edges { node { brand_id } } } }');
    expect(acme.data.brands.edges).toEqual([{ node: { brand_id: ids.brand } }]);
    const collections = await gql(
      'query($o: CollectionOrder) { collections(orderBy: $o) { edges { node { handle product_count products { product_id } } } } }',
      {
        o: { field: 'handle', direction: 'ASC' },
      },
    );
    expect(collections.data.collections.edges.map((e: any) => [e.node.handle, e.node.product_count, e.node.products.length])).toEqual([
      ['boots', 2, 2],
      ['summer', 6, 6],
    ]);
    const summer = await gql('{ collections(filter: { q: "sum" }) { edges { node { title } } totalCount } }');
    expect(summer.data.collections).toEqual({ edges: [{ node: { title: 'Summer' } }], totalCount: 1 });
  });

  it('filters products by brand, collection and category subtree', async () => {
    const titles = async (filter: Record<string, string>) =>
      (await gql('query($f: ProductFilter) { products(first: 100, filter: $f, orderBy: null) { edges { node { title } } totalCount } }', { f: filter })).data
        .products;
    expect((await titles({ brand_id: ids.brand })).totalCount).toBe(7);
    expect((await titles({ collection_id: ids.collection })).totalCount).toBe(6);
    // Shoes are in apparel.shoes: found from apparel (its subtree) but not from apparel.shirts.
    expect((await titles({ category_id: ids.apparel })).totalCount).toBe(6);
    expect(await titles({ category_id: ids['apparel.shirts'] })).toEqual({ edges: [], totalCount: 0 });
    const other = await t.newTenant();
    const foreign = await gql('query($f: ProductFilter) { products(filter: $f) { totalCount } }', { f: { brand_id: ids.brand } }, other.token);
    expect(foreign.data.products.totalCount).toBe(0);
  });

  it('needs the admin read scope', async () => {
    const key = (await ok('iam.api_key.create', { name: 'orders only', scopes: ['order.read'] })).token as string;
    const refused = await gql('{ skus(first: 1) { totalCount } categories { totalCount } }', {}, key);
    expect(refused.errors?.map((e) => e.extensions.code)).toEqual(['forbidden', 'forbidden']);
  });
});
