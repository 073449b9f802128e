import { randomBytes } from 'node:crypto';
import { MemoryRateLimiter, RedisRateLimiter } from '../gateway/src/rate-limit';
import { startTestSystem } from './helpers';

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
