import { request } from 'node:http';
import { connect } from 'node:net';
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
    [
      'a path segment over 100 characters',
      () => fetch(`${t.url}/v1/commands/${'x'.repeat(101)}`, { method: 'POST' }).then(async (r) => ({ status: r.status, body: await r.text() })),
      414,
    ],
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

describe('nosniff', () => {
  it('is on every answer: JSON that echoes the caller, GraphQL, MCP, pages and assets, health, and refusals before any route', async () => {
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers, redirect: 'manual' });
    const json = (path: string, body: unknown) =>
      fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      });
    const answers: Array<[string, { status: number; headers: Headers }]> = [
      ['a page slug with a script', await get(`/v1/read/pages?store=x&slug=${encodeURIComponent('<script>alert(1)</script>')}`)],
      ['an unknown route', await get('/<script>')],
      ['GraphQL', await json('/graphql', { query: '{ __typename }' })],
      ['MCP', await json('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' })],
      ['a command', await json('/v1/commands/iam.api_key.create', {})],
      ['the explorer', await get('/graphql', { accept: 'text/html' })],
      ['/', await get('/')],
      ['the docs', await get('/v1/docs')],
      ['an asset', await get('/explorer/init.js')],
      ['OpenAPI', await get('/v1/openapi.json')],
      ['health', await get('/healthz')],
      ['metrics', await get('/metrics')],
      ['a path segment over 100 characters', await get(`/v1/commands/${'x'.repeat(101)}`)],
    ];
    expect(answers.filter(([, a]) => a.headers.get('x-content-type-options') !== 'nosniff').map(([what, a]) => `${what} (${a.status})`)).toEqual([]);
    const parserRefusal = await new Promise<string>((ok, fail) => {
      const url = new URL(t.url);
      const req = request({ host: url.hostname, port: url.port, path: '/v1/read/products', headers: { 'x-big': 'y'.repeat(20_000) } }, (res) => {
        res.resume();
        ok(`${res.statusCode} ${res.headers['x-content-type-options']}`);
      });
      req.on('error', fail);
      req.end();
    });
    expect(parserRefusal).toBe('431 nosniff');
  });
});

describe('a body over 1 MiB', () => {
  /** Node's own HTTP client writing the whole body, then reading the answer: the connection must not be reset under it. */
  const send = (path: string, bytes: number, chunked: boolean) =>
    new Promise<{ status: number; body: string; error?: string }>((ok) => {
      const url = new URL(t.url);
      const headers: Record<string, string | number> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${t.tenant.token}`,
      };
      if (!chunked) headers['content-length'] = bytes;
      let answer: { status: number; body: string } | undefined;
      // A connection of its own, closed after the answer (not the shared keep-alive agent's).
      const req = request({ host: url.hostname, port: url.port, path, method: 'POST', headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          answer = { status: res.statusCode!, body };
          ok(answer);
        });
      });
      req.on('error', (error) => ok({ ...(answer ?? { status: 0, body: '' }), error: (error as NodeJS.ErrnoException).code ?? error.message }));
      req.end(Buffer.alloc(bytes, 0x20));
    });

  it.each([
    ['2 MiB', 2 * 1_048_576, false],
    ['2 MiB chunked', 2 * 1_048_576, true],
  ])('to /mcp (%s) is answered 413 with the error body', async (_case, bytes, chunked) => {
    const res = await send('/mcp', bytes, chunked);
    expect(res).toEqual({
      status: 413,
      body: JSON.stringify({ error: { kind: 'validation_failed', message: 'the body exceeds the limit of 1 MiB (1048576 bytes)' } }),
    });
    // The server is still there for the next call.
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });

  /**
   * A client that writes its whole request before it reads (as curl or Python's http.client do), over
   * a raw socket: 16 MiB is more than the sockets buffer, so a server that closed the connection while
   * the body still came would reset it under the writer (EPIPE) before the answer was read.
   */
  const writeAllThenRead = (path: string, bytes: number, chunked: boolean) =>
    new Promise<{ head: string; body: string; errors: string[] }>((ok) => {
      const url = new URL(t.url);
      const socket = connect(Number(url.port), url.hostname);
      const received: Buffer[] = [];
      const errors: string[] = [];
      socket.on('data', (chunk) => received.push(chunk));
      socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      socket.on('close', () => {
        const [head, body = ''] = Buffer.concat(received).toString().split('\r\n\r\n');
        ok({ head: head.split('\r\n')[0], body, errors });
      });
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${bytes}`;
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\n${length}\r\n\r\n`,
      );
      const body = Buffer.alloc(bytes, 0x20);
      socket.write(chunked ? Buffer.concat([Buffer.from(`${bytes.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body);
    });

  it.each([
    ['/mcp', 16 * 1_048_576, false, 'HTTP/1.1 413 Payload Too Large'],
    ['/mcp', 16 * 1_048_576, true, 'HTTP/1.1 413 Payload Too Large'],
    ['/v1/commands/iam.api_key.create', 16 * 1_048_576, true, 'HTTP/1.1 400 Bad Request'],
  ])('to %s (%d bytes, chunked: %s) reaches a client that writes it all before reading, without a reset', async (path, bytes, chunked, status) => {
    const res = await writeAllThenRead(path, bytes, chunked);
    expect(res).toEqual({ head: status, body: expect.stringContaining('"kind":"validation_failed"'), errors: [] });
  });
});

describe('a command route called wrong says how to call it', () => {
  it.each(['GET', 'PUT', 'DELETE'])('%s /v1/commands/<name> is 405 with Allow: POST and the error body', async (method) => {
    const res = await fetch(`${t.url}/v1/commands/iam.api_key.create`, { method });
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await res.json()).toEqual({
      error: { kind: 'validation_failed', message: `a command is called with POST, not ${method} (reads are GET /v1/read/...)` },
    });
  });

  it('a body without a content type, or of another, is 415 saying to send Content-Type: application/json', async () => {
    const none = await new Promise<{ status: number; body: string }>((ok, fail) => {
      // fetch adds text/plain to a string body: node:http sends none.
      const url = new URL(`${t.url}/v1/commands/iam.api_key.create`);
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${t.tenant.token}` } },
        (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => ok({ status: res.statusCode!, body }));
        },
      );
      req.on('error', fail);
      req.end('{"name":"k","scopes":[]}');
    });
    expect([none.status, JSON.parse(none.body)]).toEqual([
      415,
      { error: { kind: 'validation_failed', message: 'send the body as JSON, with Content-Type: application/json (none was given)' } },
    ]);
    const text = await fetch(`${t.url}/v1/commands/iam.api_key.create`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '{}',
    });
    expect([text.status, await text.json()]).toEqual([
      415,
      { error: { kind: 'validation_failed', message: 'send the body as JSON, with Content-Type: application/json (not text/plain)' } },
    ]);
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
  const mcp = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer bok_bad' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  for (const res of [rest, gql, mcp]) {
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
    expect(res.headers.get('ratelimit-policy')).toBeTruthy();
  }
});
