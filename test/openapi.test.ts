import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUS, errorKinds, type ErrorKind } from '@backoffice/platform';
import { restPathOf } from '../gateway/src/deprecation';
import { STREAM_PATH } from '../gateway/src/event-stream';
import { COMMANDS, MERGED_READS, OPERATIONS, READS } from '../gateway/src/subgraphs';
import { startTestSystem, type TestSystem } from './helpers';

/** GET /v1/openapi.json: a valid OpenAPI 3.1 document, the committed one, and true to every route the gateway serves. */

interface Schema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  anyOf?: Schema[];
  items?: Schema;
  additionalProperties?: Schema;
}
interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
  'x-parameter-prefix'?: string;
}
interface Operation {
  parameters?: Parameter[];
  security: unknown;
  deprecated?: boolean;
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    responses: Record<
      string,
      { content: { 'application/json': { schema: { allOf: [unknown, { properties: { error: { properties: { kind: { enum: ErrorKind[] } } } } }] } } } }
    >;
  };
}

let t: TestSystem;
let doc: Document;

beforeAll(async () => {
  t = await startTestSystem();
  doc = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as Document;
});
afterAll(() => t?.stop());

/** The validator is an ES module only, which jest's CommonJS loader cannot load: it runs as a process of its own. */
function validateDocument(document: unknown): Promise<{ valid: boolean; version: string; errors?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'fixtures', 'validate-openapi.mjs')], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    );
    child.stdin!.end(JSON.stringify(document));
  });
}

const get = async (path: string, pairs: Array<[string, string]>, token: string | null = t.tenant.token) => {
  const response = await fetch(`${t.url}${path}?${new URLSearchParams(pairs)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};

const post = async (path: string, body: string) => {
  const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
};

/** What the REST shim serves: it routes `POST /v1/commands/<name>` and `GET /v1/read/<path>` by these maps alone. */
const commandPaths = [...COMMANDS.keys()].map((name) => `/v1/commands/${name}`);
const readPaths = [...READS.keys(), ...MERGED_READS.keys()].map((path) => `/v1/read${path}`);

it('is a valid OpenAPI 3.1 document', async () => {
  expect(await validateDocument(doc)).toEqual({ valid: true, version: '3.1' });
});

it('is the committed docs/openapi.json', () => {
  expect(doc).toEqual(JSON.parse(readFileSync(join(__dirname, '..', 'docs', 'openapi.json'), 'utf8')));
});

describe('routes', () => {
  it('has a path for every REST command and read the gateway serves, and no other', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual([...commandPaths.map((p) => `post ${p}`), ...readPaths.map((p) => `get ${p}`), `get ${STREAM_PATH}`].sort());
  });

  it('every documented path reaches its operation; an undocumented one is 404', async () => {
    const unrouted = (res: { status: number; body: { error?: { message: string } } }) =>
      res.status === 404 && /^(unknown (command|read)|no route)/.test(res.body.error?.message ?? '');
    // No credential and a body that is not an object: refused by the operation (401 or 400), never run.
    for (const path of commandPaths) expect([path, unrouted(await post(path, '[]'))]).toEqual([path, false]);
    for (const path of readPaths) expect([path, unrouted(await get(path, [], null))]).toEqual([path, false]);
    expect(unrouted(await post('/v1/commands/no.such_command', '{}'))).toBe(true);
    expect(unrouted(await get('/v1/read/no/such/read', []))).toBe(true);
  });

  it("declares each operation's scope as its security requirement, and exactly its error kinds by status", () => {
    for (const { operation } of OPERATIONS.values()) {
      const path = restPathOf(operation.name);
      if (!path) continue; // GraphQL only
      const entry = doc.paths[path][operation.kind === 'command' ? 'post' : 'get'];
      expect([operation.name, entry.security]).toEqual([
        operation.name,
        operation.access === 'public' ? [] : [{ bearer: operation.scope ? [operation.scope] : [] }],
      ]);
      const kinds = Object.entries(entry.responses)
        // 415 is the media type's refusal, not a kind's status (groups and statuses, below).
        .filter(([status]) => !['200', '304', '415'].includes(status))
        .flatMap(([status, { $ref }]) => {
          const listed = doc.components.responses[$ref!.split('/').pop()!].content['application/json'].schema.allOf[1].properties.error.properties.kind.enum;
          expect(listed.map((kind) => ERROR_STATUS[kind])).toEqual(listed.map(() => Number(status)));
          return listed;
        });
      expect([operation.name, kinds.sort()]).toEqual([operation.name, [...errorKinds(operation), 'rate_limited'].sort()]);
      expect([operation.name, Boolean(entry.deprecated), 'Deprecation' in (entry.responses['200'].headers ?? {})]).toEqual([
        operation.name,
        Boolean(operation.deprecated),
        Boolean(operation.deprecated),
      ]);
      expect([operation.name, '304' in entry.responses]).toEqual([operation.name, Boolean(operation.prepared)]);
    }
  });

  it('a prepared read answers the caching headers it declares, and 304 as declared', async () => {
    const declared = doc.paths['/v1/read/products'].get.responses as unknown as Record<string, { headers: Record<string, { required?: boolean }> }>;
    const res = await get('/v1/read/products', [['store', t.tenant.store_id]], null);
    expect(res.status).toBe(200);
    const required = Object.entries(declared['200'].headers)
      .filter(([, h]) => h.required)
      .map(([name]) => name);
    expect(required).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'Surrogate-Key', 'Cache-Tag', 'Vary']));
    for (const name of required) expect([name, res.headers.get(name) !== null]).toEqual([name, true]);
    const revalidated = await fetch(`${t.url}/v1/read/products?store=${t.tenant.store_id}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    for (const name of Object.keys(declared['304'].headers)) expect([name, revalidated.headers.get(name) !== null]).toEqual([name, true]);
  });

  it('a deprecated operation answers with the Deprecation header it declares', async () => {
    const deprecated = [...COMMANDS.values()].filter((r) => r.operation.deprecated).map((r) => `/v1/commands/${r.operation.name}`);
    expect(deprecated.length).toBeGreaterThan(0);
    for (const path of deprecated) expect((await post(path, '{}')).headers.get('deprecation')).toBe('true');
  });
});

