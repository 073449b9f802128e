import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { GRAPHQL_LIMITS, LITERAL_MAX_DEPTH } from '../gateway/src/graphql-limits';
import { getNullableType, type GraphQLInputType, isEnumType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { PAGE_SIZE } from '../admin/src/components/page-size';
import { startTestSystem, statementsDuring, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const refusedFor = async (query: string, limit: RegExp) => {
  const res = await t.graphql(query);
  expect(res.status).toBe(400);
  expect(res.body.errors[0].extensions.code).toBe('validation_failed');
  expect(res.body.errors[0].message).toMatch(limit);
  expect(res.body.data).toBeUndefined();
};
const accepted = async (query: string) => {
  const res = await t.graphql(query);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
};

const whoami = (alias: string) => `${alias}: read_internal_whoami { actor_id }`;
const aliases = (n: number) => Array.from({ length: n }, (_, i) => whoami(`a${i}`)).join(' ');

describe('GraphQL document limits, each at its bound and one past it', () => {
  it(`aliases: ${GRAPHQL_LIMITS.maxAliases}`, async () => {
    await accepted(`{ ${aliases(GRAPHQL_LIMITS.maxAliases)} }`);
    await refusedFor(`{ ${aliases(GRAPHQL_LIMITS.maxAliases + 1)} }`, /aliases limit of 20/i);
  });

  it('aliases behind fragments count as in place', async () => {
    await accepted(`{ ...F } fragment F on Query { ${aliases(GRAPHQL_LIMITS.maxAliases)} }`);
    await refusedFor(
      `{ ...F ...G } fragment F on Query { ${aliases(GRAPHQL_LIMITS.maxAliases)} } fragment G on Query { ${whoami('extra')} }`,
      /aliases limit of 20/i,
    );
  });

  it(`root fields after expanding fragments: ${GRAPHQL_LIMITS.maxRootFields}`, async () => {
    // Distinct root fields, so that the alias limit is not what refuses.
    const plain = [
      'read_internal_whoami { actor_id }',
      ...['identity', 'catalog', 'orders', 'content'].flatMap((s) => [`${s}_audit { total }`, `${s}_events { total }`]),
    ];
    const fill = (n: number) => [...plain, ...Array.from({ length: n - plain.length }, (_, i) => whoami(`r${i}`))].join(' ');
    await accepted(`{ ...F } fragment F on Query { ${fill(GRAPHQL_LIMITS.maxRootFields)} }`);
    await refusedFor(`{ ...F } fragment F on Query { ${fill(GRAPHQL_LIMITS.maxRootFields + 1)} }`, /at most 20 root fields \(fragments expanded\), found 21/);
  });

  it(`depth: ${GRAPHQL_LIMITS.maxDepth}`, async () => {
    // Only `__schema` is exempt (explorers' introspection); `__type`'s `ofType` chain nests as deep as asked.
    const nested = (depth: number): string => `{ __type(name: "Query") ${chain(depth - 1)} }`;
    const chain = (depth: number): string => (depth === 1 ? '{ name }' : `{ name ofType ${chain(depth - 1)} }`);
    await accepted(nested(GRAPHQL_LIMITS.maxDepth));
    await refusedFor(nested(GRAPHQL_LIMITS.maxDepth + 1), /depth limit of 10 exceeded, found 11/i);
  });

  it(`tokens: ${GRAPHQL_LIMITS.maxTokens}`, async () => {
    // `{`, `}` and each repeated `actor_id` are one token each: 2 + 3 + n. At the bound the parser
    // takes it (graphql-js's own merge budget may still refuse so many repeats); one more is refused.
    const tokens = (n: number) => `{ read_internal_whoami { ${'actor_id '.repeat(n)}} }`;
    const atBound = await t.graphql(tokens(GRAPHQL_LIMITS.maxTokens - 5));
    expect(atBound.status).toBeLessThan(500);
    expect(JSON.stringify(atBound.body)).not.toMatch(/token limit/i);
    await refusedFor(tokens(GRAPHQL_LIMITS.maxTokens - 4), /token limit of 2000/i);
  });

  it(`directives: ${GRAPHQL_LIMITS.maxDirectives}`, async () => {
    const directives = (n: number) => `{ read_internal_whoami { ${'actor_id @include(if: true) '.repeat(n)}} }`;
    await accepted(directives(GRAPHQL_LIMITS.maxDirectives));
    await refusedFor(directives(GRAPHQL_LIMITS.maxDirectives + 1), /directives limit of 20/i);
  });

  it(`cost: a full page of 100 passes, the alias bomb of large pages does not (limit ${GRAPHQL_LIMITS.maxCost})`, async () => {
    const page = (alias: string, limit: number) =>
      `${alias}: read_products(input: {store: "${t.tenant.store_id}", limit: ${limit}}) { items { product_id title ` +
      `skus { id amount media { kind url } option_values { option value } } media { kind url } categories { path } } ` +
      `}`;
    await accepted(`{ ${page('p', 100)} }`);
    await refusedFor(
      `{ ${Array.from({ length: 10 }, (_, i) => page(`p${i}`, 100)).join(' ')} }`,
      new RegExp(`estimated cost of \\d+ exceeds the limit of ${GRAPHQL_LIMITS.maxCost}`),
    );
  });

  it('cost: a cycle through the graph is costed at the most SKUs a product holds, and refused before it runs', async () => {
    // A product of 100 SKUs: answered, the document below would hold 100⁴ SKU objects per alias.
    const { product_id } = await t.ok('catalog.product.create', { title: 'Cyclic', handle: 'cyclic', status: 'active' });
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => t.ok('catalog.sku.create', { product_id, code: `CY-${i + j}`, amount: 1, currency: 'EUR' })));
    }
    const cycle = (alias: string) =>
      `${alias}: catalog_product(input: {product_id: "${product_id}"}) { skus { id product { skus { id product { skus { id product { skus { id } } } } } } } }`;
    const query = `{ ${Array.from({ length: 20 }, (_, i) => cycle(`c${i}`)).join(' ')} }`;
    // Refused before execution: not one statement reads the product or its SKUs (the time it takes is
    // the bench's to measure, not a test's).
    const read = /\bcatalog\.(sku|product|product_document)\b/;
    const refused = await statementsDuring(read, () => refusedFor(query, /estimated cost of \d+ exceeds the limit/));
    expect(refused.statements).toEqual([]);
    // One turn fewer is what a client may ask: it runs, and reads them.
    const ran = await statementsDuring(read, () =>
      accepted(`{ catalog_product(input: {product_id: "${product_id}"}) { skus { id product { skus { id } } } } }`),
    );
    expect(ran.statements.length).toBeGreaterThan(0);
  });

  it(`answers: one over ${GRAPHQL_LIMITS.maxAnswerBytes} bytes is refused whole, never sent in part`, async () => {
    // 100 products of 100,000 characters of description and 90,000 of metadata: about 19 MB in one page.
    const store = (await t.ok('tenant.store.create', { name: 'Large', handle: 'large-answers' })).id as string;
    const text = (n: number) => 'x'.repeat(n);
    for (let i = 0; i < 100; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const { product_id } = await t.ok('catalog.product.create', {
            title: `Large ${i + j}`,
            handle: `large-${i + j}`,
            status: 'active',
            description: text(100_000),
            metadata: { notes: text(90_000) },
          });
          await t.ok('catalog.product.publish', { product_id, store_id: store });
        }),
      );
    }
    const page = (limit: number) => `{ read_products(input: {store: "${store}", limit: ${limit}}) { items { description metadata } } }`;
    await accepted(page(24));
    const res = await t.graphql(page(100));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    expect(res.body.errors[0].message).toMatch(new RegExp(`over the limit of ${GRAPHQL_LIMITS.maxAnswerBytes}`));
    expect(res.body.data).toBeUndefined();
    expect(t.logs.some((line) => line.includes(res.headers.get('x-request-id')!) && /answer of \d+ bytes refused/.test(line))).toBe(true);
  });
});

