import { randomBytes } from 'node:crypto';
import { MemoryRateLimiter, RedisRateLimiter } from '../platform/src/rate-limit';
import { closeLoginLimiters, LOGIN_LIMITS } from '../subgraphs/identity/src/domain/operators';
import { eventually, mcpClient, startTestSystem, type TestSystem, toolErrorBody } from './helpers';

const REDIS_URL = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';

describe('token bucket', () => {
  it('allows the burst, then refills at the configured rate (memory)', async () => {
    const limiter = new MemoryRateLimiter({ ratePerSecond: 20, burst: 3 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await limiter.consume('k')).allowed);
    expect(results).toEqual([true, true, true, false]);
    expect((await limiter.consume('other')).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, 120));
    expect((await limiter.consume('k')).allowed).toBe(true);
  });

  it('is shared between gateways through Redis', async () => {
    const prefix = `backoffice:test:${randomBytes(4).toString('hex')}:`;
    const config = { ratePerSecond: 0.01, burst: 4 };
    const a = new RedisRateLimiter(REDIS_URL, config, prefix);
    const b = new RedisRateLimiter(REDIS_URL, config, prefix);
    try {
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push((await a.consume('cred:1')).allowed, (await b.consume('cred:1')).allowed);
      expect(seen).toEqual([true, true, true, true, false, false]);
      const refused = await b.consume('cred:1');
      expect(refused).toMatchObject({ allowed: false, limit: 4, remaining: 0 });
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect((await a.consume('cred:2')).allowed).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refunds tokens, never above the burst (memory and Redis)', async () => {
    const config = { ratePerSecond: 0.01, burst: 4 };
    const redis = new RedisRateLimiter(REDIS_URL, config, `backoffice:test:${randomBytes(4).toString('hex')}:`);
    try {
      for (const limiter of [new MemoryRateLimiter(config), redis]) {
        await limiter.refund('fresh', 3); // an absent bucket is full: nothing to give back
        expect((await limiter.consume('fresh', 0)).remaining).toBe(4);
        await limiter.consume('k', 3);
        expect((await limiter.consume('k', 0)).remaining).toBe(1);
        await limiter.refund('k', 2);
        expect((await limiter.consume('k', 0)).remaining).toBe(3);
        await limiter.refund('k', 5);
        expect((await limiter.consume('k', 0)).remaining).toBe(4);
        expect(limiter.health()).toBe('ok');
      }
    } finally {
      await redis.close();
    }
  });

  it('limits through the gateway with Redis: 429 rate_limited per credential', async () => {
    const prefix = `backoffice:test:${randomBytes(4).toString('hex')}:`;
    const t = await startTestSystem({ limiter: new RedisRateLimiter(REDIS_URL, { ratePerSecond: 0.01, burst: 5 }, prefix) });
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await t.read('/internal/whoami')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const limited = await t.read('/internal/whoami');
      expect(limited.body.error.kind).toBe('rate_limited');
      expect(limited.headers.get('retry-after')).toBeTruthy();
    } finally {
      await t.stop();
    }
  });
});

