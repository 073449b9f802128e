import { signContext } from '@backoffice/platform';
import { execute, parse } from 'graphql';
import { startTestSystem, statementsDuring, type TestSystem } from './helpers';

let t: TestSystem;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestSystem();
  const ok = async (name: string, input: unknown, token?: string) => {
    const res = await t.command(name, input, token);
    if (res.status !== 200) throw new Error(`${name}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  for (const [key, status] of [
    ['draft', 'draft'],
    ['active', 'active'],
    ['archived', 'active'],
  ] as const) {
    ids[key] = (await ok('catalog.product.create', { title: `Jacket ${key}`, handle: `jacket-${key}`, status })).product_id;
  }
  await ok('catalog.product.update', { product_id: ids.archived, status: 'archived' });
  await ok('catalog.option.create', { product_id: ids.active, name: 'size', values: ['s', 'm'], default_value: 'm' });
  ids.sku = (await ok('catalog.sku.create', { product_id: ids.active, amount: 4990, currency: 'EUR', code: 'JKT-M' })).sku_id;
  await ok('catalog.media.attach', { owner_type: 'product', owner_id: ids.active, provider_key: 'https://cdn.example/jacket.jpg' });
  const other = await t.newTenant();
  ids.foreign = (await ok('catalog.product.create', { title: 'Foreign', handle: 'foreign' }, other.token)).product_id;
});
afterAll(() => t.stop());

describe('admin reads', () => {
  it('lists products of every status, newest first, with SKUs, options and media', async () => {
    const res = await t.read('/internal/catalog/products');
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: any) => p.product_id)).toEqual([ids.archived, ids.active, ids.draft]);
    expect(res.body.items.map((p: any) => p.status)).toEqual(['archived', 'active', 'draft']);
    expect(res.body.total).toBe(3);
    const active = res.body.items[1];
    expect(active.skus).toEqual([
      expect.objectContaining({ sku_id: ids.sku, code: 'JKT-M', amount: 4990, currency: 'EUR', option_values: [{ option: 'size', value: 'm' }] }),
    ]);
    expect(active.options).toEqual([expect.objectContaining({ name: 'size', values: ['s', 'm'], default_value: 'm' })]);
    expect(active.media).toEqual([expect.objectContaining({ kind: 'image', url: 'https://cdn.example/jacket.jpg' })]);
  });

  it('filters by status and by text, and pages', async () => {
    expect((await t.read('/internal/catalog/products', { status: 'draft' })).body.items.map((p: any) => p.product_id)).toEqual([ids.draft]);
    expect((await t.read('/internal/catalog/products', { q: 'ACTIVE' })).body.items.map((p: any) => p.product_id)).toEqual([ids.active]);
    expect((await t.read('/internal/catalog/products', { q: '%' })).body.total).toBe(0);
    const second = await t.read('/internal/catalog/products', { limit: '1', page: '2' });
    expect(second.body).toMatchObject({ page: 2, limit: 1, total: 3 });
    expect(second.body.items.map((p: any) => p.product_id)).toEqual([ids.active]);
    expect((await t.read('/internal/catalog/products', { limit: '101' })).status).toBe(400);
  });

  it('reads one product, never another tenant’s', async () => {
    const one = await t.read('/internal/catalog/product', { product_id: ids.active });
    expect(one.status).toBe(200);
    expect(one.body.product_id).toBe(ids.active);
    const foreign = await t.read('/internal/catalog/product', { product_id: ids.foreign });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.kind).toBe('not_found');
    expect((await t.read('/internal/catalog/products')).body.items.map((p: any) => p.product_id)).not.toContain(ids.foreign);
  });

  it('answers GraphQL with the same data and needs catalog.admin.read', async () => {
    const gql = await t.graphql('query($i: CatalogProductInput!) { catalog_product(input: $i) { product_id title skus { sku_id amount } } }', {
      i: { product_id: ids.active },
    });
    expect(gql.body.data.catalog_product).toEqual({ product_id: ids.active, title: 'Jacket active', skus: [{ sku_id: ids.sku, amount: 4990 }] });
    const weak = await t.command('iam.api_key.create', { name: 'no-catalog', scopes: ['order.read'] });
    const refused = await t.read('/internal/catalog/products', {}, weak.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('catalog.admin.read');
  });
});

describe('federation entities', () => {
  it('resolves Product and SKU references in one batched statement per type, within the tenant', async () => {
    const runtime = t.system.runtimes.get('catalog')!;
    const who = await t.read('/internal/whoami');
    const actor = {
      tenant_id: who.body.tenant_id,
      api_key_id: who.body.actor_id,
      credential_id: who.body.credential_id,
      name: 'owner',
      scopes: ['catalog.admin.read'],
      is_owner: true,
    };
    // Only the reference lookups: the audit trail may flush on the same DataSource meanwhile.
    const { result, statements } = await statementsDuring(/AS _id/, async () =>
      execute({
        schema: runtime.schema,
        document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { product_id status } ... on Sku { sku_id amount } } }`),
        variableValues: {
          r: [
            { __typename: 'Product', product_id: ids.draft },
            { __typename: 'Product', product_id: ids.active },
            { __typename: 'Product', product_id: ids.foreign },
            { __typename: 'Sku', sku_id: ids.sku },
          ],
        },
        contextValue: runtime.contextFor(signContext(t.contextSecret, { actor, request_id: 'req_entities' })),
      }),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!._entities).toEqual([
      { product_id: ids.draft, status: 'draft' },
      { product_id: ids.active, status: 'active' },
      null,
      { sku_id: ids.sku, amount: 4990 },
    ]);
    expect(statements).toHaveLength(2);

    const unscoped = await execute({
      schema: runtime.schema,
      document: parse(`query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { product_id } } }`),
      variableValues: { r: [{ __typename: 'Product', product_id: ids.active }] },
      contextValue: runtime.contextFor(signContext(t.contextSecret, { actor: { ...actor, scopes: ['order.read'] }, request_id: 'req_unscoped' })),
    });
    expect(unscoped.data!._entities).toEqual([null]);
  });
});
