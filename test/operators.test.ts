import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { authenticatorOf, loginCodeHandoff } from '@backoffice/identity';
import { closeLoginLimiters, LOGIN_FLOOR_MS, loginWaitMs } from '../subgraphs/identity/src/domain/operators';
import { sweepExpiredLoginsJob } from '../subgraphs/identity/src/jobs/auth.sweep_expired';
import { startTestSystem, type TestSystem } from './helpers';

/** Operators over real HTTP: invitations, one-time codes, OIDC against a real provider, sessions. */
describe('operators', () => {
  let t: TestSystem;
  let provider: ChildProcess;
  let storeHandle: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    t = await startTestSystem();
    const [store] = await t.sql(`SELECT handle FROM identity.store WHERE tenant_id = $1`, [t.tenant.tenant_id]);
    storeHandle = store.handle;
    // A real OpenID provider in its own process, its client registered with the gateway's callback.
    provider = spawn(process.execPath, [join(__dirname, 'fixtures', 'oidc-provider.mjs'), 'backoffice', 'test-secret', `${t.url}/v1/auth/oidc/callback`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: provider.stdout! }).once('line', resolve);
      provider.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
    });
    process.env.OIDC_ISSUER = JSON.parse(line).issuer;
    process.env.OIDC_CLIENT_ID = 'backoffice';
    process.env.OIDC_CLIENT_SECRET = 'test-secret';
    process.env.OIDC_REDIRECT_URI = `${t.url}/v1/auth/oidc/callback`;
  });

  // Every test from 127.0.0.1: each starts with full login buckets (the limits have tests of their own).
  beforeEach(() => closeLoginLimiters());

  afterAll(async () => {
    provider?.kill('SIGTERM');
    process.env = saved;
    await t?.stop();
  });

  const invite = (input: Record<string, unknown>, token?: string) => t.command('admin_user.invite', input, token);
  const eventsOf = async (type: string) =>
    (await t.sql(`SELECT payload FROM identity.outbox_event WHERE type = $1 ORDER BY seq`, [type])).map((row: any) => row.payload);
  const requestCode = (email: string, store = storeHandle) => t.command('auth.login_code.request', { store, email }, null);
  const verify = (email: string, code: string, store = storeHandle) => t.command('auth.login_code.verify', { store, email, code }, null);

  /** Asks for a code and reads it the way the mail pipeline will: the event's reference, opened by identity's handoff. */
  async function mailedCode(email: string): Promise<string> {
    const answer = await requestCode(email);
    expect(answer.status).toBe(200);
    const events = (await eventsOf('auth.login_code')).filter((p: any) => p.email === email);
    const latest = events[events.length - 1];
    const mail = await loginCodeHandoff(t.system.runtimes.get('identity')!).open(latest.login_code_id);
    expect(mail).not.toBeNull();
    return mail!.code;
  }

  async function loggedIn(email: string, role = 'staff', name = `Operator ${email}`) {
    const invited = await invite({ email, name, role });
    expect(invited.status).toBe(200);
    const session = await verify(email, await mailedCode(email));
    expect(session.status).toBe(200);
    return { admin_user_id: invited.body.admin_user_id as string, token: session.body.token as string, name };
  }

  describe('admin_user.invite', () => {
    it('invites with status invited, the default locale and the link kept; the event carries what the mail needs', async () => {
      const res = await invite({ email: 'ana@example.com', name: 'Ana', role: 'admin', admin_login_url: 'https://admin.example.com/login' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['admin_user_id']);
      const [row] = await t.sql(`SELECT status, locale, role FROM identity.admin_user WHERE id = $1`, [res.body.admin_user_id]);
      expect(row).toEqual({ status: 'invited', locale: 'en', role: 'admin' });
      const [event] = (await eventsOf('admin_user.invited')).filter((p: any) => p.admin_user_id === res.body.admin_user_id);
      expect(event).toMatchObject({
        email: 'ana@example.com',
        name: 'Ana',
        locale: 'en',
        role: 'admin',
        status: 'invited',
        admin_login_url: 'https://admin.example.com/login',
        store_handle: storeHandle,
      });
      expect(event.store_id).toEqual(t.tenant.store_id);
    });

    it('drops a loopback admin_login_url (127.0.0.0/8, ::1, localhost) and keeps an explicit locale', async () => {
      const urls = ['http://127.0.0.1:3000/login', 'http://127.9.9.9/x', 'http://[::1]:8080/', 'http://localhost/login', 'https://admin.localhost/'];
      for (const [i, url] of urls.entries()) {
        const res = await invite({ email: `loop${i}@example.com`, admin_login_url: url, locale: 'pt-BR' });
        expect(res.status).toBe(200);
        const [event] = (await eventsOf('admin_user.invited')).filter((p: any) => p.admin_user_id === res.body.admin_user_id);
        expect(event.admin_login_url).toBeNull();
        expect(event.locale).toBe('pt-BR');
        expect(event.name).toBe(`loop${i}`);
        expect(event.role).toBe('staff');
      }
    });

    it('refuses a login link that is not http(s), and takes any locale of 2 to 10 characters', async () => {
      const script = await invite({ email: 'script@example.com', admin_login_url: 'javascript:alert(1)' });
      expect([script.status, script.body.error.kind]).toEqual([400, 'validation_failed']);
      const long = await invite({ email: 'hant@example.com', locale: 'zh-Hant-TW' });
      expect(long.status).toBe(200);
      expect((await invite({ email: 'eleven@example.com', locale: 'zh-Hant-TWX' })).status).toBe(400);
    });

    it('inherits DEFAULT_LOCALE when the locale is omitted', async () => {
      process.env.DEFAULT_LOCALE = 'es';
      try {
        const res = await invite({ email: 'default-locale@example.com' });
        const [row] = await t.sql(`SELECT locale FROM identity.admin_user WHERE id = $1`, [res.body.admin_user_id]);
        expect(row.locale).toBe('es');
      } finally {
        delete process.env.DEFAULT_LOCALE;
      }
    });

    it('refuses a duplicate email in the tenant (any case) with conflict, also when two race', async () => {
      expect((await invite({ email: 'dup@example.com' })).status).toBe(200);
      const again = await invite({ email: 'DUP@Example.com' });
      expect(again.status).toBe(409);
      expect(again.body.error.kind).toBe('conflict');
      const raced = await Promise.all([0, 1, 2, 3].map(() => invite({ email: 'race@example.com' })));
      expect(raced.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      // Another tenant may have the same email.
      const other = await t.newTenant();
      expect((await invite({ email: 'dup@example.com' }, other.token)).status).toBe(200);
    });

    it('validates its input and refuses without the scope or a credential', async () => {
      const bad = [
        { email: 'not-an-email' },
        { email: 'a@example.com', locale: 'x' },
        { email: 'a@example.com', locale: 'abcdefghijk' },
        { email: 'a@example.com', role: 'root' },
        { email: 'a@example.com', admin_login_url: `https://x.example.com/${'a'.repeat(2000)}` },
        {},
      ];
      for (const input of bad) {
        const res = await invite(input);
        expect([res.status, res.body.error.kind]).toEqual([400, 'validation_failed']);
      }
      const weak = await t.command('iam.api_key.create', { name: 'reader', scopes: ['order.read'] });
      const refused = await invite({ email: 'b@example.com' }, weak.body.token);
      expect([refused.status, refused.body.error.kind]).toEqual([403, 'forbidden']);
      expect(refused.body.error.message).toContain('admin.users.write');
      const anonymous = await t.command('admin_user.invite', { email: 'b@example.com' }, null);
      expect([anonymous.status, anonymous.body.error.kind]).toEqual([401, 'unauthorized']);
    });
  });

  describe('one-time code login', () => {
    it('answers the same for an unknown email, and emits nothing for it', async () => {
      const before = (await eventsOf('auth.login_code')).length;
      const unknown = await requestCode('nobody@example.com');
      const unknownStore = await requestCode('ana@example.com', 'no-such-store');
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({ requested: true, expires_in_seconds: 600 });
      expect(unknownStore.body).toEqual(unknown.body);
      expect((await eventsOf('auth.login_code')).length).toBe(before);
    });

    it('mails a 6-digit code that is never in the event, stores it hashed, and the first login activates the operator', async () => {
      const invited = await invite({ email: 'otp@example.com', name: 'Olga', role: 'admin' });
      const code = await mailedCode('otp@example.com');
      expect(code).toMatch(/^[0-9]{6}$/);
      const payloads = JSON.stringify(await t.sql(`SELECT payload FROM identity.outbox_event`));
      expect(payloads).not.toContain(`"${code}"`);
      const [stored] = await t.sql(`SELECT code_hash, sealed_code FROM identity.login_code WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      expect(stored.code_hash.toString('utf8')).not.toContain(code);
      expect(stored.sealed_code).not.toContain(code);

      const session = await verify('OTP@example.com', code);
      expect(session.status).toBe(200);
      expect(session.body).toMatchObject({ admin_user_id: invited.body.admin_user_id, role: 'admin', activated: true, tenant_id: t.tenant.tenant_id });
      expect(session.body.token).toMatch(/^bos_/);
      const [row] = await t.sql(`SELECT status FROM identity.admin_user WHERE id = $1`, [invited.body.admin_user_id]);
      expect(row.status).toBe('active');
      expect((await eventsOf('admin_user.activated')).some((p: any) => p.admin_user_id === invited.body.admin_user_id && p.method === 'login_code')).toBe(true);
      // Used once: the same code does not work again, and its sealed copy is gone.
      expect((await verify('otp@example.com', code)).status).toBe(401);
      const [used] = await t.sql(`SELECT sealed_code FROM identity.login_code WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      expect(used.sealed_code).toBeNull();
      // A second login does not activate again.
      const second = await verify('otp@example.com', await mailedCode('otp@example.com'));
      expect(second.body.activated).toBe(false);
    });

    it('allows 5 attempts per code: after them even the right code fails', async () => {
      await invite({ email: 'guess@example.com' });
      const code = await mailedCode('guess@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const res = await verify('guess@example.com', wrong);
        expect([res.status, res.body.error.kind]).toEqual([401, 'unauthorized']);
      }
      const late = await verify('guess@example.com', code);
      expect([late.status, late.body.error.kind]).toEqual([401, 'unauthorized']);
      expect(late.body.error.message).toBe((await verify('nobody@example.com', code)).body.error.message);
    });

    it("keeps the latest earlier codes live: asking in someone's name cannot knock out the code they are typing", async () => {
      await invite({ email: 'typing@example.com' });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push(await mailedCode('typing@example.com'));
      // Three live at most: the first ended when the fourth came.
      expect((await verify('typing@example.com', codes[0])).status).toBe(401);
      expect((await verify('typing@example.com', codes[2])).status).toBe(200);
      // A login ends the operator's other live codes.
      expect((await verify('typing@example.com', codes[1])).status).toBe(401);
    });

    it('counts failed logins across codes (guesses sent at once one by one); after 5 code logins wait, and a login ends the count', async () => {
      const invited = await invite({ email: 'brute@example.com', name: 'Bruno' });
      const first = await mailedCode('brute@example.com');
      const second = await mailedCode('brute@example.com');
      const wrong = ['000000', '111111', '222222', '333333'].find((c) => c !== first && c !== second)!;
      const guesses = await Promise.all(Array.from({ length: 3 }, () => verify('brute@example.com', wrong)));
      expect(guesses.map((g) => g.status)).toEqual([401, 401, 401]);
      const row = async () =>
        (await t.sql(`SELECT failed_logins, last_failed_login_at, login_locked_until FROM identity.admin_user WHERE id = $1`, [invited.body.admin_user_id]))[0];
      expect((await row()).failed_logins).toBe(3);
      // A third code brings no more guesses: each failure spent an attempt of every live code.
      const third = await mailedCode('brute@example.com');
      const [spent] = await t.sql(
        `SELECT min(attempts) AS attempts FROM identity.login_code WHERE admin_user_id = $1 AND created_at < (SELECT max(created_at) FROM identity.login_code WHERE admin_user_id = $1)`,
        [invited.body.admin_user_id],
      );
      expect(Number(spent.attempts)).toBe(3);
      for (let i = 0; i < 2; i++) expect((await verify('brute@example.com', wrong)).status).toBe(401);
      const waiting = await row();
      expect(waiting.failed_logins).toBe(5);
      expect(waiting.login_locked_until.getTime() - Date.now()).toBeGreaterThan(50_000);
      // While it waits even the right code is refused, with the same answer, and nothing more is counted.
      const refused = await verify('brute@example.com', third);
      expect([refused.status, refused.body.error.message]).toEqual([401, (await verify('nobody@example.com', third)).body.error.message]);
      expect((await row()).failed_logins).toBe(5);
      const listed = await t.read('/internal/admin-users', { limit: '100' });
      expect(listed.body.items.find((i: any) => i.admin_user_id === invited.body.admin_user_id)).toMatchObject({
        failed_logins: 5,
        last_failed_login_at: waiting.last_failed_login_at.toISOString(),
        login_locked_until: waiting.login_locked_until.toISOString(),
      });
      // The wait over, the codes live through all 5 failures are used up; a sixth failure counts (and waits longer); the third code (3 attempts spent) works, and the count ends.
      await t.sql(`UPDATE identity.admin_user SET login_locked_until = now() - interval '1 second' WHERE id = $1`, [invited.body.admin_user_id]);
      expect((await verify('brute@example.com', second)).status).toBe(401);
      expect((await t.sql(`SELECT failed_logins FROM identity.admin_user WHERE id = $1`, [invited.body.admin_user_id]))[0].failed_logins).toBe(6);
      await t.sql(`UPDATE identity.admin_user SET login_locked_until = now() - interval '1 second' WHERE id = $1`, [invited.body.admin_user_id]);
      expect((await verify('brute@example.com', third)).status).toBe(200);
      expect(await row()).toMatchObject({ failed_logins: 0, login_locked_until: null });
      // The same for an operator already active: a failure, then a login, and the count is gone.
      const fourth = await mailedCode('brute@example.com');
      expect((await verify('brute@example.com', wrong === fourth ? '444444' : wrong)).status).toBe(401);
      expect((await row()).failed_logins).toBe(1);
      expect((await verify('brute@example.com', fourth)).status).toBe(200);
      expect((await row()).failed_logins).toBe(0);
    });

    it('counts no failure for an operator without a live code, and answers every request and failure no sooner than the floor', async () => {
      const invited = await invite({ email: 'nocode@example.com' });
      const started = Date.now();
      expect((await verify('nocode@example.com', '123456')).status).toBe(401);
      expect(Date.now() - started).toBeGreaterThanOrEqual(LOGIN_FLOOR_MS);
      const [row] = await t.sql(`SELECT failed_logins FROM identity.admin_user WHERE id = $1`, [invited.body.admin_user_id]);
      expect(row.failed_logins).toBe(0);
      for (const email of ['nocode@example.com', 'stranger@example.com']) {
        const asked = Date.now();
        expect((await requestCode(email)).status).toBe(200);
        expect(Date.now() - asked).toBeGreaterThanOrEqual(LOGIN_FLOOR_MS);
      }
    });

    it('opens no code for the mail once its operator cannot log in', async () => {
      const invited = await invite({ email: 'gone@example.com' });
      await requestCode('gone@example.com');
      const [{ id }] = await t.sql(`SELECT id FROM identity.login_code WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      const handoff = loginCodeHandoff(t.system.runtimes.get('identity')!);
      expect(await handoff.open(id)).not.toBeNull();
      // As a request racing the deactivation would leave it: a sealed code of a deactivated operator.
      await t.sql(`UPDATE identity.admin_user SET status = 'deactivated' WHERE id = $1`, [invited.body.admin_user_id]);
      expect(await handoff.open(id)).toBeNull();
    });

    it('takes requests and wrong guesses for one operator at once without a deadlock (an expired code and a live one to end)', async () => {
      const invited = await invite({ email: 'race@example.com' });
      await mailedCode('race@example.com');
      await t.sql(`UPDATE identity.login_code SET expires_at = now() - interval '1 second' WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      const live = await mailedCode('race@example.com');
      const wrong = live === '000000' ? '111111' : '000000';
      const answers = await Promise.all([
        ...Array.from({ length: 3 }, () => requestCode('race@example.com')),
        ...Array.from({ length: 4 }, () => verify('race@example.com', wrong)),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 401, 401, 401, 401]);
    });

    it('makes code logins wait 1 minute after 5 failures, doubling, at most an hour', () => {
      expect([4, 5, 6, 7, 11, 12, 40].map(loginWaitMs)).toEqual([0, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000]);
    });

    it('refuses an expired code', async () => {
      const invited = await invite({ email: 'late@example.com' });
      const code = await mailedCode('late@example.com');
      await t.sql(`UPDATE identity.login_code SET expires_at = now() - interval '1 second' WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      expect((await verify('late@example.com', code)).status).toBe(401);
      const [{ id }] = await t.sql(`SELECT id FROM identity.login_code WHERE admin_user_id = $1`, [invited.body.admin_user_id]);
      expect(await loginCodeHandoff(t.system.runtimes.get('identity')!).open(id)).toBeNull();
    });

    it('validates a code as 6 digits', async () => {
      const res = await verify('otp@example.com', '12345a');
      expect([res.status, res.body.error.kind]).toEqual([400, 'validation_failed']);
    });
  });

  describe('sessions', () => {
    it('a session is a Bearer credential with the role’s scopes; the audit trail names the operator', async () => {
      const ops = await loggedIn('boss@example.com', 'admin', 'Bea Boss');
      const whoami = await t.read('/internal/whoami', {}, ops.token);
      expect(whoami.status).toBe(200);
      expect(whoami.body.actor_id).toBe(ops.admin_user_id);
      expect(whoami.body.scopes).toContain('tenant.store.write');
      expect(whoami.body.scopes).not.toContain('admin.users.write');
      const updated = await t.command('tenant.store.update', { id: t.tenant.store_id, notification_sender_name: 'Bea’s shop' }, ops.token);
      expect(updated.status).toBe(200);
      const refused = await invite({ email: 'x@example.com' }, ops.token);
      expect([refused.status, refused.body.error.kind]).toEqual([403, 'forbidden']);
      await t.flushAudit();
      const audit = await t.read('/internal/audit', { actor: ops.admin_user_id, limit: '100' });
      const lines = audit.body.items.map((i: any) => `${i.actor_name}:${i.operation}:${i.outcome}`);
      expect(lines).toEqual(
        expect.arrayContaining(['Bea Boss:tenant.store.update:ok', 'Bea Boss:admin_user.invite:forbidden', 'Bea Boss:auth.login_code.verify:ok']),
      );
    });

    it("whoami answers a session its operator's own locale, as it is now, and a key none", async () => {
      const ops = await loggedIn('lang@example.com');
      expect((await t.read('/internal/whoami', {}, ops.token)).body.locale).toBe('en');
      expect((await t.command('admin_user.update', { admin_user_id: ops.admin_user_id, locale: 'pt-BR' })).status).toBe(200);
      expect((await t.read('/internal/whoami', {}, ops.token)).body.locale).toBe('pt-BR');
      expect((await t.read('/internal/whoami', {})).body.locale).toBeNull();
    });

    it('an owner-role session cannot take the owner key, and the keys an operator issued end with it', async () => {
      const boss = await loggedIn('owner-role@example.com', 'owner');
      for (const name of ['iam.api_key.rotate', 'iam.api_key.revoke']) {
        const input = name === 'iam.api_key.rotate' ? { api_key_id: t.tenant.api_key_id, overlap_hours: 0 } : { api_key_id: t.tenant.api_key_id };
        const res = await t.command(name, input, boss.token);
        expect([name, res.status, res.body.error?.kind, res.body.error?.owner_required]).toEqual([name, 403, 'forbidden', true]);
      }
      expect((await t.read('/internal/whoami', {})).status).toBe(200);
      const minted = await t.command('iam.api_key.create', { name: 'side door', scopes: ['order.read'] }, boss.token);
      expect(minted.status).toBe(200);
      expect((await t.read('/internal/whoami', {}, minted.body.token)).status).toBe(200);
      const gone = await t.command('admin_user.deactivate', { admin_user_id: boss.admin_user_id });
      expect(gone.body.api_keys_revoked).toEqual([minted.body.api_key_id]);
      expect((await t.read('/internal/whoami', {}, minted.body.token)).status).toBe(401);
    });

    it('the hourly sweep erases expired codes’ sealed copies and deletes what ended a day ago', async () => {
      const ops = await loggedIn('swept@example.com');
      expect((await requestCode('swept@example.com')).status).toBe(200);
      const identityDb = t.system.runtimes.get('identity')!.dataSource;
      const sweep = () => sweepExpiredLoginsJob.handler({ dataSource: identityDb, log: () => undefined, runAs: async () => undefined });
      const count = async (table: string) =>
        (await t.sql(`SELECT count(*)::int AS n FROM identity.${table} WHERE admin_user_id = $1`, [ops.admin_user_id]))[0].n;
      await t.sql(`UPDATE identity.login_code SET expires_at = now() - interval '1 minute' WHERE admin_user_id = $1`, [ops.admin_user_id]);
      await sweep();
      expect(
        await t.sql(`SELECT count(*)::int AS n FROM identity.login_code WHERE admin_user_id = $1 AND sealed_code IS NOT NULL`, [ops.admin_user_id]),
      ).toEqual([{ n: 0 }]);
      expect(await count('login_code')).toBeGreaterThan(0);
      await t.sql(`UPDATE identity.login_code SET expires_at = now() - interval '2 days' WHERE admin_user_id = $1`, [ops.admin_user_id]);
      await t.sql(`UPDATE identity.operator_session SET expires_at = now() - interval '2 days' WHERE admin_user_id = $1`, [ops.admin_user_id]);
      await sweep();
      expect([await count('login_code'), await count('operator_session')]).toEqual([0, 0]);
    });

    it('logout ends the session at once', async () => {
      const ops = await loggedIn('leaving@example.com');
      expect((await t.read('/internal/whoami', {}, ops.token)).status).toBe(200);
      const out = await t.command('auth.logout', {}, ops.token);
      expect(out.status).toBe(200);
      expect(out.body.logged_out).toBe(true);
      const after = await t.read('/internal/whoami', {}, ops.token);
      expect([after.status, after.body.error.kind]).toEqual([401, 'unauthorized']);
      // An API key does not log out.
      const key = await t.command('auth.logout', {});
      expect([key.status, key.body.error.kind]).toEqual([409, 'conflict']);
    });

    it('an expired session answers 401 unauthorized, whether looked up or remembered in process', async () => {
      const ops = await loggedIn('expiring@example.com');
      const whoami = (token: string) => t.read('/internal/whoami', {}, token);
      const works = await whoami(ops.token);
      expect([works.status, works.body.actor_id]).toEqual([200, ops.admin_user_id]);
      await t.sql(`UPDATE identity.operator_session SET expires_at = now() - interval '1 second' WHERE admin_user_id = $1`, [ops.admin_user_id]);
      // The copy remembered at first use carries the expiry it was read with (12 hours on): a process
      // that does not remember the session, or this one past its cache's TTL, looks it up again.
      authenticatorOf(t.system.runtimes.get('identity')!).forgetKey(ops.admin_user_id);
      const looked = await whoami(ops.token);
      expect([looked.status, looked.body.error.kind]).toEqual([401, 'unauthorized']);

      // Remembered: a second session whose expiry is near when first used, then passes.
      const second = await verify('expiring@example.com', await mailedCode('expiring@example.com'));
      expect(second.status).toBe(200);
      const [{ id }] = await t.sql(`SELECT id FROM identity.operator_session WHERE admin_user_id = $1 AND expires_at > now()`, [ops.admin_user_id]);
      await t.sql(`UPDATE identity.operator_session SET expires_at = now() + interval '2 seconds' WHERE id = $1`, [id]);
      const [{ ends }] = await t.sql(`SELECT expires_at AS ends FROM identity.operator_session WHERE id = $1`, [id]);
      expect((await whoami(second.body.token)).status).toBe(200);
      // The database now gives it another hour: only the remembered copy's own expiry can refuse it.
      await t.sql(`UPDATE identity.operator_session SET expires_at = now() + interval '1 hour' WHERE id = $1`, [id]);
      await new Promise((resolve) => setTimeout(resolve, new Date(ends).getTime() - Date.now() + 50));
      const remembered = await whoami(second.body.token);
      expect([remembered.status, remembered.body.error.kind]).toEqual([401, 'unauthorized']);
    });

    it('deactivation revokes every session at once and refuses logins; the email may be invited again', async () => {
      const ops = await loggedIn('gone@example.com');
      const second = await verify('gone@example.com', await mailedCode('gone@example.com'));
      expect((await t.read('/internal/whoami', {}, ops.token)).status).toBe(200);
      const res = await t.command('admin_user.deactivate', { admin_user_id: ops.admin_user_id });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'deactivated', sessions_revoked: 2 });
      expect((await t.read('/internal/whoami', {}, ops.token)).status).toBe(401);
      expect((await t.read('/internal/whoami', {}, second.body.token)).status).toBe(401);
      const before = (await eventsOf('auth.login_code')).length;
      await requestCode('gone@example.com');
      expect((await eventsOf('auth.login_code')).length).toBe(before);
      expect((await invite({ email: 'gone@example.com' })).status).toBe(200);
    });

    it('a role change applies to live sessions at once', async () => {
      const ops = await loggedIn('promoted@example.com', 'staff');
      expect((await t.read('/internal/whoami', {}, ops.token)).body.scopes).not.toContain('tenant.store.write');
      const res = await t.command('admin_user.update', { admin_user_id: ops.admin_user_id, role: 'admin', locale: 'es' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ role: 'admin', locale: 'es', status: 'active' });
      expect((await t.read('/internal/whoami', {}, ops.token)).body.scopes).toContain('tenant.store.write');
      const unknown = await t.command('admin_user.update', { admin_user_id: 'adm_nope', name: 'x' });
      expect([unknown.status, unknown.body.error.kind]).toEqual([409, 'conflict']);
    });
  });

  describe('read.internal.admin_users', () => {
    it('masks email and name without pii.read, shows them with it', async () => {
      const staff = await loggedIn('reader@example.com', 'staff', 'Rita Reader');
      const masked = await t.read('/internal/admin-users', { limit: '100' }, staff.token);
      expect(masked.status).toBe(200);
      const mine = masked.body.items.find((i: any) => i.admin_user_id === staff.admin_user_id);
      expect(mine).toMatchObject({ email: '***@example.com', name: '***', role: 'staff', status: 'active' });
      const clear = await t.read('/internal/admin-users', { limit: '100', status: 'active' });
      expect(clear.body.items.find((i: any) => i.admin_user_id === staff.admin_user_id)).toMatchObject({ email: 'reader@example.com', name: 'Rita Reader' });
      const weak = await t.command('iam.api_key.create', { name: 'orders', scopes: ['order.read'] });
      const refused = await t.read('/internal/admin-users', {}, weak.body.token);
      expect([refused.status, refused.body.error.kind]).toEqual([403, 'forbidden']);
    });
  });

  describe('OIDC', () => {
    /** A tiny cookie jar and manual redirects: the browser's part of the code flow. */
    async function browse(start: string) {
      const jar = new Map<string, string>();
      const go = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as object), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair.indexOf('=');
          jar.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        return response;
      };
      return { go, start };
    }

    async function oidcLogin(login: string, store = storeHandle, beforeCallback?: (url: string) => Promise<void>) {
      const { go } = await browse('');
      let response = await go(`${t.url}/v1/auth/oidc/start?store=${store}`);
      expect(response.status).toBe(302);
      const authorize = new URL(response.headers.get('location')!);
      expect(authorize.origin).toBe(process.env.OIDC_ISSUER);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('state')).toBeTruthy();
      expect(authorize.searchParams.get('nonce')).toBeTruthy();
      let url = authorize.href;
      // Follow the provider: interactions (login, then consent) until it sends the browser back to us.
      for (let hop = 0; hop < 12; hop++) {
        response = await go(url);
        if (response.status >= 300 && response.status < 400) {
          url = new URL(response.headers.get('location')!, url).href;
          if (url.startsWith(`${t.url}/v1/auth/oidc/callback`)) break;
          continue;
        }
        const html = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
        const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
        if (!action || !prompt) throw new Error(`unexpected page from the provider (${response.status}): ${html.slice(0, 300)}`);
        const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
        response = await go(new URL(action, url).href, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
        url = new URL(response.headers.get('location')!, url).href;
        if (url.startsWith(`${t.url}/v1/auth/oidc/callback`)) break;
      }
      expect(url.startsWith(`${t.url}/v1/auth/oidc/callback`)).toBe(true);
      await beforeCallback?.(url);
      const callback = await go(url);
      return { status: callback.status, body: (await callback.json()) as any, url };
    }

    it('drives the authorization code flow with PKCE against a real provider and activates an invited operator', async () => {
      const invited = await invite({ email: 'oidc@example.com', name: 'Odin', role: 'admin' });
      const done = await oidcLogin('oidc@example.com');
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ admin_user_id: invited.body.admin_user_id, activated: true, role: 'admin' });
      const [row] = await t.sql(`SELECT status FROM identity.admin_user WHERE id = $1`, [invited.body.admin_user_id]);
      expect(row.status).toBe('active');
      expect((await eventsOf('admin_user.activated')).some((p: any) => p.admin_user_id === invited.body.admin_user_id && p.method === 'oidc')).toBe(true);
      const whoami = await t.read('/internal/whoami', {}, done.body.token);
      expect(whoami.body.actor_id).toBe(invited.body.admin_user_id);
      // The state is used once: replaying the callback is refused.
      const replay = await fetch(done.url);
      expect(replay.status).toBe(401);
    });

    it('binds the attempt to the browser that started it: its code and state are worth nothing elsewhere', async () => {
      const invited = await invite({ email: 'bound@example.com', name: 'Bea', role: 'staff' });
      const done = await oidcLogin('bound@example.com', storeHandle, async (url) => {
        // Another browser (no cookie, or its own) is refused, and the attempt stays usable for the right one.
        expect((await fetch(url)).status).toBe(401);
        expect((await fetch(url, { headers: { cookie: `bo_oidc_binding=${'x'.repeat(43)}` } })).status).toBe(401);
      });
      expect([done.status, done.body.admin_user_id]).toEqual([200, invited.body.admin_user_id]);
    });

    it('refuses an unverified email and an email that is no operator of the store', async () => {
      await invite({ email: 'shady@example.com' });
      const unverified = await oidcLogin('unverified.shady@example.com');
      expect([unverified.status, unverified.body.error.kind]).toEqual([401, 'unauthorized']);
      const stranger = await oidcLogin('stranger@example.com');
      expect([stranger.status, stranger.body.error.kind]).toEqual([401, 'unauthorized']);
    });

    it('refuses a start at an unknown store and a callback with an unknown state', async () => {
      const start = await fetch(`${t.url}/v1/auth/oidc/start?store=no-such-store`, { redirect: 'manual' });
      expect(start.status).toBe(409);
      const forged = await fetch(`${t.url}/v1/auth/oidc/callback?code=abc&state=forged`);
      expect(forged.status).toBe(401);
    });
  });

  describe('login rate limits', () => {
    it('limits code requests per email', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await requestCode('flood@example.com')).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
    });

    it('limits code requests per client address', async () => {
      let refused: any = null;
      for (let i = 0; i < 40 && !refused; i++) {
        const res = await requestCode(`addr${i}@example.com`);
        if (res.status !== 200) refused = res;
      }
      expect(refused?.status).toBe(429);
      expect(refused.body.error.kind).toBe('rate_limited');
    });
  });
});