describe('rate charged by cost', () => {
  it('spends a token per root field, fragments expanded, and more for a costly document', async () => {
    const limited = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.001, burst: 100 }) });
    try {
      const remaining = async (query: string) => {
        const res = await limited.graphql(query);
        expect(res.status).toBe(200);
        return Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit')!)![1]);
      };
      const first = await remaining('{ read_internal_whoami { actor_id } }');
      // The header reports the bucket after the whole document's charge.
      const afterFive = await remaining(`{ ...F } fragment F on Query { ${aliases(5)} }`);
      expect(first - afterFive).toBe(5);
      const next = await remaining('{ read_internal_whoami { actor_id } }');
      expect(afterFive - next).toBe(1);
      // The REST document of a feed page of 100 (every field) estimates about 590,000: 1 + 3 tokens.
      const { operationDocument } = await import('@backoffice/platform');
      const { OPERATIONS } = await import('../gateway/src/subgraphs');
      const page = await limited.graphql(operationDocument(OPERATIONS.get('read.products')!.operation, 'feed'), {
        input: { store: limited.tenant.store_id, limit: 100 },
      });
      expect(page.body.errors).toBeUndefined();
      const afterPage = await remaining('{ read_internal_whoami { actor_id } }');
      expect(next - 1 - afterPage).toBe(4);
    } finally {
      await limited.stop();
    }
  });
});