describe('through the gateway', () => {
  it('charges a GraphQL document one token per root field, and caps its root fields', async () => {
    const t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.01, burst: 8 }) });
    try {
      const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `w${i}: read_internal_whoami { actor_id }`).join(' ')} }`;
      const three = await t.graphql(aliases(3));
      expect(three.status).toBe(200);
      expect(Object.keys(three.body.data)).toHaveLength(3);
      const six = await t.graphql(aliases(6));
      expect(six.status).toBe(429);
      expect(six.body.errors[0].extensions.code).toBe('rate_limited');
      const tooMany = await t.graphql(aliases(21));
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors[0].extensions.code).toBe('validation_failed');
    } finally {
      await t.stop();
    }
  });

  it('reports in RateLimit what remains after the whole document was charged', async () => {
    const t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.001, burst: 100 }) });
    try {
      const twenty = `{ ${Array.from({ length: 20 }, (_, i) => `w${i}: read_internal_whoami { actor_id }`).join(' ')} }`;
      const remaining = async (query: string) => (await t.graphql(query)).headers.get('ratelimit');
      expect(await remaining(twenty)).toMatch(/^limit=100, remaining=80, /);
      expect(await remaining('{ read_internal_whoami { actor_id } }')).toMatch(/^limit=100, remaining=79, /);
      expect(await remaining(twenty)).toMatch(/^limit=100, remaining=59, /);
      // An MCP batch likewise: two messages, two tokens.
      const batch = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${t.tenant.token}` },
        body: JSON.stringify([1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read.internal.whoami', arguments: {} } }))),
      });
      expect(batch.headers.get('ratelimit')).toMatch(/^limit=100, remaining=57, /);
      expect(await remaining(twenty)).toMatch(/remaining=37, /);
      expect(await remaining(twenty)).toMatch(/remaining=17, /);
      // A document the bucket cannot pay: 429 saying what is left (the admission's token spent, the rest not).
      const refused = await t.graphql(twenty);
      expect([refused.status, refused.headers.get('ratelimit')]).toEqual([429, expect.stringMatching(/^limit=100, remaining=16, /)]);
    } finally {
      await t.stop();
    }
  });

  it('throttles failed authentications per address before looking the token up', async () => {
    const t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.01, burst: 5 }) });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.read('/internal/whoami', {}, `bok_01ARZ3NDEKTSV4RRFFQ69G5FA${i}_${'x'.repeat(43)}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await t.stop();
    }
  });
});

describe('failed authentications', () => {
  const badToken = (i: number) => `bok_01ARZ3NDEKTSV4RRFFQ69G${String(i).padStart(4, '0')}_${'x'.repeat(43)}`;

  it('reserve a failure token before the lookup: guesses sent at once are throttled like guesses in a row; a valid token gets its reservation back', async () => {
    const prefix = `backoffice:test:${randomBytes(4).toString('hex')}:`;
    const limiter = new RedisRateLimiter(REDIS_URL, { ratePerSecond: 0.01, burst: 100 }, prefix);
    const t = await startTestSystem({ limiter });
    const failures = async () => (await limiter.consume('authfail:127.0.0.1', 0)).remaining;
    try {
      // A 401 carries the failure bucket's RateLimit headers.
      for (let i = 0; i < 10; i++) {
        const refused = await t.read('/internal/whoami', {}, badToken(i));
        expect(refused.status).toBe(401);
        expect(refused.body.error.kind).toBe('unauthorized');
        expect(refused.headers.get('ratelimit')).toMatch(new RegExp(`^limit=100, remaining=${99 - i}, reset=\\d+$`));
        expect(refused.headers.get('ratelimit-policy')).toMatch(/^100;w=\d+$/);
      }
      const malformed = await t.read('/internal/whoami', {}, 'not-a-bearer-token');
      expect(malformed.status).toBe(401);
      expect(malformed.headers.get('ratelimit')).toMatch(/^limit=100, remaining=89, /);
      expect(await failures()).toBe(89);
      // Without a credential: 401 too, with the headers of the address's bucket (the failure bucket untouched).
      const anonymous = await t.read('/internal/whoami', {}, null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('ratelimit')).toMatch(/^limit=100, remaining=99, /);
      expect(anonymous.headers.get('ratelimit-policy')).toMatch(/^100;w=\d+$/);
      expect(await failures()).toBe(89);

      // A valid token while the failure bucket is not empty: served, and the reservation is refunded.
      const ok = await t.read('/internal/whoami');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit')).toMatch(/^limit=100, /);
      await eventually(async () => ((await failures()) === 89 ? true : undefined));

      // 300 bad tokens at once: no more 401s than the bucket holds, the rest 429.
      const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => t.read('/internal/whoami', {}, badToken(100 + i)).then((r) => r.status)));
      const count = (status: number) => statuses.filter((s) => s === status).length;
      expect(count(401)).toBe(89);
      expect(count(429)).toBe(300 - 89);
      const limited = await t.read('/internal/whoami', {}, badToken(999));
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();
      expect(limited.headers.get('ratelimit')).toMatch(/^limit=100, remaining=0, /);
      // An empty failure bucket refuses the address before any lookup, valid tokens included.
      expect((await t.read('/internal/whoami')).status).toBe(429);
    } finally {
      await t.stop();
    }
  });

  it('300 bad tokens at once with the per-process limiter: at most the burst answered 401', async () => {
    const t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.01, burst: 100 }) });
    try {
      const statuses = await Promise.all(Array.from({ length: 300 }, (_, i) => t.read('/internal/whoami', {}, badToken(i)).then((r) => r.status)));
      expect(statuses.filter((s) => s === 401)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(200);
    } finally {
      await t.stop();
    }
  });
});

describe('every 429 names the limit that refused', () => {
  /** The refusal's headers: Retry-After a whole number of seconds, at least 1; RateLimit and its policy of the refusing limit. */
  const refusalHeaders = (res: { headers: Headers }) => ({
    retryAfter: res.headers.get('retry-after'),
    rateLimit: res.headers.get('ratelimit'),
    policy: res.headers.get('ratelimit-policy'),
  });
  const refusedBy = (limit: number, window: number) => ({
    retryAfter: expect.stringMatching(/^[1-9]\d*$/),
    rateLimit: expect.stringMatching(new RegExp(`^limit=${limit}, remaining=0, reset=[1-9]\\d*$`)),
    policy: `${limit};w=${window}`,
  });

  let t: TestSystem;
  let store: string;
  beforeAll(async () => {
    // The general bucket (100, one a second) must not be what refuses.
    t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 1, burst: 100 }) });
    store = (await t.sql(`SELECT handle FROM identity.store WHERE tenant_id = $1`, [t.tenant.tenant_id]))[0].handle;
  });
  beforeEach(() => closeLoginLimiters());
  afterAll(async () => {
    await closeLoginLimiters();
    await t?.stop();
  });

  it('the login verification limit (30 per address, one per 30 s): REST, the session route, GraphQL and MCP', async () => {
    const input = { store, email: 'nobody@example.com', code: '000000' };
    const signIn = () =>
      fetch(`${t.url}/v1/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body: JSON.stringify(input) });
    const spent = await Promise.all(Array.from({ length: LOGIN_LIMITS.perAddress.burst }, () => signIn()));
    expect(spent.map((res) => res.status)).toEqual(spent.map(() => 401));

    const session = await signIn();
    expect(session.status).toBe(429);
    expect(refusalHeaders(session)).toEqual(refusedBy(30, 900));
    const body = (await session.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ kind: 'rate_limited', retry_after: Number(session.headers.get('retry-after')) });

    const rest = await t.command('auth.login_code.verify', input, null);
    expect(rest.status).toBe(429);
    expect(refusalHeaders(rest)).toEqual(refusedBy(30, 900));
    expect(rest.body.error.retry_after).toBeGreaterThanOrEqual(1);

    // GraphQL: a field error within a 200 answer, whose extensions say when and which limit.
    const gql = await t.graphql('mutation ($input: AuthLoginCodeVerifyInput!) { auth_login_code_verify(input: $input) { token } }', { input }, null);
    expect(gql.body.errors[0].message).toMatch(/retry after [1-9]\d*s/);
    expect(gql.body.errors[0].extensions).toEqual({
      code: 'rate_limited',
      reason: 'rate_limited',
      retry_after: expect.any(Number),
      rate_limit: { limit: 30, remaining: 0, reset: expect.any(Number), window: 900 },
    });

    // MCP: the tool's error body, as REST's.
    const client = await mcpClient(t.url, null);
    try {
      const refused = toolErrorBody(await client.callTool({ name: 'auth.login_code.verify', arguments: input }));
      expect(refused.error).toMatchObject({ kind: 'rate_limited', retry_after: expect.any(Number), rate_limit: { limit: 30, remaining: 0 } });
      expect(refused.error.retry_after).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
    }
  });

  it('the login code limit per email (5, one per 3 minutes)', async () => {
    const request = () => t.command('auth.login_code.request', { store, email: 'flood@example.com' }, null);
    for (let i = 0; i < LOGIN_LIMITS.perEmail.burst; i++) expect((await request()).status).toBe(200);
    const refused = await request();
    expect(refused.status).toBe(429);
    expect(refusalHeaders(refused)).toEqual(refusedBy(5, 900));
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(100);
  });

  it('the general bucket, and a GraphQL document it cannot pay for', async () => {
    const tight = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.01, burst: 3 }) });
    try {
      const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `w${i}: read_internal_whoami { actor_id }`).join(' ')} }`;
      const costly = await tight.graphql(aliases(5));
      expect(costly.status).toBe(429);
      // What is left stays said (the admission's token spent, the document's rest not): 2 of 3.
      expect(refusalHeaders(costly)).toEqual({ ...refusedBy(3, 300), rateLimit: expect.stringMatching(/^limit=3, remaining=2, reset=[1-9]\d*$/) });
      expect(costly.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', retry_after: Number(costly.headers.get('retry-after')) });
      for (let i = 0; i < 2; i++) expect((await tight.read('/internal/whoami')).status).toBe(200);
      const rest = await tight.read('/internal/whoami');
      expect(rest.status).toBe(429);
      expect(refusalHeaders(rest)).toEqual(refusedBy(3, 300));
    } finally {
      await tight.stop();
    }
  });
});
