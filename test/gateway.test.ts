import { ACTOR_CONTEXT_HEADER, signContext } from '@backoffice/platform';
import { internalToken } from '../platform/src/actor';
import { INTERNAL_SECRET_HEADER, serveSubgraph } from '../platform/src/serve-subgraph';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

describe('REST shim', () => {
  it('answers an unknown command with 404 not_found', async () => {
    const res = await t.command('no.such.command', {});
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { kind: 'not_found', message: 'unknown command no.such.command' } });
  });

  it('answers an unknown read with 404 not_found', async () => {
    const res = await t.read('/internal/nothing');
    expect(res.status).toBe(404);
    expect(res.body.error.kind).toBe('not_found');
  });

  it('refuses a malformed or non-object body with validation_failed, no stack', async () => {
    for (const body of ['{"name":', '[1,2]', '"text"']) {
      const res = await t.command('iam.api_key.create', body);
      expect(res.status).toBe(400);
      expect(res.body.error.kind).toBe('validation_failed');
      expect(Object.keys(res.body.error).sort()).toEqual(['kind', 'message']);
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('echoes a request id, or makes one', async () => {
    const res = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${t.tenant.token}`, 'x-request-id': 'trace-42' } });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    const made = await t.read('/internal/whoami');
    expect(made.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('validates read parameters of the merged audit read, coercing the query string', async () => {
    expect((await t.read('/internal/audit', { limit: '0' })).status).toBe(400);
    expect((await t.read('/internal/audit', { limit: '101' })).status).toBe(400);
    expect((await t.read('/internal/audit', { page: '0' })).status).toBe(400);
    expect((await t.read('/internal/audit', { limit: 'ten' })).status).toBe(400);
    expect((await t.read('/internal/audit', { bogus: '1' })).status).toBe(400);
    expect((await t.read('/internal/audit', { limit: '100', page: '10' })).status).toBe(200);
    expect((await t.read('/internal/audit', { limit: '100', page: '11' })).status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('returns the same data as the REST body', async () => {
    const rest = await t.read('/internal/whoami');
    const gql = await t.graphql('{ read_internal_whoami { actor_id name tenant_id credential_id scopes locale } }');
    expect(gql.status).toBe(200);
    expect(gql.body.data.read_internal_whoami).toEqual(rest.body);
  });

  it('carries the reference kinds in extensions.code', async () => {
    const weak = await t.command('iam.api_key.create', { name: 'weak', scopes: [] });
    const forbidden = await t.graphql(
      'mutation($i: IamApiKeyCreateInput!) { iam_api_key_create(input: $i) { api_key_id } }',
      { i: { name: 'x', scopes: [] } },
      weak.body.token,
    );
    expect(forbidden.body.errors[0].extensions).toEqual({ code: 'forbidden', scope: 'admin.users.write', reason: 'scope_missing' });
    const badType = await t.graphql('mutation($i: IamApiKeyCreateInput!) { iam_api_key_create(input: $i) { api_key_id } }', { i: { name: 5, scopes: [] } });
    expect(badType.body.errors[0].extensions.code).toBe('validation_failed');
    const badBound = await t.graphql('mutation { iam_api_key_rotate(input: { api_key_id: "k", overlap_hours: 9000 }) { api_key_id } }');
    expect(badBound.body.errors[0].extensions.code).toBe('validation_failed');
    expect(badBound.body.errors[0].message).toContain('overlap_hours');
    const unknownField = await t.graphql('{ nothing_here }');
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0].extensions.code).toBe('validation_failed');
    const conflict = await t.graphql('mutation { iam_api_key_revoke(input: { api_key_id: "key_x" }) { api_key_id } }');
    expect(conflict.body.errors[0].extensions.code).toBe('conflict');
  });

  it('refuses a SafeInt outside the safe-integer range', async () => {
    const res = await t.graphql('query { identity_audit(input: { limit: 9007199254740993 }) { total } }');
    expect(res.body.errors[0].extensions.code).toBe('validation_failed');
  });
});

describe('subgraph context', () => {
  it('refuses a call whose context is missing, forged or expired, and takes a signed one', async () => {
    const runtime = t.system.runtimes.get('identity')!;
    const server = await serveSubgraph(runtime, 0);
    try {
      const who = await t.read('/internal/whoami');
      const actor = {
        tenant_id: who.body.tenant_id,
        api_key_id: who.body.actor_id,
        credential_id: who.body.credential_id,
        name: 'owner',
        scopes: who.body.scopes,
        is_owner: true,
      };
      const ask = (header?: string) =>
        fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(header ? { [ACTOR_CONTEXT_HEADER]: header } : {}) },
          body: JSON.stringify({ query: '{ read_internal_whoami { actor_id } }' }),
        }).then((r) => r.json() as Promise<any>);
      expect((await ask()).errors[0].extensions.code).toBe('unauthorized');
      expect((await ask(signContext('not-the-secret-'.repeat(3), { actor, request_id: 'r1' }))).errors[0].extensions.code).toBe('unauthorized');
      const valid = signContext(t.contextSecret, { actor, request_id: 'r2' });
      const [body, mac] = valid.split('.');
      const widened = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), actor: { ...actor, tenant_id: 'ten_other' } }),
      ).toString('base64url');
      expect((await ask(`${widened}.${mac}`)).errors[0].extensions.code).toBe('unauthorized');
      expect((await ask(signContext(t.contextSecret, { actor, request_id: 'r3' }, Date.now() - 120_000))).errors[0].extensions.code).toBe('unauthorized');
      expect((await ask(valid)).data.read_internal_whoami.actor_id).toBe(actor.api_key_id);
    } finally {
      await server.close();
    }
  });
});

describe('health and documents', () => {
  it('serves /healthz, /readyz and the OpenAPI document', async () => {
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    const openapi = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as any;
    expect(openapi.openapi).toBe('3.1.0');
    const rotate = openapi.paths['/v1/commands/iam.api_key.rotate'].post;
    expect(rotate.requestBody.content['application/json'].schema.properties.overlap_hours).toMatchObject({ minimum: 0, maximum: 8760, default: 24 });
    expect(Object.keys(rotate.responses).sort()).toEqual(['200', '400', '401', '403', '409', '415', '429', '500']);
    expect(openapi.paths['/v1/read/internal/whoami'].get).toBeDefined();
    expect(openapi.paths['/v1/read/internal/audit'].get).toBeDefined();
  });
});

describe('internal endpoints', () => {
  it('take a token derived from the shared secret, never the signing key itself', async () => {
    const runtime = t.system.runtimes.get('identity')!;
    const server = await serveSubgraph(runtime, 0, { ping: async () => ({ pong: true }) });
    try {
      const call = (token: string) =>
        fetch(server.url.replace('/graphql', '/internal/ping'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', [INTERNAL_SECRET_HEADER]: token },
          body: '{}',
        });
      expect((await call(t.contextSecret)).status).toBe(401);
      expect((await call('guess')).status).toBe(401);
      const ok = await call(internalToken(t.contextSecret));
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ pong: true });
    } finally {
      await server.close();
    }
  });
});
