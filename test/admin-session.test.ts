import { EventEmitter } from 'node:events';
import { ServerResponse } from 'node:http';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loginCodeHandoff } from '@backoffice/identity';
import { closeLoginLimiters } from '../subgraphs/identity/src/domain/operators';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The admin front-end's server side over real HTTP: its files at /admin, and the operator session in
 * the bo_session cookie, taken as the credential only from the gateway's own origin.
 */
describe('admin front-end: files and session cookie', () => {
  let t: TestSystem;
  const saved = process.env.TRUST_PROXY;
  // A build as Vite lays it out (base /admin/): the page, and assets named by their hash.
  const dist = mkdtempSync(join(tmpdir(), 'admin-dist-'));
  const PAGE = '<!doctype html><html><head><script type="module" src="/admin/assets/index-4f2a9c.js"></script></head><body><div id="root"></div></body></html>';
  const SCRIPT = 'console.log("admin");';

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), PAGE);
    writeFileSync(join(dist, 'assets', 'index-4f2a9c.js'), SCRIPT);
    // The gateway behind a proxy on this machine: x-forwarded-proto says whether the browser used https.
    process.env.TRUST_PROXY = '1';
    t = await startTestSystem({ adminDist: dist });
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
    await closeLoginLimiters();
    await t?.stop();
    rmSync(dist, { recursive: true, force: true });
    rmSync(`${dist}-away`, { recursive: true, force: true });
  });

  const storeHandle = async () => (await t.sql(`SELECT handle FROM identity.store WHERE tenant_id = $1`, [t.tenant.tenant_id]))[0].handle as string;

  /** An owner operator invited, and a code mailed to it (read as the mail pipeline reads it). */
  async function loginInput(email: string) {
    await t.ok('admin_user.invite', { email, role: 'owner' });
    const store = await storeHandle();
    await t.ok('auth.login_code.request', { store, email }, null);
    const [event] = await t.sql(
      `SELECT payload FROM identity.outbox_event WHERE type = 'auth.login_code' AND payload->>'email' = $1 ORDER BY seq DESC LIMIT 1`,
      [email],
    );
    const mail = await loginCodeHandoff(t.system.runtimes.get('identity')!).open(event.payload.login_code_id);
    return { store, email, code: mail!.code };
  }

  const signIn = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/v1/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.url, ...headers },
      body: JSON.stringify(body),
    });

  /** The cookie a Set-Cookie header sets, as a browser sends it back. */
  const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0];

  const graphql = (query: string, headers: Record<string, string>) =>
    fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  // One subgraph (the lane answers it) and two (Apollo's path).
  const WHOAMI = '{ read_internal_whoami { actor_id scopes } }';
  const TWO_SUBGRAPHS = '{ read_internal_whoami { actor_id } products(first: 1) { totalCount } }';

  it('signs in with a login code: the session in an HttpOnly, SameSite=Strict cookie, never in the answer', async () => {
    const input = await loginInput('cookie@example.com');
    const res = await signIn(input);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('token');
    expect(body).toMatchObject({ role: 'owner', tenant_id: t.tenant.tenant_id, activated: true });
    expect(JSON.stringify(body)).not.toContain('bos_');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^bo_session=bos_[A-Za-z0-9_-]+; Path=\/; Max-Age=(\d+); HttpOnly; SameSite=Strict$/);
    // Until the session expires (12 hours), give or take the request's own time.
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    expect(Math.abs(Date.parse(body.expires_at as string) - Date.now() - maxAge * 1000)).toBeLessThan(5000);
    // The same code does not work twice; a refusal is the reference's body.
    const again = await signIn(input);
    expect(again.status).toBe(401);
    expect(((await again.json()) as any).error.kind).toBe('unauthorized');
  });

  it('marks the cookie Secure when the browser came over https (x-forwarded-proto behind a trusted proxy)', async () => {
    const res = await signIn(await loginInput('secure@example.com'), { 'x-forwarded-proto': 'https', origin: t.url.replace('http:', 'https:') });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('takes the cookie as the credential from the same origin: /graphql through the lane and through Apollo, REST, the event stream', async () => {
    const res = await signIn(await loginInput('same@example.com'));
    const cookie = cookieOf(res);
    const { admin_user_id } = (await res.json()) as { admin_user_id: string };
    const sameOrigin: Array<Record<string, string>> = [{ cookie, origin: t.url }, { cookie, 'sec-fetch-site': 'same-origin', origin: t.url }, { cookie }];
    for (const headers of sameOrigin) {
      const lane = await graphql(WHOAMI, headers);
      expect(lane.status).toBe(200);
      expect(((await lane.json()) as any).data.read_internal_whoami.actor_id).toBe(admin_user_id);
      const apollo = await graphql(TWO_SUBGRAPHS, headers);
      expect(apollo.status).toBe(200);
      const data = ((await apollo.json()) as any).data;
      expect(data.read_internal_whoami.actor_id).toBe(admin_user_id);
      expect(data.products.totalCount).toBe(0);
    }
    const rest = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as any).actor_id).toBe(admin_user_id);
    const stream = new AbortController();
    const events = await fetch(`${t.url}/v1/stream/events`, { headers: { cookie, 'sec-fetch-site': 'same-origin' }, signal: stream.signal });
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    stream.abort();
    // A header, when given, is the credential: the cookie is not looked at.
    const keyed = await graphql(WHOAMI, { cookie, origin: 'https://elsewhere.example', authorization: `Bearer ${t.tenant.token}` });
    expect(((await keyed.json()) as any).data.read_internal_whoami.actor_id).toBe(t.tenant.api_key_id);
  });

  it('refuses the cookie from another origin, or a page of another site, with 403 forbidden on every surface', async () => {
    const cookie = cookieOf(await signIn(await loginInput('foreign@example.com')));
    const foreign: Array<Record<string, string>> = [
      { cookie, origin: 'https://evil.example' },
      // Same host, another port or scheme: another origin.
      { cookie, origin: t.url.replace(/:(\d+)$/, ':1') },
      { cookie, 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'same-site', origin: t.url },
    ];
    for (const headers of foreign) {
      for (const query of [WHOAMI, TWO_SUBGRAPHS]) {
        const res = await graphql(query, headers);
        expect(res.status).toBe(403);
        const error = ((await res.json()) as any).errors[0];
        expect(error.extensions.code).toBe('forbidden');
        expect(error.message).toMatch(/session cookie is taken only from the gateway's own/);
      }
      const rest = await fetch(`${t.url}/v1/read/internal/whoami`, { headers });
      expect(rest.status).toBe(403);
      expect(((await rest.json()) as any).error.kind).toBe('forbidden');
      const command = await fetch(`${t.url}/v1/commands/auth.logout`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(command.status).toBe(403);
      expect((await fetch(`${t.url}/v1/stream/events`, { headers })).status).toBe(403);
      expect((await fetch(`${t.url}/v1/auth/session`, { method: 'DELETE', headers })).status).toBe(403);
    }
    // Signing a browser in from another origin is refused too.
    const planted = await signIn(await loginInput('planted@example.com'), { origin: 'https://evil.example' });
    expect(planted.status).toBe(403);
    expect(planted.headers.get('set-cookie')).toBeNull();
    // The session still works from its own origin.
    expect((await graphql(WHOAMI, { cookie, origin: t.url })).status).toBe(200);
  });

  it('signs out: the session ends, the cookie is cleared, and signing out again succeeds', async () => {
    const cookie = cookieOf(await signIn(await loginInput('out@example.com')));
    const out = await fetch(`${t.url}/v1/auth/session`, { method: 'DELETE', headers: { cookie, origin: t.url } });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ session_id: expect.stringMatching(/^ses_/), logged_out: true });
    expect(out.headers.get('set-cookie')).toBe('bo_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict');
    const after = await graphql(WHOAMI, { cookie, origin: t.url });
    expect(after.status).toBe(401);
    const signedOut: Array<Record<string, string>> = [{ cookie, origin: t.url }, { origin: t.url }];
    for (const headers of signedOut) {
      const again = await fetch(`${t.url}/v1/auth/session`, { method: 'DELETE', headers });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ session_id: null, logged_out: false });
      expect(again.headers.get('set-cookie')).toMatch(/^bo_session=; Path=\/; Max-Age=0;/);
    }
  });

  it('serves the admin at /admin: its page under a strict CSP, hashed assets for ever, the page for any path of the app', async () => {
    // A page for a path of the app once drew Node's listener-leak warning on every load (see admin-app.ts):
    // the most 'close' listeners each answer carried, against the bound Node warns above.
    const most = new Map<string, number>();
    const on = ServerResponse.prototype.on;
    const counting = jest.spyOn(ServerResponse.prototype, 'on').mockImplementation(function (this: ServerResponse, event, listener) {
      on.call(this, event, listener);
      if (event === 'close') most.set(this.req.url ?? '', Math.max(most.get(this.req.url ?? '') ?? 0, this.listenerCount('close')));
      return this;
    });
    for (const path of ['/admin', '/admin/', '/admin/index.html', '/admin/orders/ord_1', '/admin/sign-in']) {
      const res = await fetch(`${t.url}${path}`);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self';");
      // No inline script ever (inline styles are allowed, for Mantine's theme variables).
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      // Its paths (ids, search terms) are sent to no other origin: links out, or the OIDC provider.
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(await res.text()).toBe(PAGE);
    }
    counting.mockRestore();
    expect([...most].filter(([, count]) => count > EventEmitter.defaultMaxListeners)).toEqual([]);
    const asset = await fetch(`${t.url}/admin/assets/index-4f2a9c.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('referrer-policy')).toBe('same-origin');
    expect(await asset.text()).toBe(SCRIPT);
    // A missing asset is not the page (a browser would run HTML as a script); nor is a path outside /admin.
    const missing = await fetch(`${t.url}/admin/assets/gone-000000.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.kind).toBe('not_found');
    expect((await fetch(`${t.url}/administrator`)).status).toBe(404);
    expect((await fetch(`${t.url}/admin/../package.json`)).status).not.toBe(200);
  });

  it('answers 404 saying the admin is not built when its build is absent', async () => {
    renameSync(dist, `${dist}-away`);
    try {
      for (const path of ['/admin', '/admin/orders', '/admin/assets/index-4f2a9c.js']) {
        const res = await fetch(`${t.url}${path}`);
        expect([path, res.status]).toEqual([path, 404]);
        expect(await res.json()).toEqual({
          error: { kind: 'not_found', message: expect.stringContaining('the admin front-end is not built: run npm run build') },
        });
      }
    } finally {
      renameSync(`${dist}-away`, dist);
    }
  });
});
