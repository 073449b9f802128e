import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const DAY = 86_400_000;
const create = (input: Record<string, unknown>, token?: string) => t.command('iam.api_key.create', { name: 'bot', scopes: ['audit.read'], ...input }, token);

describe('iam.api_key.create', () => {
  it('creates a key whose token works once and is shown once', async () => {
    const res = await create({ name: 'ci bot', scopes: ['audit.read', 'events.read'] });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_key_id', 'credential_id', 'expires_at', 'name', 'scopes', 'token']);
    expect(res.body.token).toMatch(/^bok_[0-9A-Z]{26}_[A-Za-z0-9_-]{43}$/);
    const who = await t.read('/internal/whoami', {}, res.body.token);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ actor_id: res.body.api_key_id, name: 'ci bot', scopes: ['audit.read', 'events.read'] });
  });

  it('expires in 90 days by default and never only when asked', async () => {
    const before = Date.now();
    const defaulted = await create({});
    expect(Date.parse(defaulted.body.expires_at) - before).toBeGreaterThanOrEqual(90 * DAY - 1000);
    expect(Date.parse(defaulted.body.expires_at) - before).toBeLessThan(90 * DAY + 60_000);
    const days = await create({ expires_in_days: 3650 });
    expect(Date.parse(days.body.expires_at) - before).toBeGreaterThanOrEqual(3650 * DAY - 1000);
    const never = await create({ never_expires: true });
    expect(never.body.expires_at).toBeNull();
    const both = await create({ never_expires: true, expires_in_days: 5 });
    expect(both.status).toBe(400);
    expect(both.body.error.kind).toBe('validation_failed');
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(121) }, 'name'],
    [{ name: 5 }, 'name'],
    [{ scopes: 'audit.read' }, 'scopes'],
    [{ scopes: ['no.such.scope'] }, 'scopes'],
    [{ scopes: ['audit.read', 'audit.read'] }, 'scopes'],
    [{ expires_in_days: 0 }, 'expires_in_days'],
    [{ expires_in_days: 3651 }, 'expires_in_days'],
    [{ expires_in_days: 1.5 }, 'expires_in_days'],
    [{ expires_in_days: 9007199254740992 }, 'expires_in_days'],
    [{ never_expires: 'yes' }, 'never_expires'],
    [{ surprise: true }, 'surprise'],
  ])('refuses %j naming %s', async (input, field) => {
    const res = await create(input);
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
    expect(res.body.error.message).toContain(field);
  });

  it('requires name and scopes', async () => {
    const res = await t.command('iam.api_key.create', {});
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/name is required/);
  });

  it('fences creation by subset-of-issuer, naming the scope', async () => {
    const issuer = await create({ scopes: ['admin.users.write', 'audit.read'] });
    const ok = await create({ scopes: ['audit.read'] }, issuer.body.token);
    expect(ok.status).toBe(200);
    const wider = await create({ scopes: ['audit.read', 'order.write'] }, issuer.body.token);
    expect(wider.status).toBe(403);
    expect(wider.body.error).toEqual({ kind: 'forbidden', message: 'missing scope order.write', scope: 'order.write' });
  });

  it('needs admin.users.write', async () => {
    const weak = await create({ scopes: ['audit.read'] });
    const res = await create({}, weak.body.token);
    expect(res.status).toBe(403);
    expect(res.body.error.kind).toBe('forbidden');
    expect(res.body.error.message).toContain('admin.users.write');
  });

  it('stores only a hash: the token cannot be found in the database', async () => {
    const res = await create({});
    const secret = res.body.token.split('_').slice(2).join('_');
    const rows = await t.sql(`SELECT * FROM identity.credential WHERE id = $1`, [res.body.credential_id]);
    expect(rows).toHaveLength(1);
    const dump = JSON.stringify(rows) + (rows[0].secret_hash as Buffer).toString('latin1');
    expect(dump).not.toContain(secret);
    expect(rows[0].secret_hash).toHaveLength(32);
    const events = await t.sql(`SELECT payload::text AS p FROM identity.outbox_event`);
    expect(events.map((e) => e.p).join()).not.toContain(secret);
  });
});

describe('authentication', () => {
  it('answers 401 unauthorized for a missing, malformed, unknown or tampered token', async () => {
    const good = (await create({})).body.token as string;
    const tampered = good.slice(0, -1) + (good.endsWith('A') ? 'B' : 'A');
    for (const token of [null, 'nope', `bok_01ARZ3NDEKTSV4RRFFQ69G5FAV_${'a'.repeat(43)}`, tampered]) {
      const res = await t.read('/internal/whoami', {}, token);
      expect(res.status).toBe(401);
      expect(res.body.error.kind).toBe('unauthorized');
    }
    const gql = await t.graphql('{ read_internal_whoami { actor_id } }', {}, tampered);
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].extensions.code).toBe('unauthorized');
  });

  it('refuses an expired generation', async () => {
    const key = await create({});
    await t.sql(`UPDATE identity.credential SET expires_at = now() - interval '1 second' WHERE id = $1`, [key.body.credential_id]);
    expect((await t.read('/internal/whoami', {}, key.body.token)).status).toBe(401);
  });
});

