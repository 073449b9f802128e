import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.01, burst: 40 }) });
});
afterAll(() => t.stop());

const auditOf = async (actor: string) => {
  await t.flushAudit();
  return (await t.read('/internal/audit', { actor, limit: '100' })).body;
};

describe('audit trail', () => {
  it("records the key's name on every call, refused ones included", async () => {
    const key = await t.command('iam.api_key.create', { name: 'auditor', scopes: ['audit.read'] });
    const token = key.body.token;
    expect((await t.read('/internal/whoami', {}, token)).status).toBe(200);
    expect((await t.command('iam.api_key.revoke', { api_key_id: 'x' }, token)).status).toBe(403);
    expect((await t.command('iam.api_key.create', { name: 'x', scopes: ['audit.read'], extra: 1 })).status).toBe(400);
    expect((await t.command('iam.api_key.revoke', { api_key_id: 'key_nope' })).status).toBe(409);
    expect((await t.graphql('{ read_internal_whoami { nope } }', {}, token)).status).toBe(400);

    const mine = await auditOf('auditor');
    expect(mine.items.map((i: any) => [i.operation, i.outcome])).toEqual([
      ['graphql', 'validation_failed'],
      ['iam.api_key.revoke', 'forbidden'],
      ['read.internal.whoami', 'ok'],
    ]);
    for (const item of mine.items) {
      expect(item).toMatchObject({ actor_id: key.body.api_key_id, actor_name: 'auditor' });
      expect(item.request_id).toMatch(/^req_/);
      expect(Date.parse(item.at)).toBeGreaterThan(Date.now() - 60_000);
    }
    const owner = await auditOf('owner');
    const outcomes = owner.items.map((i: any) => `${i.operation}:${i.outcome}`);
    expect(outcomes).toContain('iam.api_key.create:validation_failed');
    expect(outcomes).toContain('iam.api_key.revoke:conflict');
    expect(outcomes).toContain('iam.api_key.create:ok');
  });

  it('filters by operation, pages, and needs audit.read', async () => {
    const created = await t.read('/internal/audit', { operation: 'iam.api_key.create', limit: '1', page: '1' });
    expect(created.status).toBe(200);
    expect(created.body.items).toHaveLength(1);
    expect(created.body).toMatchObject({ page: 1, limit: 1 });
    expect(created.body.total).toBeGreaterThanOrEqual(2);
    const second = await t.read('/internal/audit', { operation: 'iam.api_key.create', limit: '1', page: '2' });
    expect(second.body.items[0]).not.toEqual(created.body.items[0]);
    const weak = await t.command('iam.api_key.create', { name: 'blind', scopes: [] });
    const refused = await t.read('/internal/audit', {}, weak.body.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('audit.read');
  });

  it('keeps tenants apart', async () => {
    const other = await t.newTenant();
    await t.read('/internal/whoami', {}, other.token);
    await t.flushAudit();
    const theirs = await t.read('/internal/audit', {}, other.token);
    expect(theirs.body.items.every((i: any) => i.actor_id === other.api_key_id)).toBe(true);
    const ours = await t.read('/internal/audit', { actor: other.api_key_id });
    expect(ours.body.total).toBe(0);
  });

  it('answers 429 rate_limited with Retry-After and RateLimit headers, and audits it', async () => {
    const key = await t.command('iam.api_key.create', { name: 'hasty', scopes: [] });
    const token = key.body.token;
    let last = await t.read('/internal/whoami', {}, token);
    expect(last.headers.get('ratelimit')).toMatch(/^limit=40, remaining=39, reset=\d+$/);
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await t.read('/internal/whoami', {}, token);
    expect(last.status).toBe(429);
    expect(last.body.error.kind).toBe('rate_limited');
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last.headers.get('ratelimit')).toMatch(/remaining=0/);
    const gql = await t.graphql('{ read_internal_whoami { actor_id } }', {}, token);
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('rate_limited');
    expect(gql.headers.get('retry-after')).toBeTruthy();
    // Counted per credential: another key is unaffected.
    expect((await t.read('/internal/whoami')).status).toBe(200);
    const trail = await auditOf('hasty');
    expect(trail.items.filter((i: any) => i.outcome === 'rate_limited').length).toBeGreaterThanOrEqual(2);
  });
});

describe('events', () => {
  it('hands an event on after commit, with its trail, and reads it back (unrouted: nothing consumes it yet)', async () => {
    const key = await t.command('iam.api_key.create', { name: 'evented', scopes: [] });
    const rotated = await t.command('iam.api_key.rotate', { api_key_id: key.body.api_key_id, overlap_hours: 1 });
    const relay = t.system.runtimes.get('identity')!.relay;
    await relay.kick();
    const res = await t.read('/internal/events', { type: 'iam.api_key.rotated' });
    expect(res.status).toBe(200);
    const event = res.body.items.find((e: any) => e.payload.api_key_id === key.body.api_key_id);
    expect(event).toMatchObject({ type: 'iam.api_key.rotated', status: 'unrouted', attempts: 1, actor_id: t.tenant.api_key_id });
    expect(event.payload).toEqual({
      api_key_id: key.body.api_key_id,
      credential_id: rotated.body.credential_id,
      expires_at: rotated.body.expires_at,
      previous_expires_at: rotated.body.previous_expires_at,
      overlap_hours: 1,
    });
    const trail = await t.sql(`SELECT attempt, outcome FROM identity.event_delivery_attempt WHERE event_id = $1`, [event.event_id]);
    expect(trail).toEqual([{ attempt: 1, outcome: 'unrouted' }]);
  });

  it('records nothing when the command is refused', async () => {
    const before = await t.sql(`SELECT count(*)::int AS n FROM identity.outbox_event`);
    await t.command('iam.api_key.rotate', { api_key_id: 'key_missing' });
    const after = await t.sql(`SELECT count(*)::int AS n FROM identity.outbox_event`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('needs events.read', async () => {
    const weak = await t.command('iam.api_key.create', { name: 'nosy', scopes: ['audit.read'] });
    const res = await t.read('/internal/events', {}, weak.body.token);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('events.read');
  });
});