describe('GraphQL over HTTP', () => {
  it('answers an execution error with 200 and the kind in extensions.code, under both media types', async () => {
    expect((await t.command('catalog.brand.create', { name: 'Twice' })).status).toBe(200);
    const query = 'mutation { catalog_brand_create(input: {name: "Twice"}) { brand_id } }';
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${t.tenant.token}` },
        body: JSON.stringify({ query }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(accept);
      const body = (await res.json()) as any;
      expect(body.errors[0].extensions.code).toBe('conflict');
      expect(body.data).toEqual({ catalog_brand_create: null });
    }
  });

  it('returns each executed mutation field: the token of a committed creation is not lost to a later failure', async () => {
    const res = await t.graphql(
      'mutation { a: iam_api_key_create(input: {name: "kept", scopes: []}) { api_key_id token } b: iam_api_key_create(input: {name: "", scopes: []}) { token } }',
    );
    expect(res.status).toBe(200);
    expect(res.body.data.a.token).toMatch(/^bok_/);
    expect(res.body.data.b).toBeNull();
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['b'], extensions: expect.objectContaining({ code: 'validation_failed' }) })]);
    const who = await t.read('/internal/whoami', {}, res.body.data.a.token);
    expect(who.body.actor_id).toBe(res.body.data.a.api_key_id);
  });

  it.each([
    ['an unknown operationName', { query: 'query A { read_internal_whoami { actor_id } }', operationName: 'B' }, /no operation named B/],
    [
      'two operations without operationName',
      { query: 'query A { read_internal_whoami { actor_id } } query B { read_internal_whoami { actor_id } }' },
      /name one with operationName/,
    ],
    ['a subscription', { query: 'subscription S { read_internal_whoami { actor_id } }' }, /subscriptions are not served/],
    [
      'a persisted query whose hash does not match',
      { query: '{ read_internal_whoami { actor_id } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } },
      /sha does not match/,
    ],
    [
      'a number literal beyond the safe range',
      { query: 'mutation { catalog_product_create(input: {title: "t", handle: "n", metadata: {n: 1e400}}) { product_id } }' },
      /not finite/,
    ],
    ['a body that is not JSON', '{"query": ', /not valid JSON/],
  ])('answers %s with 400 validation_failed', async (_case, body, message) => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.tenant.token}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as any;
    expect(answer.errors[0].extensions.code).toBe('validation_failed');
    expect(answer.errors[0].message).toMatch(message);
  });

  it('logs the cause of an internal error with the request id, and shows only the id', async () => {
    await t.sql('ALTER TABLE catalog.brand RENAME TO brand_gone');
    try {
      const res = await t.graphql('mutation { catalog_brand_create(input: {name: "Broken"}) { brand_id } }');
      const error = res.body.errors[0];
      expect(error.extensions.code).toBe('internal');
      const requestId = res.headers.get('x-request-id')!;
      expect(error.message).toBe(`internal error (request ${requestId})`);
      expect(JSON.stringify(res.body)).not.toMatch(/brand_gone|relation|SELECT|INSERT/i);
      expect(t.logs.find((line) => line.includes(requestId))).toMatch(/brand/);
    } finally {
      await t.sql('ALTER TABLE catalog.brand_gone RENAME TO brand');
    }
  });
});

describe('the REST and MCP surfaces’ own documents', () => {
  it('stay within every static GraphQL limit: one root field, within the token bound', async () => {
    const { parse } = await import('graphql');
    const { operationDocument } = await import('@backoffice/platform');
    const { OPERATIONS } = await import('../gateway/src/subgraphs');
    const { rootFieldCount } = await import('../gateway/src/graphql-limits');
    for (const { operation } of OPERATIONS.values()) {
      if (operation.connection) continue; // GraphQL's alone
      for (const projection of [undefined, ...Object.keys(operation.projections ?? {})]) {
        const document = parse(operationDocument(operation, projection), { maxTokens: GRAPHQL_LIMITS.maxTokens });
        expect([operation.name, rootFieldCount(document, document.definitions[0] as import('graphql').OperationDefinitionNode)]).toEqual([operation.name, 1]);
      }
    }
  });

  it('are not held to the cost limit, which bounds what a client selects: their answers are bounded by their inputs', async () => {
    const { operationDocument } = await import('@backoffice/platform');
    const { OPERATIONS } = await import('../gateway/src/subgraphs');
    // The full product document of a page of 100 estimates over the limit: REST serves it, as the reference says.
    const rest = await t.read('/products', { store: t.tenant.store_id, limit: '100' });
    expect(rest.status).toBe(200);
    const text = operationDocument(OPERATIONS.get('read.products')!.operation);
    const res = await t.graphql(text, { input: { store: t.tenant.store_id, limit: 100 } });
    expect([res.status, res.body.errors?.[0].message]).toEqual([400, expect.stringMatching(/estimated cost of \d+ exceeds the limit/)]);
  });
});

describe('the admin’s documents', () => {
  it(`each fits the cost limit at the admin’s page size (${PAGE_SIZE})`, async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { parse, typeFromAST } = await import('graphql');
    const { Supergraph } = await import('@apollo/federation-internals');
    const { listSizesOf, useListSizes } = await import('@backoffice/platform');
    const { SUPERGRAPH_FILE } = await import('../gateway/src/compose');
    const { documentCost } = await import('../gateway/src/graphql-limits');
    const sdl = readFileSync(SUPERGRAPH_FILE, 'utf8');
    const schema = Supergraph.build(sdl).apiSchema().toGraphQLJSSchema();
    useListSizes(schema, listSizesOf(parse(sdl)));
    const documents = JSON.parse(readFileSync(join(__dirname, '..', 'admin', 'src', 'gql', 'persisted-documents.json'), 'utf8')) as Record<string, string>;
    for (const text of Object.values(documents)) {
      const document = parse(text);
      const operation = document.definitions[0] as import('graphql').OperationDefinitionNode;
      if (operation.operation !== 'query') continue; // a mutation's answer is its one entity
      // Paged at the admin's size; the simplest value of each required variable stands in for what a screen passes.
      const variables: Record<string, unknown> = {};
      for (const { variable, type } of operation.variableDefinitions ?? []) {
        if (variable.name.value === 'first') variables.first = PAGE_SIZE;
        else if (type.kind === 'NonNullType') variables[variable.name.value] = simplest(typeFromAST(schema, type)!);
      }
      expect([operation.name?.value, documentCost(schema, document, variables) <= GRAPHQL_LIMITS.maxCost]).toEqual([operation.name?.value, true]);
    }
  });
});

describe('literals', () => {
  it(`nest at most ${LITERAL_MAX_DEPTH} levels, refused before planning (deeper ones take the planner exponential time)`, async () => {
    // The input object is level 1; `metadata` holds lists nested `lists` deep under it.
    const doc = (lists: number) =>
      `mutation { catalog_product_create(input: {title: "t", handle: "lit-${lists}", metadata: ${'['.repeat(lists)}1${']'.repeat(lists)}}) { product_id } }`;
    const atBound = await t.graphql(doc(LITERAL_MAX_DEPTH - 1));
    expect(atBound.body.errors).toBeUndefined();
    const past = await t.graphql(doc(LITERAL_MAX_DEPTH));
    expect(past.status).toBe(400);
    expect(past.body.errors[0]).toMatchObject({
      message: `a literal value nests deeper than ${LITERAL_MAX_DEPTH} levels: pass deeper JSON as a variable`,
      extensions: { code: 'validation_failed' },
    });
    // The fuzz's find: alternating lists and objects, 130 levels in about 1 KB.
    const started = Date.now();
    const bomb = await t.graphql(`{ catalog_products(input: {limit: 1, page: ${'[{d: '.repeat(65)}1${'}]'.repeat(65)}}) { total } }`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(bomb.status).toBe(400);
  });
});

/** The simplest value GraphQL coerces to a type: required input fields only, each the simplest of its own. */
function simplest(type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner)) return [];
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (isInputObjectType(inner)) {
    return Object.fromEntries(Object.values(inner.getFields()).flatMap((f) => (isNonNullType(f.type) ? [[f.name, simplest(f.type)]] : [])));
  }
  return { Int: 1, SafeInt: 1, Float: 1, Boolean: true }[inner.name] ?? 'x';
}
