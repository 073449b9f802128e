import { MAX_INPUT_DEPTH } from '../platform/src/json-guard';
import { mcpClient, startTestSystem, toolErrorBody, type TestSystem } from './helpers';

// jsonProblem and uniqueItems alone, without the system: test/unit/json-guard.test.ts.

/** `levels` nested arrays around 1: `[[1]]` is 2 levels. */
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('every surface refuses what cannot be stored, and stores nothing', () => {
  let t: TestSystem;
  let productId: string;
  const products = async () => Number((await t.sql('SELECT count(*) AS n FROM catalog.product'))[0].n);
  const post = (path: string, body: string, token: string | null = t.tenant.token) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  beforeAll(async () => {
    t = await startTestSystem();
    const created = await t.command('catalog.product.create', {
      title: 'Deep',
      handle: 'deep',
      status: 'active',
      metadata: { deep: JSON.parse(nested(MAX_INPUT_DEPTH - 2)) },
    });
    expect(created.status).toBe(200);
    productId = created.body.product_id;
    expect((await t.command('catalog.product.publish', { product_id: productId, store_id: t.tenant.store_id })).status).toBe(200);
  });
  afterAll(() => t.stop());

  const bad: Array<[string, string]> = [
    ['U+0000 in a value', '{"title":"a\\u0000b","handle":"nul"}'],
    ['U+0000 in a metadata key', '{"title":"t","handle":"nul-key","metadata":{"a\\u0000":1}}'],
    ['a lone surrogate in metadata', '{"title":"t","handle":"sur","metadata":{"a":"\\ud800"}}'],
    ['a non-finite number', '{"title":"t","handle":"inf","metadata":{"n":1e400}}'],
    ['an integer beyond the safe range', '{"title":"t","handle":"big","metadata":{"n":12345678901234567890}}'],
    ['a __proto__ key', '{"title":"t","handle":"proto","metadata":{"__proto__":{"polluted":true}}}'],
    ['metadata nested one level too deep', `{"title":"t","handle":"deeper","metadata":${nested(MAX_INPUT_DEPTH)}}`],
    ['a body nested thousands of levels deep', `{"title":"t","handle":"deepest","metadata":${nested(5000)}}`],
  ];

  it.each(bad)('REST: %s is 400 validation_failed', async (_case, body) => {
    const before = await products();
    const res = await post('/v1/commands/catalog.product.create', body);
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
    expect(await products()).toBe(before);
  });

  it.each(bad)('GraphQL variables: %s is refused as validation_failed', async (_case, body) => {
    const before = await products();
    const res = await post(
      '/graphql',
      `{"query":"mutation($i: CatalogProductCreateInput!) { catalog_product_create(input: $i) { product_id } }","variables":{"i":${body}}}`,
    );
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    expect(res.body.data?.catalog_product_create ?? null).toBeNull();
    expect(await products()).toBe(before);
  });

  it('GraphQL literals: U+0000, surrogates, non-finite and unsafe numbers are refused', async () => {
    const before = await products();
    for (const literal of ['title: "a\\u0000b"', 'title: "\\ud800"', 'title: "t", metadata: {n: 1e400}', 'title: "t", metadata: {n: 12345678901234567890}']) {
      const res = await t.graphql(`mutation { catalog_product_create(input: {handle: "lit", ${literal}}) { product_id } }`);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    }
    expect(await products()).toBe(before);
  });

  it('MCP: the same refusals are tool errors of kind validation_failed', async () => {
    const client = await mcpClient(t.url, t.tenant.token);
    try {
      const before = await products();
      for (const args of [
        { title: 'a\u0000b', handle: 'mcp-nul' },
        { title: '\ud800', handle: 'mcp-sur' },
        { title: 't', handle: 'mcp-deep', metadata: JSON.parse(nested(MAX_INPUT_DEPTH)) },
      ]) {
        const result = await client.callTool({ name: 'catalog.product.create', arguments: args });
        expect(result.isError).toBe(true);
        expect(toolErrorBody(result).error.kind).toBe('validation_failed');
      }
      expect(await products()).toBe(before);
    } finally {
      await client.close();
    }
  });

  // (A URL cannot carry a lone surrogate: invalid UTF-8 in it decodes to U+FFFD.)
  it('query parameters: U+0000 is 400, on public and internal reads', async () => {
    expect((await fetch(`${t.url}/v1/read/products?store=a%00b`)).status).toBe(400);
    expect((await t.read('/internal/catalog/products', { q: 'a\u0000' })).status).toBe(400);
  });

  it('what was accepted at the deepest level reads back on every read and surface', async () => {
    const depthOf = (value: unknown): number => (Array.isArray(value) ? 1 + depthOf(value[0]) : 0);
    const admin = await t.read('/internal/catalog/product', { product_id: productId });
    expect(admin.status).toBe(200);
    expect(depthOf(admin.body.metadata.deep)).toBe(MAX_INPUT_DEPTH - 2);
    for (const projection of ['full', 'feed']) {
      const page = await t.read('/products', { store: t.tenant.store_id, projection }, null);
      expect(page.status).toBe(200);
      expect(depthOf(page.body.items[0].metadata.deep)).toBe(MAX_INPUT_DEPTH - 2);
    }
    const gql = await t.graphql('query($i: CatalogProductInput!) { catalog_product(input: $i) { metadata } }', { i: { product_id: productId } });
    expect(depthOf(gql.body.data.catalog_product.metadata.deep)).toBe(MAX_INPUT_DEPTH - 2);
    const client = await mcpClient(t.url, null);
    try {
      const result = await client.callTool({ name: 'read.products', arguments: { store: t.tenant.store_id } });
      expect(result.isError).toBeFalsy();
      expect(depthOf((result.structuredContent as { items: Array<{ metadata: { deep: unknown } }> }).items[0].metadata.deep)).toBe(MAX_INPUT_DEPTH - 2);
    } finally {
      await client.close();
    }
  });
});
