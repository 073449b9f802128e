import { webhookSecretKey } from '@backoffice/identity';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectionBroker, Vault } from '@backoffice/content';
import type { CreatedTenant } from '@backoffice/identity';
import { vaultKey, withoutVariableValue } from '@backoffice/platform';
import { createLogger } from '../platform/src/observability/logger';
import { decodeVaultKey } from '../platform/src/vault-key';
import { mcpClient, startTestSystem, type Response, type TestSystem } from './helpers';

/**
 * The write-only vault over real HTTP on real PostgreSQL: extension.connection.set (reference),
 * its revoke and listing (extensions), owner gating, bounds, isolation, no events, the broker as
 * the one reader, and the secret found nowhere but as ciphertext.
 */
const pinoLines: string[] = [];
const destination = { write: (chunk: string) => void pinoLines.push(chunk) };

let t: TestSystem;
let shop: CreatedTenant;
/** Every answer the tests got, to grep for secrets. */
const answers: Array<{ status: number; headers: Record<string, string>; body: unknown }> = [];
const keep = <T extends Response>(res: T): T => {
  answers.push({ status: res.status, headers: Object.fromEntries(res.headers.entries()), body: res.body });
  return res;
};

beforeAll(async () => {
  t = await startTestSystem({ logger: createLogger({ level: 'debug', destination }) });
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const call = async (name: string, input: unknown, token: string | null = shop.token) => keep(await t.command(name, input, token));
const ok = async (name: string, input: unknown, token: string | null = shop.token) => {
  const res = await call(name, input, token);
  if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const refused = async (res: Promise<{ status: number; body: any }>, status: number, kind: string) => {
  const r = await res;
  expect([r.status, r.body?.error?.kind]).toEqual([status, kind]);
  return r.body;
};
const list = async (query: Record<string, string> = {}, token = shop.token) => keep(await t.read('/internal/extensions/connections', query, token));
const keyWith = async (name: string, ...scopes: string[]) => (await ok('iam.api_key.create', { name, scopes })).token as string;
const broker = () => connectionBroker(t.system.runtimes.get('content')!.dataSource, vaultOfSystem());
/** The vault the running system was given (its generated key under DATA_DIR, or VAULT_KEY). */
const vaultOfSystem = () => new Vault(vaultKey());

describe('extension.connection.set', () => {
  it('arms a credential write-only: the open result says what was armed, setting again replaces it', async () => {
    const before = Date.now();
    const armed = await ok('extension.connection.set', { extension_id: 'ext.mailer', connection_name: 'smtp', credential: { password: 'p-1', user: 'u' } });
    expect(armed).toEqual({
      extension_id: 'ext.mailer',
      connection_name: 'smtp',
      armed: true,
      credential_keys: ['password', 'user'],
      updated_at: expect.any(String),
    });
    expect(Date.parse(armed.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    const binding = { tenant_id: shop.tenant_id, extension_id: 'ext.mailer', connection_name: 'smtp' };
    expect(await broker()(binding)).toEqual({ password: 'p-1', user: 'u' });

    const again = await ok('extension.connection.set', { extension_id: 'ext.mailer', connection_name: 'smtp', credential: { token: 't-2' } });
    expect(again.credential_keys).toEqual(['token']);
    expect(await broker()(binding)).toEqual({ token: 't-2' });
    const rows = await t.sql(`SELECT credential_sealed, credential_keys, created_at, updated_at FROM content.extension_connection WHERE tenant_id = $1`, [
      shop.tenant_id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].credential_sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(rows[0].updated_at.getTime()).toBeGreaterThanOrEqual(rows[0].created_at.getTime());

    // `credential` defaults to {}.
    const empty = await ok('extension.connection.set', { extension_id: 'ext.mailer', connection_name: 'webhook' });
    expect(empty.credential_keys).toEqual([]);
    expect(await broker()({ ...binding, connection_name: 'webhook' })).toEqual({});
    expect(await broker()({ ...binding, connection_name: 'none' })).toBeNull();
  });

  it('seals with a random IV per write, bound to its tenant, extension and connection', async () => {
    await ok('extension.connection.set', { extension_id: 'ext.a', connection_name: 'one', credential: { k: 'same' } });
    const [{ credential_sealed: first }] = await t.sql(`SELECT credential_sealed FROM content.extension_connection WHERE tenant_id = $1`, [shop.tenant_id]);
    await ok('extension.connection.set', { extension_id: 'ext.a', connection_name: 'one', credential: { k: 'same' } });
    const [{ credential_sealed: second }] = await t.sql(`SELECT credential_sealed FROM content.extension_connection WHERE tenant_id = $1`, [shop.tenant_id]);
    expect(second).not.toBe(first);
    expect(second.split('.')[1]).not.toBe(first.split('.')[1]);

    // A ciphertext moved to another row does not open there; an altered one does not open at all.
    await ok('extension.connection.set', { extension_id: 'ext.a', connection_name: 'two', credential: { k: 'other' } });
    await t.sql(`UPDATE content.extension_connection SET credential_sealed = $2 WHERE tenant_id = $1 AND connection_name = 'two'`, [shop.tenant_id, second]);
    await expect(broker()({ tenant_id: shop.tenant_id, extension_id: 'ext.a', connection_name: 'two' })).rejects.toThrow(/does not open/);
    const [v, iv, tag, body] = second.split('.');
    const flipped = `${v}.${iv}.${tag}.${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    await t.sql(`UPDATE content.extension_connection SET credential_sealed = $2 WHERE tenant_id = $1 AND connection_name = 'one'`, [shop.tenant_id, flipped]);
    await expect(broker()({ tenant_id: shop.tenant_id, extension_id: 'ext.a', connection_name: 'one' })).rejects.toThrow(/does not open/);
    // Under another key nothing opens.
    await ok('extension.connection.set', { extension_id: 'ext.a', connection_name: 'three', credential: { k: 'v' } });
    const foreign = connectionBroker(t.system.runtimes.get('content')!.dataSource, new Vault(randomBytes(32)));
    await expect(foreign({ tenant_id: shop.tenant_id, extension_id: 'ext.a', connection_name: 'three' })).rejects.toThrow(/another key/);
  });

  it('is owner-gated: the scope alone is not enough; refusals come before the input is looked at', async () => {
    const delegated = await keyWith('consenting', 'extensions.egress.consent');
    const input = { extension_id: 'ext.x', connection_name: 'c', credential: { a: 'b' } };
    const body = await refused(call('extension.connection.set', input, delegated), 403, 'forbidden');
    expect(body.error).toMatchObject({ scope: 'extensions.egress.consent', owner_required: true });
    expect(body.error.message).toMatch(/owner-gated.*extensions\.egress\.consent/);
    await refused(call('extension.connection.set', { bogus: 1 }, delegated), 403, 'forbidden');
    await refused(call('extension.connection.revoke', { extension_id: 'ext.x', connection_name: 'c' }, delegated), 403, 'forbidden');
    // The listing holds no secret: the scope suffices.
    expect((await list({}, delegated)).status).toBe(200);

    const unscoped = await keyWith('reader', 'content.read');
    expect((await refused(call('extension.connection.set', input, unscoped), 403, 'forbidden')).error.message).toContain('extensions.egress.consent');
    await refused(list({}, unscoped), 403, 'forbidden');
    await refused(call('extension.connection.set', input, null), 401, 'unauthorized');

    // GraphQL goes through the same gate.
    const gql = await t.graphql(
      'mutation ($input: ExtensionConnectionSetInput!) { extension_connection_set(input: $input) { extension_id connection_name armed credential_keys updated_at } }',
      { input },
      delegated,
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'forbidden', owner_required: true });
    expect(await t.sql(`SELECT 1 FROM content.extension_connection WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
  });

  it('refuses what breaks the schema or the bounds, naming the rule and never a value', async () => {
    const secret = `bound-${randomBytes(8).toString('hex')}`;
    const cases: Array<Record<string, unknown>> = [
      { connection_name: 'c', credential: { password: secret } },
      { extension_id: '', connection_name: 'c', credential: { password: secret } },
      { extension_id: 'e', connection_name: 'c', credential: { password: secret }, extra: true },
      { extension_id: 'e', connection_name: 'c', credential: 'not-an-object' },
      { extension_id: 'e', connection_name: 'c', credential: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, secret])) },
      { extension_id: 'e', connection_name: 'c', credential: { ['k'.repeat(129)]: secret } },
      { extension_id: 'e', connection_name: 'c', credential: { a: { b: { c: { d: { e: secret } } } } } },
      { extension_id: 'e', connection_name: 'c', credential: { blob: secret.repeat(400) } },
      { extension_id: 'e', connection_name: 'c', credential: { password: `${secret}\u0000` } },
    ];
    for (const input of cases) {
      const body = await refused(call('extension.connection.set', input), 400, 'validation_failed');
      expect(JSON.stringify(body)).not.toContain(secret);
    }
    expect((await call('extension.connection.set', { extension_id: 'e', connection_name: 'c', credential: { a: { b: { c: { d: secret } } } } })).status).toBe(
      200,
    );
    expect(await t.sql(`SELECT connection_name FROM content.extension_connection WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([{ connection_name: 'c' }]);
  });

  it('emits no event and leaves one audit row per call, without the input', async () => {
    await ok('extension.connection.set', { extension_id: 'ext.quiet', connection_name: 'api', credential: { key: 'quiet' } });
    await ok('extension.connection.revoke', { extension_id: 'ext.quiet', connection_name: 'api' });
    await t.system.runtimes.get('content')!.relay.kick();
    expect(await t.sql(`SELECT type FROM content.outbox_event WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
    await t.flushAudit();
    const audit = await t.read('/internal/audit', { operation: 'extension.connection.set' }, shop.token);
    expect(audit.body.items).toEqual([expect.objectContaining({ operation: 'extension.connection.set', outcome: 'ok', actor_name: 'owner' })]);
  });
});

describe('extension.connection.revoke and the listing', () => {
  it('lists names, keys and times, never values; revoke disarms, and revoking again changes nothing', async () => {
    await ok('extension.connection.set', { extension_id: 'ext.b', connection_name: 'z', credential: { token: 'v1' } });
    await ok('extension.connection.set', { extension_id: 'ext.b', connection_name: 'a', credential: { user: 'u', pass: 'v2' } });
    await ok('extension.connection.set', { extension_id: 'ext.c', connection_name: 'a', credential: {} });
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      items: [
        { extension_id: 'ext.b', connection_name: 'a', credential_keys: ['pass', 'user'], created_at: expect.any(String), updated_at: expect.any(String) },
        { extension_id: 'ext.b', connection_name: 'z', credential_keys: ['token'], created_at: expect.any(String), updated_at: expect.any(String) },
        { extension_id: 'ext.c', connection_name: 'a', credential_keys: [], created_at: expect.any(String), updated_at: expect.any(String) },
      ],
      page: 1,
      limit: 24,
      total: 3,
    });
    expect(JSON.stringify(all.body)).not.toMatch(/v1|v2|u"/);
    expect((await list({ extension_id: 'ext.b', limit: '1', page: '2' })).body).toMatchObject({
      items: [{ connection_name: 'z' }],
      page: 2,
      limit: 1,
      total: 2,
    });
    await refused(list({ limit: '0' }), 400, 'validation_failed');

    expect(await ok('extension.connection.revoke', { extension_id: 'ext.b', connection_name: 'z' })).toEqual({
      extension_id: 'ext.b',
      connection_name: 'z',
      revoked: true,
    });
    expect(await ok('extension.connection.revoke', { extension_id: 'ext.b', connection_name: 'z' })).toEqual({
      extension_id: 'ext.b',
      connection_name: 'z',
      revoked: false,
    });
    expect(await broker()({ tenant_id: shop.tenant_id, extension_id: 'ext.b', connection_name: 'z' })).toBeNull();
    expect((await list({ extension_id: 'ext.b' })).body.total).toBe(1);
    await refused(call('extension.connection.revoke', { extension_id: 'ext.b' }), 400, 'validation_failed');
  });

  it('keeps tenants apart: another tenant neither sees, replaces nor revokes a connection', async () => {
    const other = await t.newTenant();
    await ok('extension.connection.set', { extension_id: 'ext.shared', connection_name: 'api', credential: { key: 'mine' } });
    expect((await list({}, other.token)).body).toMatchObject({ items: [], total: 0 });
    expect(await ok('extension.connection.revoke', { extension_id: 'ext.shared', connection_name: 'api' }, other.token)).toMatchObject({ revoked: false });
    await ok('extension.connection.set', { extension_id: 'ext.shared', connection_name: 'api', credential: { key: 'theirs' } }, other.token);
    expect(await broker()({ tenant_id: shop.tenant_id, extension_id: 'ext.shared', connection_name: 'api' })).toEqual({ key: 'mine' });
    expect(await broker()({ tenant_id: other.tenant_id, extension_id: 'ext.shared', connection_name: 'api' })).toEqual({ key: 'theirs' });
    expect((await list()).body.items).toHaveLength(1);
    // A tenant's sealed value copied onto the other's row does not open there.
    const [{ credential_sealed }] = await t.sql(`SELECT credential_sealed FROM content.extension_connection WHERE tenant_id = $1`, [shop.tenant_id]);
    await t.sql(`UPDATE content.extension_connection SET credential_sealed = $2 WHERE tenant_id = $1`, [other.tenant_id, credential_sealed]);
    await expect(broker()({ tenant_id: other.tenant_id, extension_id: 'ext.shared', connection_name: 'api' })).rejects.toThrow(/does not open/);
  });
});

describe('the secret', () => {
  it('is found nowhere — answers, logs, events, audit, any table, the heap file — but as ciphertext the broker opens', async () => {
    const secret = `sk_live_${randomBytes(18).toString('hex')}`;
    const credential = { api_key: secret, nested: { password: secret }, note: `prefix ${secret} suffix` };
    const input = { extension_id: 'ext.payments', connection_name: 'live', credential };
    // Armed through every surface.
    await ok('extension.connection.set', input);
    const gql = await t.graphql(
      'mutation ($input: ExtensionConnectionSetInput!) { extension_connection_set(input: $input) { extension_id connection_name armed credential_keys updated_at } }',
      { input },
      shop.token,
    );
    expect(gql.body.data.extension_connection_set).toMatchObject({ armed: true, credential_keys: ['api_key', 'nested', 'note'] });
    answers.push({ status: gql.status, headers: {}, body: gql.body });
    const client = await mcpClient(t.url, shop.token);
    try {
      const tool = await client.callTool({ name: 'extension.connection.set', arguments: input });
      expect(tool.isError).toBeFalsy();
      answers.push({ status: 200, headers: {}, body: tool });
      const bad = await client.callTool({ name: 'extension.connection.set', arguments: { ...input, connection_name: '' } });
      expect(bad.isError).toBe(true);
      answers.push({ status: 400, headers: {}, body: bad });
    } finally {
      await client.close();
    }
    // Refusals that see the secret: REST and GraphQL validation, GraphQL variable coercion (which quotes whole objects), a refused key.
    await refused(call('extension.connection.set', { ...input, extension_id: undefined }), 400, 'validation_failed');
    await refused(call('extension.connection.set', { ...input, surprise: secret }), 400, 'validation_failed');
    await refused(call('extension.connection.set', { ...input, credential: { ...credential, big: 'x'.repeat(9000) } }), 400, 'validation_failed');
    await refused(call('extension.connection.set', input, await keyWith('not-owner', 'extensions.egress.consent')), 403, 'forbidden');
    for (const variables of [
      { input: { connection_name: 'live', credential } },
      { input: { ...input, unknown_field: 1 } },
      { input: { ...input, extension_id: true } },
    ]) {
      const res = await t.graphql(
        'mutation ($input: ExtensionConnectionSetInput!) { extension_connection_set(input: $input) { extension_id connection_name armed credential_keys updated_at } }',
        variables,
        shop.token,
      );
      expect(res.body.errors?.[0]?.extensions?.code).toBe('validation_failed');
      answers.push({ status: res.status, headers: {}, body: res.body });
    }
    const literal = await t.graphql(
      `mutation { extension_connection_set(input: { connection_name: "live", credential: { api_key: "${secret}" } }) }`,
      {},
      shop.token,
    );
    expect(literal.body.errors?.[0]?.extensions?.code).toBe('validation_failed');
    answers.push({ status: literal.status, headers: {}, body: literal.body });
    // A shell-quoting slip: JSON broken right at the secret (the parser's message quotes the text around it).
    const broken = await fetch(`${t.url}/v1/commands/extension.connection.set`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: `{"extension_id":"ext.pay","connection_name":"api","credential":{"api_key":'${secret}'}}`,
    });
    const brokenBody = (await broken.json()) as { error: { kind: string } };
    expect([broken.status, brokenBody.error.kind]).toEqual([400, 'validation_failed']);
    answers.push({ status: broken.status, headers: {}, body: brokenBody });
    // A numeric secret as a GraphQL literal out of range.
    const digits = `9${secret.replace(/\D/g, '').padEnd(24, '7')}`;
    const numeric = await t.graphql(
      `mutation { extension_connection_set(input: { connection_name: "live", credential: { pin: ${digits} } }) }`,
      {},
      shop.token,
    );
    expect(JSON.stringify(numeric.body)).not.toContain(digits);
    // Reads after.
    await list();
    await t.flushAudit();
    for (const runtime of t.system.runtimes.values()) await runtime.relay.kick();

    const forms = [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('hex')];
    const holds = (text: string) => forms.some((form) => text.includes(form));
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((a) => holds(JSON.stringify(a)))).toEqual([]);
    expect(t.logs.filter(holds)).toEqual([]);
    expect(pinoLines.length).toBeGreaterThan(0);
    expect(pinoLines.filter(holds)).toEqual([]);

    // Every table of the database, as text: outbox and delivery trails, audit, queues, everything.
    const tables = await t.sql<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.map((r) => `${r.schema}.${r.name}`)).toEqual(
      expect.arrayContaining(['content.outbox_event', 'content.audit_entry', 'identity.audit_entry', 'content.extension_connection']),
    );
    const found: string[] = [];
    for (const { schema, name } of tables) {
      const rows = await t.sql<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${name}" t`);
      if (rows.some((r) => holds(r.row))) found.push(`${schema}.${name}`);
    }
    expect(found).toEqual([]);
    // The stored row: only the sealed column holds the credential, as ciphertext.
    const [row] = await t.sql(`SELECT * FROM content.extension_connection WHERE tenant_id = $1 AND extension_id = 'ext.payments'`, [shop.tenant_id]);
    expect(Object.keys(row).sort()).toEqual([
      'connection_name',
      'created_at',
      'credential_keys',
      'credential_sealed',
      'extension_id',
      'tenant_id',
      'updated_at',
    ]);
    expect(row.credential_sealed).toMatch(/^v1\./);
    // The table's bytes on disk (heap and its TOAST), after a checkpoint.
    await t.sql('CHECKPOINT');
    const files = await t.sql<{ path: string }>(
      `SELECT pg_relation_filepath(c.oid) AS path FROM pg_class c WHERE c.oid = 'content.extension_connection'::regclass
       UNION ALL SELECT pg_relation_filepath(c.reltoastrelid) FROM pg_class c WHERE c.oid = 'content.extension_connection'::regclass AND c.reltoastrelid <> 0`,
    );
    let bytes = 0;
    for (const { path } of files) {
      const [{ data }] = await t.sql<{ data: Buffer }>(`SELECT pg_read_binary_file($1) AS data`, [path]);
      bytes += data.length;
      expect(forms.some((form) => data.includes(Buffer.from(form)))).toBe(false);
      if (path === files[0].path) expect(data.includes(Buffer.from(row.credential_sealed))).toBe(true);
    }
    expect(bytes).toBeGreaterThan(0);

    // And the broker opens it.
    expect(await broker()({ tenant_id: shop.tenant_id, extension_id: 'ext.payments', connection_name: 'live' })).toEqual(credential);
  });
});

describe('VAULT_KEY', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const tmp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    dirs.push(dir);
    return dir;
  };

  it('takes 32 bytes in base64 or base64url, and refuses anything else', () => {
    const raw = randomBytes(32);
    expect(vaultKey({ VAULT_KEY: raw.toString('base64') })).toEqual(raw);
    expect(vaultKey({ VAULT_KEY: raw.toString('base64url') })).toEqual(raw);
    expect(vaultKey({ VAULT_KEY: raw.toString('base64').replace(/=+$/, '') })).toEqual(raw);
    expect(() => vaultKey({ VAULT_KEY: randomBytes(16).toString('base64') })).toThrow(/VAULT_KEY must be 32 bytes/);
    expect(() => vaultKey({ VAULT_KEY: 'not base64 at all!' })).toThrow(/VAULT_KEY must be 32 bytes/);
    expect(decodeVaultKey('x'.repeat(32))).toBeNull();
  });

  it('unset, is generated once under DATA_DIR with mode 0600 and kept (with or without DATABASE_URL), as WEBHOOK_SECRET_KEY is', () => {
    const dir = tmp();
    const first = vaultKey({ DATA_DIR: dir });
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'vault.key')).mode & 0o777).toBe(0o600);
    expect(vaultKey({ DATA_DIR: dir, DATABASE_URL: 'postgres://elsewhere/db' })).toEqual(first);
    const other = tmp();
    expect(vaultKey({ DATA_DIR: other, DATABASE_URL: 'postgres://elsewhere/db' })).not.toEqual(first);
    // The same code keeps the webhook key.
    const hook = webhookSecretKey({ DATA_DIR: dir });
    expect(statSync(join(dir, 'webhook-secret.key')).mode & 0o777).toBe(0o600);
    expect(webhookSecretKey({ DATA_DIR: dir })).toBe(hook);
    expect(() => webhookSecretKey({ WEBHOOK_SECRET_KEY: 'short' })).toThrow(/at least 32 characters/);
  });

  it('GraphQL variable errors lose the value they quote, keeping the path and the reason', () => {
    const reason = 'Field "extension_id" of required type "String!" was not provided.';
    expect(withoutVariableValue(`Variable "$input" got invalid value { credential: { k: "s3cret" } }; ${reason}`, reason)).toBe(
      `Variable "$input" got an invalid value; ${reason}`,
    );
    expect(
      withoutVariableValue(
        `Variable "$input" got invalid value 5 at "input.extension_id"; String cannot represent a non string value: 5`,
        'String cannot represent a non string value: 5',
      ),
    ).toBe('Variable "$input" got an invalid value at "input.extension_id"; String cannot represent a non string value: 5');
    expect(withoutVariableValue('Variable "$input" got invalid value { s3cret }; unknown')).toBe('Variable "$input" got an invalid value');
    expect(withoutVariableValue('Cannot query field "x"')).toBe('Cannot query field "x"');
  });
});
