import { authenticatorOf } from '@backoffice/identity';
import { ACTOR_CONTEXT_HEADER, signContext, trustProxyOf, type RateDecision, type SubgraphRuntime } from '@backoffice/platform';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { serveSubgraph } from '../platform/src/serve-subgraph';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * A subgraph run alone, called as a router calls it: a forwarded bearer (or nothing) instead of the
 * gateway's signed context. Authenticated by identity, charged to the gateway's buckets, audited.
 */
class SpyLimiter extends MemoryRateLimiter {
  readonly keys: Array<[string, number]> = [];
  override consume(key: string, cost = 1): Promise<RateDecision> {
    this.keys.push([key, cost]);
    return super.consume(key, cost);
  }
}

let t: TestSystem;
const servers: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await t.stop();
});

async function serve(name: string, limiter: MemoryRateLimiter, trustProxy: string | false = false): Promise<string> {
  const runtime: SubgraphRuntime = t.system.runtimes.get(name)!;
  const authenticator = authenticatorOf(t.system.runtimes.get('identity')!);
  const server = await serveSubgraph(runtime, 0, {}, '127.0.0.1', {
    access: { authenticate: (token) => authenticator.authenticate(token), limiter },
    trustProxy,
  });
  servers.push(server);
  return server.url;
}

