import { createHash } from 'node:crypto';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { InProcessDataSource } from '../gateway/src/data-sources';
import { startSystem, type System } from '../gateway/src/system';
import { startTestSystem, type TestSystem } from './helpers';

/*
 * The /graphql lane (gateway/src/graphql-fast-path/lane.ts) answers a document planned to one fetch to a subgraph
 * in this process without the gateway's plan execution. A client must not be able to tell: every
 * request below is sent to a system with the lane and to a twin on the same database without it, and
 * both answer the same status, body and headers. The lane's counter shows which requests it served.
 * The twin also runs its subgraphs' documents with graphql-js, where this system compiles them
 * (graphql-jit, data-sources.ts): every answer below is the same both ways too.
 */

let t: TestSystem;
let twin: System;
let limited: string;
/** A key used only in requests sent both ways: its bucket is spent alike on both systems, so their RateLimit headers agree. */
let reader: string;
let storeId: string;
const skuIds: string[] = [];

beforeAll(async () => {
  t = await startTestSystem();
  const previous = { url: process.env.DATABASE_URL, fastPath: process.env.GRAPHQL_FAST_PATH };
  process.env.DATABASE_URL = t.databaseUrl;
  // The twin is the setting's plain gateway: no lane, no compiled fetches.
  process.env.GRAPHQL_FAST_PATH = 'off';
  try {
    twin = await startSystem({
      port: 0,
      contextSecret: t.contextSecret,
      limiter: new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
      log: () => undefined,
    });
  } finally {
    for (const [name, value] of [
      ['DATABASE_URL', previous.url],
      ['GRAPHQL_FAST_PATH', previous.fastPath],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  storeId = t.tenant.store_id;
  limited = (await t.ok('iam.api_key.create', { name: 'audit only', scopes: ['audit.read'] })).token;
  reader = (await t.ok('iam.api_key.create', { name: 'reader', scopes: ['order.read', 'audit.read'] })).token;
  for (let i = 0; i < 3; i++) {
    const { product_id } = await t.ok('catalog.product.create', { title: `Lane mug ${i}`, handle: `lane-mug-${i}`, status: 'active' });
    skuIds.push((await t.ok('catalog.sku.create', { product_id, code: `LM-${i}`, amount: 1000 + i, currency: 'EUR' })).sku_id);
    await t.ok('catalog.product.publish', { product_id, store_id: storeId });
  }
}, 120_000);
afterAll(async () => {
  await twin?.stop();
  await t?.stop();
});

interface Sent {
  body: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

async function post(base: string, { body, token, headers = {} }: Sent) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const pick = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    text,
    body: JSON.parse(text) as Record<string, any>,
    headers: {
      'content-type': pick('content-type'),
      'cache-control': pick('cache-control'),
      ratelimit: pick('ratelimit'),
      'ratelimit-policy': pick('ratelimit-policy'),
    },
  };
}

async function laneCount(base = t.url): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^backoffice_graphql_path_total\{path="lane"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

/** The same request both ways: the answers must be equal; says whether the lane served it. */
async function both(sent: Sent) {
  const before = await laneCount();
  const viaLane = await post(t.url, sent);
  const served = (await laneCount()) > before;
  const viaGateway = await post(twin.url, sent);
  // The very bytes, and the headers a client reads (the rate left included).
  expect(viaLane).toEqual(viaGateway);
  return { ...viaLane, served };
}

const WHOAMI = 'query Whoami { read_internal_whoami { actor_id name tenant_id scopes } }';

describe('the lane answers as the gateway does', () => {
  it('a read, also through aliases and fragments, and as graphql-response+json when asked', async () => {
    const plain = await both({ body: { query: WHOAMI }, token: reader });
    expect(plain).toMatchObject({ status: 200, served: true, body: { data: { read_internal_whoami: { name: 'reader' } } } });
    expect(plain.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ratelimit: expect.stringMatching(/^limit=/),
      'ratelimit-policy': expect.any(String),
    });

    const fragments = await both({
      body: { query: 'query { me: read_internal_whoami { ...Who } } fragment Who on ReadInternalWhoamiResult { id: actor_id tenant_id }' },
      token: reader,
    });
    expect(fragments).toMatchObject({ status: 200, served: true, body: { data: { me: { tenant_id: t.tenant.tenant_id } } } });

    const negotiated = await both({
      body: { query: WHOAMI },
      token: t.tenant.token,
      headers: { accept: 'application/graphql-response+json, application/json;q=0.9' },
    });
    expect(negotiated).toMatchObject({ served: true, headers: { 'content-type': 'application/graphql-response+json; charset=utf-8' } });
  });

  it('the public feed page, with variables, without a token', async () => {
    const query = 'query Feed($input: ReadProductsInput!) { read_products(input: $input) { items { product_id title handle } total } }';
    const page = await both({ body: { query, variables: { input: { store: storeId, limit: 2, projection: 'feed' } } } });
    expect(page).toMatchObject({ status: 200, served: true, body: { data: { read_products: { total: 3 } } } });
    expect(page.body.data.read_products.items).toHaveLength(2);
  });

  it('a variable inside an input object, when not given, is left out of the input (not null)', async () => {
    const query = 'query Orders($q: String) { read_internal_orders(input: { q: $q }) { total } }';
    const answer = await both({ body: { query }, token: reader });
    expect(answer).toMatchObject({ status: 200, served: true, body: { data: { read_internal_orders: { total: expect.any(Number) } } } });
    expect(answer.body.errors).toBeUndefined();
  });

  it("a string literal is never compiled into code: graphql-jit's date marker in a cursor stays text", async () => {
    // graphql-jit writes literal arguments into its generated code and turns `"<marker>…"` into
    // `new Date(…)`: compiled, this cursor would set the global below.
    const marker = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d';
    const cursor = `${marker}1),b:globalThis.__laneInjected=1,c:(1`;
    const query = `query { orders(first: 1, after: ${JSON.stringify(cursor)}) { edges { node { id } } } }`;
    const answer = await both({ body: { query }, token: reader });
    expect((globalThis as { __laneInjected?: number }).__laneInjected).toBeUndefined();
    expect(answer.body.errors[0].extensions.code).toBe('validation_failed');
  });

  it('answers as graphql-js where graphql-jit would not: a non-null default, an alias `__proto__`, a spread under @include', async () => {
    const defaulted = await both({ body: { query: 'query D($n: SafeInt! = 1) { orders(first: $n) { edges { node { id } } } }' }, token: reader });
    expect(defaulted.body.errors).toBeUndefined();
    const aliased = await both({ body: { query: 'query { orders(first: 1) { edges { node { id __proto__: status } } } }' }, token: reader });
    expect(aliased.status).toBe(200);
    const spread = `query S($x: Boolean!) { read_internal_whoami { ...W @include(if: $x) } me: read_internal_whoami { ...W } }
      fragment W on ReadInternalWhoamiResult { name }`;
    const answer = await both({ body: { query: spread, variables: { x: false } }, token: reader });
    expect(answer.body.data.me).toEqual({ name: 'reader' });
  });

  it('a refusal on the field (not found, a missing scope) keeps its kind, reason and path', async () => {
    const missing = await both({ body: { query: 'query { read_internal_order(input: { order_id: "ord_nope" }) { id } }' }, token: reader });
    expect(missing).toMatchObject({ status: 200, served: true, body: { data: { read_internal_order: null } } });
    expect(missing.body.errors[0]).toMatchObject({ path: ['read_internal_order'], extensions: { code: 'not_found' } });

    const forbidden = await both({ body: { query: 'query { read_internal_order(input: { order_id: "ord_nope" }) { id } }' }, token: limited });
    expect(forbidden.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('a mutation runs once and answers its entity', async () => {
    const before = (await t.sql('SELECT count(*)::int AS n FROM catalog.brand'))[0].n;
    const served = await laneCount();
    const made = await post(t.url, {
      body: { query: 'mutation { catalog_brand_create(input: { name: "Lane brand" }) { brand_id brand { name } } }' },
      token: t.tenant.token,
    });
    expect(made).toMatchObject({
      status: 200,
      body: { data: { catalog_brand_create: { brand_id: expect.stringMatching(/^brd_/), brand: { name: 'Lane brand' } } } },
    });
    expect((await t.sql('SELECT count(*)::int AS n FROM catalog.brand'))[0].n).toBe(before + 1);
    expect(await laneCount()).toBe(served + 1);
  });

  it('hands on to the gateway what it does not serve, which answers as always', async () => {
    // No credential where one is needed; a token that is not one.
    expect(await both({ body: { query: WHOAMI } })).toMatchObject({ status: 401, served: false });
    expect(await both({ body: { query: WHOAMI }, token: 'bo_live_nope' })).toMatchObject({ status: 401, served: false });
    // A variable of the wrong type (after the document was paid for).
    const wrong = await both({ body: { query: 'query($n: Int) { read_products(input: { store: "x", limit: $n }) { total } }', variables: { n: 'two' } } });
    expect(wrong).toMatchObject({ status: 400, served: false });
    // Introspection; a syntax error.
    expect(await both({ body: { query: '{ __schema { queryType { name } } }' } })).toMatchObject({ status: 200, served: false });
    expect(await both({ body: { query: '{ read_internal_whoami {' }, token: reader })).toMatchObject({ status: 400, served: false });
    // Operation names: none of that name, an empty one, one of several.
    const several = 'query A { read_internal_whoami { name } } query B { read_internal_whoami { tenant_id } }';
    expect(await both({ body: { query: WHOAMI, operationName: 'Other' }, token: reader })).toMatchObject({ status: 400, served: false });
    expect(await both({ body: { query: WHOAMI, operationName: '' }, token: reader })).toMatchObject({ status: 400, served: false });
    expect(await both({ body: { query: several, operationName: 'B' }, token: reader })).toMatchObject({
      served: true,
      body: { data: { read_internal_whoami: { tenant_id: t.tenant.tenant_id } } },
    });
    expect(await both({ body: { query: several }, token: reader })).toMatchObject({ status: 400, served: false });
  });

  it('serves an APQ hash once Apollo has stored its text, never one it refused', async () => {
    const query = 'query ApqWhoami { read_internal_whoami { name } }';
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    const byHash = { body: { extensions: { persistedQuery } }, token: reader };
    expect((await both(byHash)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    // A registration refused (no valid key) stores nothing.
    expect(await both({ body: { query, extensions: { persistedQuery } }, token: 'bo_live_nope' })).toMatchObject({ status: 401, served: false });
    expect((await both(byHash)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(await both({ body: { query, extensions: { persistedQuery } }, token: reader })).toMatchObject({ status: 200, served: false });
    expect(await both(byHash)).toMatchObject({ status: 200, served: true, body: { data: { read_internal_whoami: { name: 'reader' } } } });
    // Another version of the protocol is Apollo's to refuse.
    expect(await both({ body: { extensions: { persistedQuery: { ...persistedQuery, version: 2 } } }, token: reader })).toMatchObject({ served: false });
  });
});

describe('a plan of several fetches, run by the lane as the gateway runs it', () => {
  const LIST = `query List($n: SafeInt) {
    orders(first: $n) { edges { node { id status kind: __typename items { code qty sku { code product { title } } } } } }
  }`;
  let orderIds: string[];
  beforeAll(async () => {
    for (const sku_id of skuIds) await t.ok('inventory.adjust', { sku_id, on_hand: 10 });
    orderIds = [];
    for (const items of [[{ sku_id: skuIds[0], qty: 1 }], skuIds.map((sku_id, i) => ({ sku_id, qty: i + 1 }))]) {
      orderIds.push((await t.ok('order.create', { store_id: storeId, customer: { email: 'lane@example.com' }, items })).order_id);
    }
  });

  it('an order list with its items, their SKUs and products: the orders subgraph, then the catalog, in one batch', async () => {
    const list = await both({ body: { query: LIST, variables: { n: 5 } }, token: t.tenant.token });
    expect(list).toMatchObject({ status: 200, served: true });
    expect(list.body.errors).toBeUndefined();
    const [newest, oldest] = list.body.data.orders.edges.map((e: { node: unknown }) => e.node);
    expect(newest).toEqual({
      id: orderIds[1],
      status: 'pending_payment',
      kind: 'Order',
      items: [0, 1, 2].map((i) => ({ code: `LM-${i}`, qty: i + 1, sku: { code: `LM-${i}`, product: { title: expect.stringMatching(/mug/i) } } })),
    });
    expect(oldest).toMatchObject({ id: orderIds[0], items: [{ code: 'LM-0', sku: { code: 'LM-0' } }] });
  });

  it('two root fields of two subgraphs, fetched side by side', async () => {
    const two = await both({
      body: { query: `{ read_internal_whoami { actor_id } read_products(input: { store: "${storeId}", limit: 1 }) { total } }` },
      token: reader,
    });
    expect(two).toMatchObject({ status: 200, served: true, body: { data: { read_products: { total: 3 } } } });
  });

  it("a refusal in the second fetch keeps its kind and gets the path of the client's answer", async () => {
    // The reader may read orders, not the catalog: every SKU is refused.
    const refused = await both({ body: { query: LIST, variables: { n: 1 } }, token: reader });
    expect(refused).toMatchObject({ status: 200, served: true });
    expect(refused.body.errors[0]).toMatchObject({ extensions: { code: 'forbidden' }, path: ['orders', 'edges', 0, 'node', 'items', 0, 'sku'] });
    expect(refused.body.errors.length).toBe(3);
  });

  it('a SKU on several lines is asked of the catalog once, and answered or refused at every line', async () => {
    const request = jest.spyOn(InProcessDataSource.prototype, 'request');
    let answered: { body: Record<string, any> };
    let batches: (number | undefined)[];
    try {
      answered = await post(t.url, { body: { query: LIST, variables: { n: 5 } }, token: t.tenant.token });
      batches = request.mock.calls.map(([sent]) => (sent.variables as { representations?: unknown[] } | undefined)?.representations?.length);
    } finally {
      request.mockRestore();
    }
    const lines = answered.body.data.orders.edges.flatMap((e: { node: { items: { code: string }[] } }) => e.node.items);
    const skus = new Set(lines.map((line: { code: string }) => line.code));
    expect(lines.length).toBeGreaterThan(skus.size);
    expect(batches.filter((n) => n !== undefined)).toEqual([skus.size]);
    expect(await both({ body: { query: LIST, variables: { n: 5 } }, token: t.tenant.token })).toMatchObject({ status: 200, served: true });

    // Refused for the reader: one error at each line, in the order the gateway's one-per-line batch gives.
    const refused = await both({ body: { query: LIST, variables: { n: 5 } }, token: reader });
    expect(refused).toMatchObject({ status: 200, served: true });
    const paths = answered.body.data.orders.edges.flatMap((e: { node: { items: unknown[] } }, o: number) =>
      e.node.items.map((_: unknown, i: number) => ['orders', 'edges', o, 'node', 'items', i, 'sku']),
    );
    expect(refused.body.errors.map((e: { path: unknown }) => e.path)).toEqual(paths);
  });

  it('hands on to the gateway a selection it does not shape itself, which answers the same', async () => {
    const fragment = 'query { orders(first: 1) { edges { node { ...O } } } } fragment O on Order { id items { sku { code } } }';
    expect(await both({ body: { query: fragment }, token: t.tenant.token })).toMatchObject({ status: 200, served: false });
    const skipped = 'query($s: Boolean!) { orders(first: 1) { edges { node { id items { sku @skip(if: $s) { code } } } } } }';
    expect(await both({ body: { query: skipped, variables: { s: false } }, token: t.tenant.token })).toMatchObject({ status: 200, served: false });
    const reserved = '{ orders(first: 1) { edges { node { __proto__: id items { sku { code } } } } } }';
    expect(await both({ body: { query: reserved }, token: t.tenant.token })).toMatchObject({ status: 200, served: false });
  });
});

describe('a prepared read over GraphQL', () => {
  it('answers a page made once per page the catalog keeps, and the page as it is after a change', async () => {
    const query = 'query Titles($input: ReadProductsInput!) { read_products(input: $input) { items { product_id title } } }';
    const variables = { input: { store: storeId, limit: 3, sort: 'title_asc' } };
    const first = await both({ body: { query, variables } });
    const again = await both({ body: { query, variables } });
    expect(again).toEqual(first);
    expect(first.served && again.served).toBe(true);
    const [top] = first.body.data.read_products.items;
    await t.ok('catalog.product.update', { product_id: top.product_id, title: 'AAA renamed mug' });
    const after = await both({ body: { query, variables } });
    expect(after.body.data.read_products.items[0]).toEqual({ product_id: top.product_id, title: 'AAA renamed mug' });
  });

  it('answers the feed fields from the feed documents with the values the full documents hold', async () => {
    const fields =
      'product_id title description handle status metadata brand_id categories { category_id path is_primary } media { media_id kind alt position role }';
    const page = async (extra: string) =>
      (await post(t.url, { body: { query: `{ read_products(input: { store: "${storeId}", limit: 3 }) { items { ${fields} ${extra} } } }` } })).body.data
        .read_products.items;
    const feed = await page('');
    // price_min is not a feed field: this selection reads the full documents.
    const full = (await page('price_min')).map(({ price_min: _, ...rest }: Record<string, unknown>) => rest);
    expect(feed).toHaveLength(3);
    expect(feed).toEqual(full);
  });
});

describe('the lane spends what the gateway would, once', () => {
  let small: TestSystem;
  beforeAll(async () => {
    // Three tokens that do not refill during the test.
    small = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.001, burst: 3 }) });
  }, 60_000);
  afterAll(() => small?.stop());

  it('a request refused at its charge or at its admission is refused and audited once, with the rate headers', async () => {
    // Two root fields: one token at admission, one more for the document.
    const twice = { body: { query: '{ a: read_internal_whoami { actor_id } b: read_internal_whoami { actor_id } }' }, token: small.tenant.token };
    const answers = [];
    const served = await laneCount(small.url);
    for (let i = 0; i < 3; i++) answers.push(await post(small.url, twice));
    // The lane answered the first; the other two went on to Apollo with what it had spent.
    expect(await laneCount(small.url)).toBe(served + 1);
    // 3 tokens: the first pays 2; the second is admitted (the last token) and refused its charge; the third is refused at the door.
    expect(answers.map((a) => a.status)).toEqual([200, 429, 429]);
    for (const refused of answers.slice(1)) {
      expect(refused.body.errors[0].extensions.code).toBe('rate_limited');
      expect(refused.headers['ratelimit-policy']).toEqual(expect.any(String));
    }
    await small.flushAudit();
    const refused = await small.sql(`SELECT count(*)::int AS n FROM identity.audit_entry WHERE outcome = 'rate_limited'`);
    expect(refused[0].n).toBe(2);
  });
});
