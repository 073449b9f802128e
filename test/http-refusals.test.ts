import { request } from 'node:http';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

/** A raw request, for what fetch would refuse to send. */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(t.url);
  return new Promise((ok, fail) => {
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => ok({ status: res.statusCode!, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('refusals the HTTP server decides carry the documented body', () => {
  it.each([
    ['a URL over 16 KiB', () => raw(`/v1/read/products?store=${'x'.repeat(20_000)}`), 431],
    ['a header over 16 KiB', () => raw('/v1/read/products?store=x', { 'x-big': 'y'.repeat(20_000) }), 431],
    ['a path segment over 100 characters', () => fetch(`${t.url}/v1/commands/${'x'.repeat(101)}`, { method: 'POST' }).then(async (r) => ({ status: r.status, body: await r.text() })), 414],
  ])('%s', async (_case, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(Object.keys(JSON.parse(res.body))).toEqual(['error']);
    expect(JSON.parse(res.body).error.kind).toBe('validation_failed');
  });

  it('answers malformed JSON and a body over 1 MiB with 400 validation_failed, in each surface’s shape', async () => {
    const post = (path: string, body: string) => fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    for (const body of ['{"a":', 'x'.repeat(1_100_000)]) {
      const rest = await post('/v1/commands/iam.api_key.create', body);
      expect(rest.status).toBe(400);
      expect(((await rest.json()) as { error: { kind: string } }).error.kind).toBe('validation_failed');
      const gql = await post('/graphql', body);
      expect(gql.status).toBe(400);
      expect(((await gql.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0].extensions.code).toBe('validation_failed');
    }
  });
});

describe('a command route called wrong says how to call it', () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s /v1/commands/<name> is 405 with Allow: POST and the error body', async (method) => {
    const res = await fetch(`${t.url}/v1/commands/iam.api_key.create`, { method });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await res.json()).toEqual({ error: { kind: 'validation_failed', message: `a command is called with POST, not ${method} (reads are GET /v1/read/...)` } });
  });

  it('a body without a content type, or of another, is 415 saying to send Content-Type: application/json', async () => {
    const none = await new Promise<{ status: number; body: string }>((ok, fail) => {
      // fetch adds text/plain to a string body: node:http sends none.
      const url = new URL(`${t.url}/v1/commands/iam.api_key.create`);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${t.tenant.token}` } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => ok({ status: res.statusCode!, body }));
      });
      req.on('error', fail);
      req.end('{"name":"k","scopes":[]}');
    });
    expect([none.status, JSON.parse(none.body)]).toEqual([415, { error: { kind: 'validation_failed', message: 'send the body as JSON, with Content-Type: application/json (none was given)' } }]);
    const text = await fetch(`${t.url}/v1/commands/iam.api_key.create`, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '{}' });
    expect([text.status, await text.json()]).toEqual([415, { error: { kind: 'validation_failed', message: 'send the body as JSON, with Content-Type: application/json (not text/plain)' } }]);
  });
});

describe('names a caller chooses are never JavaScript’s own', () => {
  beforeAll(async () => {
    const product = await t.command('catalog.product.create', { title: 'Shirt', handle: 'shirt', status: 'active' });
    await t.command('catalog.option.create', { product_id: product.body.product_id, name: 'color', values: ['red'], default_value: 'red' });
    await t.command('catalog.sku.create', { product_id: product.body.product_id, amount: 1000 });
    await t.command('catalog.product.publish', { product_id: product.body.product_id, store_id: t.tenant.store_id });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])('projection=%s is unknown_projection, on REST and GraphQL', async (name) => {
    const rest = await t.read('/products', { store: t.tenant.store_id, projection: name }, null);
    expect(rest.status).toBe(400);
    expect(rest.body.error.kind).toBe('unknown_projection');
    const gql = await t.graphql(`{ read_products(input: {store: "${t.tenant.store_id}", projection: "${name}"}) { total } }`, {}, null);
    expect(gql.body.errors[0].extensions.code).toBe('unknown_projection');
  });

  it.each(['__proto__', 'constructor', 'toString'])('option.%s filters like any option name (nothing has it), never drops the filter', async (name) => {
    const all = await t.read('/products', { store: t.tenant.store_id }, null);
    expect(all.body.total).toBe(1);
    const filtered = await t.read('/products', { store: t.tenant.store_id, [`option.${name}`]: 'red' }, null);
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBe(0);
    const custom = await t.read('/products', { store: t.tenant.store_id, [`cf.${name}`]: 'red' }, null);
    expect(custom.body.total).toBe(0);
  });
});

it('a 401 carries the RateLimit headers of the bucket it was charged to, on REST, GraphQL and MCP', async () => {
  const rest = await t.read('/internal/whoami', {}, 'bok_bad');
  const gql = await t.graphql('{ read_internal_whoami { actor_id } }', {}, 'bok_bad');
  const mcp = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer bok_bad' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
  for (const res of [rest, gql, mcp]) {
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
    expect(res.headers.get('ratelimit-policy')).toBeTruthy();
  }
});