async function ask(url: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const WHOAMI = '{ read_internal_whoami { actor_id name } }';

describe('a subgraph answering a router', () => {
  it('takes a forwarded bearer: the key acts, with RateLimit headers, charged to its credential', async () => {
    const limiter = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const url = await serve('identity', limiter);
    const res = await ask(url, WHOAMI, { ...bearer(t.tenant.token), 'x-request-id': 'router-req-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { read_internal_whoami: { actor_id: t.tenant.api_key_id, name: 'owner' } } });
    expect(res.headers.get('ratelimit')).toMatch(/^limit=1000, remaining=\d+, reset=\d+$/);
    expect(res.headers.get('x-request-id')).toBe('router-req-1');
    const credential = (await ask(url, '{ read_internal_whoami { credential_id } }', bearer(t.tenant.token))).body.data.read_internal_whoami.credential_id;
    expect(limiter.keys).toContainEqual([`cred:${credential}`, 1]);
    // The read is audited with the key's name and the router's request id.
    await eventually(async () => {
      await t.flushAudit();
      const rows = await t.sql(`SELECT actor_name, operation, outcome FROM identity.audit_entry WHERE request_id = 'router-req-1'`);
      return rows.length ? rows : undefined;
    }).then((rows) => expect(rows).toEqual([{ actor_name: 'owner', operation: 'read.internal.whoami', outcome: 'ok' }]));
  });

  it('says nosniff on every answer: GraphQL, refusals, health, unknown paths', async () => {
    const url = await serve('identity', new SpyLimiter({ ratePerSecond: 1000, burst: 1000 }));
    const base = url.replace(/\/graphql$/, '');
    const answers = [
      await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(t.tenant.token) }, body: JSON.stringify({ query: WHOAMI }) }),
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Basic abc' },
        body: JSON.stringify({ query: WHOAMI }),
      }),
      await fetch(`${base}/readyz`),
      await fetch(`${base}/%3Cscript%3Ealert(1)%3C%2Fscript%3E`),
    ];
    expect(answers.map((a) => [a.status, a.headers.get('x-content-type-options')])).toEqual([
      [200, 'nosniff'],
      [401, 'nosniff'],
      [200, 'nosniff'],
      [404, 'nosniff'],
    ]);
  });

  it('refuses a bad or malformed token with 401 unauthorized, charged to the address', async () => {
    const limiter = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const url = await serve('identity', limiter);
    for (const authorization of [`Bearer ${t.tenant.token.slice(0, -4)}AAAA`, 'Basic abc']) {
      const res = await ask(url, WHOAMI, { authorization });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('unauthorized');
      expect(res.body.data).toBeUndefined();
      expect(res.headers.get('ratelimit')).toMatch(/^limit=1000/);
    }
    expect(limiter.keys.filter(([key]) => key === 'authfail:127.0.0.1')).toHaveLength(2);
  });

  it('lets a call with no credential run for nobody: public reads work, internal ones are unauthorized', async () => {
    const limiter = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const url = await serve('catalog', limiter);
    const stores = await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [t.tenant.store_id]);
    const pub = await ask(url, `{ read_products(input: { store: "${stores[0].handle}" }) { total } }`);
    expect(pub.body).toEqual({ data: { read_products: { total: 0 } } });
    const internal = await ask(url, '{ catalog_products { total } }');
    expect(internal.body.errors[0].extensions.code).toBe('unauthorized');
    expect(limiter.keys.map(([key]) => key)).toEqual(['ip:127.0.0.1', 'ip:127.0.0.1']);
  });

  it('charges a fetch as the gateway charges a document (a token per root field), and refuses past the bucket with 429, audited', async () => {
    const limiter = new SpyLimiter({ ratePerSecond: 0.001, burst: 3 });
    const url = await serve('identity', limiter);
    const created = (await t.command('iam.api_key.create', { name: 'router-limited', scopes: [] })).body;
    const two = await ask(url, '{ a: read_internal_whoami { actor_id } b: read_internal_whoami { name } }', {
      ...bearer(created.token),
      'x-request-id': 'router-two',
    });
    expect(two.status).toBe(200);
    // The header reports the bucket after the fetch's whole charge (two root fields of three tokens).
    expect(two.headers.get('ratelimit')).toMatch(/^limit=3, remaining=1, /);
    expect(limiter.keys).toEqual([
      ['authfail:127.0.0.1', 1],
      [`cred:${created.credential_id}`, 1],
      [`cred:${created.credential_id}`, 1],
    ]);
    // One token left: admitted, but the second root field cannot be paid (refused before it runs).
    const short = await ask(url, '{ a: read_internal_whoami { actor_id } b: read_internal_whoami { name } }', {
      ...bearer(created.token),
      'x-request-id': 'router-429a',
    });
    expect(short.status).toBe(429);
    expect(short.body.errors[0].extensions.code).toBe('rate_limited');
    expect(short.body.data).toBeUndefined();
    // None left: refused at admission.
    const refused = await ask(url, WHOAMI, { ...bearer(created.token), 'x-request-id': 'router-429b' });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await eventually(async () => {
      await t.flushAudit();
      const found = await t.sql(`SELECT actor_name, operation, outcome FROM identity.audit_entry WHERE request_id LIKE 'router-429%' ORDER BY request_id`);
      return found.length === 2 ? found : undefined;
    });
    expect(rows).toEqual([
      { actor_name: 'router-limited', operation: 'graphql', outcome: 'rate_limited' },
      { actor_name: 'router-limited', operation: 'graphql', outcome: 'rate_limited' },
    ]);
  });

  it("charges nothing for the gateway's signed context, and never downgrades a forged one", async () => {
    const limiter = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const url = await serve('identity', limiter);
    const who = (await t.read('/internal/whoami')).body;
    const actor = { tenant_id: who.tenant_id, api_key_id: who.actor_id, credential_id: who.credential_id, name: 'owner', scopes: who.scopes, is_owner: true };
    const signed = await ask(url, WHOAMI, { [ACTOR_CONTEXT_HEADER]: signContext(t.contextSecret, { actor, request_id: 'signed-1' }) });
    expect(signed.body.data.read_internal_whoami.actor_id).toBe(who.actor_id);
    const forged = await ask(url, WHOAMI, { [ACTOR_CONTEXT_HEADER]: signContext('x'.repeat(40), { actor, request_id: 'forged' }), ...bearer(t.tenant.token) });
    expect(forged.body.errors[0].extensions.code).toBe('unauthorized');
    expect(limiter.keys).toEqual([]);
  });

  it('believes x-forwarded-for only from a trusted router (TRUST_PROXY)', async () => {
    const untrusting = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const trusting = new SpyLimiter({ ratePerSecond: 1000, burst: 1000 });
    const plain = await serve('identity', untrusting);
    const behindRouter = await serve('identity', trusting, trustProxyOf('1') as string);
    // The client wrote the first entry; the router appended the address it saw.
    const forwarded = { 'x-forwarded-for': '198.51.100.9, 203.0.113.7' };
    await ask(plain, WHOAMI, forwarded);
    await ask(behindRouter, WHOAMI, forwarded);
    expect(untrusting.keys.map(([key]) => key)).toEqual(['ip:127.0.0.1']);
    expect(trusting.keys.map(([key]) => key)).toEqual(['ip:203.0.113.7']);
  });

  it('reads TRUST_PROXY', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('')).toBe(false);
    expect(trustProxyOf('0')).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('1')).toBe('loopback,linklocal,uniquelocal');
    expect(trustProxyOf('true')).toBe('loopback,linklocal,uniquelocal');
    expect(trustProxyOf('10.0.0.5, 10.1.0.0/16')).toBe('10.0.0.5, 10.1.0.0/16');
  });
});