describe('iam.api_key.rotate', () => {
  const rotate = (input: Record<string, unknown>, token?: string) => t.command('iam.api_key.rotate', input, token);

  it('keeps the actor, returns the new token once, and gives old generations the overlap', async () => {
    const key = await create({ name: 'rotating' });
    const before = Date.now();
    const res = await rotate({ api_key_id: key.body.api_key_id, overlap_hours: 2 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['api_key_id', 'credential_id', 'expires_at', 'previous_expires_at', 'token']);
    expect(res.body.api_key_id).toBe(key.body.api_key_id);
    expect(res.body.credential_id).not.toBe(key.body.credential_id);
    expect(Date.parse(res.body.previous_expires_at) - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
    const oldWho = await t.read('/internal/whoami', {}, key.body.token);
    const newWho = await t.read('/internal/whoami', {}, res.body.token);
    expect(oldWho.status).toBe(200);
    expect(newWho.body.actor_id).toBe(oldWho.body.actor_id);
    expect(newWho.body.name).toBe('rotating');
  });

  it('defaults the overlap to 24 hours', async () => {
    const key = await create({});
    const before = Date.now();
    const res = await rotate({ api_key_id: key.body.api_key_id });
    const overlap = Date.parse(res.body.previous_expires_at) - before;
    expect(overlap).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(overlap).toBeLessThan(24 * 3_600_000 + 60_000);
  });

  it('cuts over at once with overlap_hours 0', async () => {
    const key = await create({});
    const res = await rotate({ api_key_id: key.body.api_key_id, overlap_hours: 0 });
    expect((await t.read('/internal/whoami', {}, key.body.token)).status).toBe(401);
    expect((await t.read('/internal/whoami', {}, res.body.token)).status).toBe(200);
  });

  it('kills previous generations at previous_expires_at', async () => {
    const key = await create({});
    await rotate({ api_key_id: key.body.api_key_id, overlap_hours: 1 });
    await t.sql(`UPDATE identity.credential SET expires_at = now() - interval '1 ms' WHERE id = $1`, [key.body.credential_id]);
    expect((await t.read('/internal/whoami', {}, key.body.token)).status).toBe(401);
  });

  it('honours expires_in_days and never_expires for the new generation', async () => {
    const key = await create({});
    const never = await rotate({ api_key_id: key.body.api_key_id, never_expires: true });
    expect(never.body.expires_at).toBeNull();
    const days = await rotate({ api_key_id: key.body.api_key_id, expires_in_days: 1 });
    expect(Date.parse(days.body.expires_at) - Date.now()).toBeLessThanOrEqual(DAY);
  });

  it.each([
    [{}, 'api_key_id'],
    [{ api_key_id: '' }, 'api_key_id'],
    [{ api_key_id: 'k', expires_in_days: 0 }, 'expires_in_days'],
    [{ api_key_id: 'k', expires_in_days: 3651 }, 'expires_in_days'],
    [{ api_key_id: 'k', overlap_hours: -1 }, 'overlap_hours'],
    [{ api_key_id: 'k', overlap_hours: 8761 }, 'overlap_hours'],
    [{ api_key_id: 'k', overlap_hours: '1' }, 'overlap_hours'],
    [{ api_key_id: 'k', never_expires: 1 }, 'never_expires'],
    [{ api_key_id: 'k', other: 1 }, 'other'],
  ])('refuses %j before looking anything up', async (input, field) => {
    const res = await rotate(input);
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
    expect(res.body.error.message).toContain(field);
  });

  it('accepts the bounds themselves', async () => {
    const key = await create({});
    expect((await rotate({ api_key_id: key.body.api_key_id, overlap_hours: 8760, expires_in_days: 3650 })).status).toBe(200);
    expect((await rotate({ api_key_id: key.body.api_key_id, overlap_hours: 0, expires_in_days: 1 })).status).toBe(200);
  });

  it('answers conflict for a key of another tenant or none at all, and for a revoked key', async () => {
    const other = await t.newTenant();
    const foreign = await t.command('iam.api_key.create', { name: 'theirs', scopes: [] }, other.token);
    for (const id of [foreign.body.api_key_id, 'key_missing']) {
      const res = await rotate({ api_key_id: id });
      expect(res.status).toBe(409);
      expect(res.body.error.kind).toBe('conflict');
    }
    const key = await create({});
    await t.command('iam.api_key.revoke', { api_key_id: key.body.api_key_id });
    const res = await rotate({ api_key_id: key.body.api_key_id });
    expect(res.status).toBe(409);
  });

  it('may not rotate a key with scopes the caller lacks', async () => {
    const admin = await create({ scopes: ['admin.users.write'] });
    const res = await rotate({ api_key_id: t.tenant.api_key_id }, admin.body.token);
    expect(res.status).toBe(403);
    expect(res.body.error.kind).toBe('forbidden');
  });
});

describe('iam.api_key.revoke', () => {
  it('kills every generation at once and is idempotent', async () => {
    const key = await create({});
    const rotated = await t.command('iam.api_key.rotate', { api_key_id: key.body.api_key_id, overlap_hours: 48 });
    const res = await t.command('iam.api_key.revoke', { api_key_id: key.body.api_key_id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ api_key_id: key.body.api_key_id, revoked: true });
    expect((await t.read('/internal/whoami', {}, key.body.token)).status).toBe(401);
    expect((await t.read('/internal/whoami', {}, rotated.body.token)).status).toBe(401);
    const again = await t.command('iam.api_key.revoke', { api_key_id: key.body.api_key_id });
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(res.body.revoked_at);
  });

  it('validates api_key_id and refuses other tenants', async () => {
    expect((await t.command('iam.api_key.revoke', {})).status).toBe(400);
    expect((await t.command('iam.api_key.revoke', { api_key_id: '' })).status).toBe(400);
    const other = await t.newTenant();
    const res = await t.command('iam.api_key.revoke', { api_key_id: other.api_key_id });
    expect(res.status).toBe(409);
    expect((await t.read('/internal/whoami', {}, other.token)).status).toBe(200);
  });
});