describe('groups and statuses', () => {
  it('tags every operation with the subgraph that owns it (merged reads: merged), each tag described', async () => {
    const full = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as {
      tags: Array<{ name: string; description: string }>;
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
    };
    expect(full.tags.map((tag) => tag.name)).toEqual(['identity', 'catalog', 'orders', 'content', 'merged']);
    for (const tag of full.tags) expect(tag.description.length).toBeGreaterThan(20);
    const tagged = Object.values(full.paths)
      .flatMap((methods) => Object.values(methods))
      .map((op) => [op.operationId, op.tags]);
    expect(tagged).toHaveLength(
      // + 1: the live event stream, merged too.
      OPERATIONS.size + MERGED_READS.size - [...OPERATIONS.values()].filter((r) => r.operation.kind === 'read' && !r.operation.restPath).length + 1,
    );
    expect(tagged).toEqual(tagged.map(([name]) => [name, [OPERATIONS.get(name as string)?.subgraph.name ?? 'merged']]));
  });

  it("documents a command's 415, which a body of another type gets", async () => {
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/v1/commands/'))) {
      expect(doc.paths[path].post.responses['415']).toEqual({ $ref: '#/components/responses/unsupported_media_type' });
    }
    const res = await fetch(`${t.url}/v1/commands/order.mark_paid`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(res.status).toBe(415);
  });
});

describe('query parameters', () => {
  /** A valid value for a parameter, from its schema; the rules no schema states are given here. */
  const sampleOf = (p: Parameter): [string, string] => {
    if (p['x-parameter-prefix']) return [`${p['x-parameter-prefix']}color`, p.schema.additionalProperties?.type === 'integer' ? '1' : 'red'];
    const given: Record<string, string> = { store: t.tenant.store_id, host: 'shop.example.com', projection: 'feed', items: 'sku_missing:1' };
    if (Object.hasOwn(given, p.name)) return [p.name, given[p.name]];
    const s = p.schema.type === 'array' ? p.schema.items! : (p.schema.anyOf?.[0] ?? p.schema);
    return [p.name, String(s.enum?.[0] ?? (s.type === 'integer' ? (s.minimum ?? 1) : s.type === 'boolean' ? true : 'x'))];
  };

  /** Parameters of which a read takes exactly one (the quote's items, as text or as lines): the first is sent beside the others. */
  const ONE_OF: Record<string, string[]> = { '/v1/read/internal/shipping/quote': ['items', 'line.<sku_id>'] };

  it.each(readPaths)('%s takes every parameter it declares and refuses one it does not', async (path) => {
    const parameters = doc.paths[path].get.parameters ?? [];
    const required = parameters.filter((p) => p.required).map(sampleOf);
    const oneOf = ONE_OF[path] ?? [];
    const alternative = parameters.filter((p) => p.name === oneOf[0]).map(sampleOf);
    for (const parameter of parameters) {
      const [name, value] = sampleOf(parameter);
      const others = oneOf.includes(parameter.name) ? [] : alternative;
      const res = await get(path, [...required.filter(([n]) => n !== name), ...others, [name, value]]);
      expect({ name, status: res.status, error: res.body.error }).not.toMatchObject({ error: { kind: 'validation_failed' } });
      expect(res.status).toBeLessThan(500);
    }
    const extra = await get(path, [...required, ['undeclared', '1']]);
    // read.products takes extra string parameters, as the reference says (and its document marks it).
    if ((doc.paths[path].get as unknown as Record<string, unknown>)['x-extra-query-parameters'] === 'ignored') return expect(extra.status).toBe(200);
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatchObject({ kind: 'validation_failed', message: expect.stringMatching(/^unknown query parameter undeclared;/) });
  });

  it('read.products refuses its list fields under their input names: they are sent as option.<name> and cf.<name>', async () => {
    for (const name of ['options', 'custom_fields']) {
      const res = await get(
        '/v1/read/products',
        [
          ['store', t.tenant.store_id],
          [name, 'color:red'],
        ],
        null,
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ kind: 'validation_failed', message: expect.stringContaining(`unknown query parameter ${name};`) });
    }
  });
});
