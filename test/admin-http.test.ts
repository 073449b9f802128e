import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { loginCodeHandoff } from '@backoffice/identity';
import type { CreatedTenant } from '@backoffice/identity';
import { adminOriginsOf, CORS_MAX_AGE_SECONDS } from '../gateway/src/cors';
import { loadTrustedDocuments } from '../gateway/src/trusted-documents';
import { closeLoginLimiters } from '../subgraphs/identity/src/domain/operators';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * What the admin front-end relies on over HTTP: CORS for its origin (in a real Chromium), the same
 * 401 for a missing and a wrong credential, GraphQL over HTTP's statuses, and trusted documents for
 * operator sessions (TRUSTED_DOCUMENTS, in the format of GraphQL Code Generator's client preset).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installed = existsSync(CHROMIUM) || process.env.CI === 'true';
const browserIt = installed ? it : it.skip;

const WHOAMI = 'query Whoami { read_internal_whoami { actor_id name } }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A page server standing for the admin front-end at an origin of its own. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>admin</title>'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let t: TestSystem;
let listed: { server: Server; origin: string };
let other: { server: Server; origin: string };
let folder: string;
let shop: CreatedTenant;
let session: string;

async function operatorSession(): Promise<string> {
  const store = 'admin-http-shop';
  shop = await t.newTenant(store);
  await closeLoginLimiters();
  const email = 'operator@admin.test';
  expect((await t.command('admin_user.invite', { email, name: 'Operator', role: 'staff' }, shop.token)).status).toBe(200);
  expect((await t.command('auth.login_code.request', { store, email }, null)).status).toBe(200);
  const [event] = await t.sql(`SELECT payload FROM identity.outbox_event WHERE type = 'auth.login_code' AND payload->>'email' = $1`, [email]);
  const mail = await loginCodeHandoff(t.system.runtimes.get('identity')!).open(event.payload.login_code_id);
  const verified = await t.command('auth.login_code.verify', { store, email, code: mail!.code }, null);
  expect(verified.status).toBe(200);
  return verified.body.token;
}

beforeAll(async () => {
  [listed, other] = await Promise.all([pageServer(), pageServer()]);
  folder = mkdtempSync(join(tmpdir(), 'trusted-'));
  writeFileSync(join(folder, 'persisted-documents.json'), JSON.stringify({ [sha256(WHOAMI)]: WHOAMI }));
  const saved = { ...process.env };
  process.env.ADMIN_ORIGINS = `${listed.origin}, http://localhost:5173`;
  process.env.TRUSTED_DOCUMENTS = join(folder, 'persisted-documents.json');
  try {
    t = await startTestSystem();
  } finally {
    process.env = saved;
  }
  session = await operatorSession();
}, 60_000);
afterAll(async () => {
  await t?.stop();
  listed?.server.close();
  other?.server.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('CORS for ADMIN_ORIGINS', () => {
  const preflight = (origin: string, path = '/graphql') =>
    fetch(`${t.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });

  it("answers a listed origin's preflight of /graphql: 204, methods, headers, credentials, max-age, Vary: Origin", async () => {
    const res = await preflight(listed.origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(listed.origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    expect(res.headers.get('access-control-allow-headers')?.split(', ')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-request-id']));
    expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS));
    expect(res.headers.get('vary')).toMatch(/\borigin\b/i);
  });

  it("keeps today's refusal for an origin not listed (Apollo's CSRF 400), with no CORS header", async () => {
    const res = await preflight(other.origin);
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/\borigin\b/i);
  });

  it('marks the actual answer for a listed origin and exposes the rate and request id headers', async () => {
    const res = await post({ query: WHOAMI }, { origin: listed.origin, ...bearer(t.tenant.token) });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(listed.origin);
    expect(res.headers.get('access-control-expose-headers')?.split(', ')).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'x-request-id']));
    expect(res.headers.get('vary')).toMatch(/\borigin\b/i);
    // Refusals too, or the admin could not read why (a session to renew, a body to fix).
    const refusals = [
      await post({ query: WHOAMI }, { origin: listed.origin }),
      await fetch(`${t.url}/graphql`, { method: 'POST', headers: { origin: listed.origin, 'content-type': 'application/json' }, body: '{' }),
    ];
    expect(refusals.map((r) => [r.status, r.headers.get('access-control-allow-origin')])).toEqual([
      [401, listed.origin],
      [400, listed.origin],
    ]);
  });

  it('gives REST and the other routes no CORS, and their answers do not vary by Origin', async () => {
    const read = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: { origin: listed.origin, ...bearer(t.tenant.token) } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(read.headers.get('vary') ?? '').not.toMatch(/\borigin\b/i);
    const options = await preflight(listed.origin, '/v1/commands/order.mark_paid');
    expect(options.status).toBe(404);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a malformed ADMIN_ORIGINS entry at start, naming it', () => {
    expect(adminOriginsOf(undefined)).toEqual([]);
    expect(adminOriginsOf('https://admin.example.com,http://localhost:5173')).toEqual(['https://admin.example.com', 'http://localhost:5173']);
    expect(() => adminOriginsOf('https://admin.example.com/')).toThrow(
      /"https:\/\/admin.example.com\/" is not an origin.*did you mean https:\/\/admin.example.com\?/,
    );
    expect(() => adminOriginsOf('*')).toThrow(/"\*" is not an origin/);
    expect(() => adminOriginsOf('ftp://admin.example.com')).toThrow(/is not an origin/);
  });

  browserIt(
    'lets a page of a listed origin read /graphql with a bearer token; a page of another origin fails with a CORS error',
    async () => {
      const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
      try {
        const ask = async (origin: string) => {
          const page = await (await browser.newContext()).newPage();
          await page.goto(origin);
          return page.evaluate(
            async ({ url, token, query }) => {
              try {
                const res = await fetch(`${url}/graphql`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
                  body: JSON.stringify({ query }),
                });
                return { status: res.status, body: await res.json(), rate: res.headers.get('ratelimit'), id: res.headers.get('x-request-id') };
              } catch (error) {
                return { failed: String(error) };
              }
            },
            { url: t.url, token: t.tenant.token, query: WHOAMI },
          );
        };
        const allowed = (await ask(listed.origin)) as any;
        expect(allowed.status).toBe(200);
        expect(allowed.body.data.read_internal_whoami.actor_id).toBe(t.tenant.api_key_id);
        expect(allowed.rate).toMatch(/^limit=/);
        expect(allowed.id).toMatch(/^req_/);
        expect(await ask(other.origin)).toEqual({ failed: 'TypeError: Failed to fetch' });
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});

describe('GraphQL over HTTP statuses', () => {
  const ACCEPT = { accept: 'application/graphql-response+json' };

  it('answers a missing credential as a wrong one where one is needed: 401 with the same body shape', async () => {
    const none = await post({ query: WHOAMI });
    const wrong = await post({ query: WHOAMI }, bearer('bok_nope_nope'));
    for (const res of [none, wrong]) {
      expect(res.status).toBe(401);
      const body = (await res.json()) as any;
      expect(Object.keys(body)).toEqual(['errors']);
      expect(body.errors).toEqual([{ message: expect.any(String), extensions: { code: 'unauthorized' } }]);
    }
    expect((await post({ query: WHOAMI }, ACCEPT)).status).toBe(401);
  });

  it('still serves public fields without a credential', async () => {
    const res = await post({ query: `{ read_products(input: {store: "${t.tenant.store_id}"}) { total } }` }, ACCEPT);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.read_products.total).toBe(0);
  });

  it.each([
    ['a document that does not parse', { query: '{ read_internal_whoami {' }],
    ['a document that does not validate', { query: '{ no_such_field }' }],
    ['variables that do not coerce', { query: 'query Q($s: Int!) { read_internal_whoami { actor_id } }', variables: { s: 'x' } }],
  ])('answers %s with 400 and the media type asked for', async (_case, body) => {
    const res = await post(body, { ...ACCEPT, ...bearer(t.tenant.token) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    expect(((await res.json()) as any).errors[0].extensions.code).toBe('validation_failed');
  });

  it('answers 200 when execution ran, with partial data beside the field errors', async () => {
    const res = await post(
      { query: 'mutation { a: __typename b: iam_api_key_revoke(input: {api_key_id: "key_none"}) { api_key_id } }' },
      { ...ACCEPT, ...bearer(t.tenant.token) },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.data).toEqual({ a: 'Mutation', b: null });
    expect(body.errors[0].extensions.code).toBe('conflict');
  });
});

describe('trusted documents (TRUSTED_DOCUMENTS)', () => {
  const hash = sha256(WHOAMI);

  it.each([
    ['documentId with sha256:', { documentId: `sha256:${hash}` }],
    ['a bare documentId', { documentId: hash }],
    ["Apollo's persistedQuery extension", { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } }],
  ])('runs a listed document named by %s for a session', async (_case, body) => {
    const res = await post(body, bearer(session));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.read_internal_whoami.name).toBe('Operator');
  });

  it('runs a listed document named in a GET, by documentId or by the APQ extension', async () => {
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });
    for (const search of [`documentId=sha256:${hash}`, `extensions=${encodeURIComponent(extensions)}`]) {
      // A GET needs a header a form cannot send (Apollo's CSRF prevention).
      const res = await fetch(`${t.url}/graphql?${search}`, { headers: { ...bearer(session), 'apollo-require-preflight': 'true' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.read_internal_whoami.name).toBe('Operator');
    }
  });

  it('refuses a free document from a session (403 forbidden), and names an unknown hash PersistedQueryNotFound', async () => {
    const free = await post({ query: '{ read_internal_whoami { actor_id } }' }, bearer(session));
    expect(free.status).toBe(403);
    const refused = (await free.json()) as any;
    expect(refused.errors).toEqual([{ message: expect.stringMatching(/only the admin front-end's trusted documents/), extensions: { code: 'forbidden' } }]);
    for (const body of [{ documentId: `sha256:${'0'.repeat(64)}` }, { extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } } }]) {
      const res = await post(body, bearer(session));
      expect((await res.json()) as any).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
    }
  });

  it('lets an API key send any document, and the REST shim its own, whoever calls', async () => {
    const free = await post({ query: '{ read_internal_whoami { actor_id } }' }, bearer(t.tenant.token));
    expect(((await free.json()) as any).data.read_internal_whoami.actor_id).toBe(t.tenant.api_key_id);
    const listedById = await post({ documentId: `sha256:${hash}` }, bearer(t.tenant.token));
    expect(((await listedById.json()) as any).data.read_internal_whoami.actor_id).toBe(t.tenant.api_key_id);
    const rest = await t.read('/internal/whoami', {}, session);
    expect(rest.status).toBe(200);
    expect(rest.body.name).toBe('Operator');
  });

  it('refuses at start a manifest whose hash is not its text', () => {
    const path = join(folder, 'bad.json');
    writeFileSync(path, JSON.stringify({ [sha256('other')]: WHOAMI }));
    expect(() => loadTrustedDocuments(path)).toThrow(/is not the sha256 \(lower-case hex\) of its text/);
    writeFileSync(path, '[]');
    expect(() => loadTrustedDocuments(path)).toThrow(/must be a JSON object/);
  });
});
