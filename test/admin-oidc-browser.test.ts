import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, screenshot, type Session } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Signing in to the admin with an OIDC provider, in Chromium against a real one (`oidc-provider`, as
 * test/operators.test.ts runs it): the sign-in page offers "Sign in with <provider>" once the instance has
 * one, the provider's login leads back to the page the operator asked for, signed in by the same HttpOnly
 * session cookie as the code sign-in (no token in any page or URL); a staff operator sees the customer
 * masked. A login the server refuses comes back to the sign-in page, worded. Over HTTP: the public read saying a
 * provider is configured, and the start taking only a path of the admin to return to.
 */
let t: TestSystem;
let browser: Browser;
let provider: ChildProcess;
let issuer: string;
let storeHandle: string;
let orderId: string;
const saved = { ...process.env };

beforeAll(async () => {
  t = await startTestSystem();
  [{ handle: storeHandle }] = await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [t.tenant.store_id]);
  provider = spawn(process.execPath, [join(__dirname, 'fixtures', 'oidc-provider.mjs'), 'backoffice', 'test-secret', `${t.url}/v1/auth/oidc/callback`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: provider.stdout! }).once('line', resolve);
    provider.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
  issuer = JSON.parse(line).issuer;
  Object.assign(process.env, {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'backoffice',
    OIDC_CLIENT_SECRET: 'test-secret',
    OIDC_REDIRECT_URI: `${t.url}/v1/auth/oidc/callback`,
    OIDC_PROVIDER_NAME: 'Test ID',
  });
  await t.ok('admin_user.invite', { email: 'olga@oidc.test', name: 'Olga Staff', role: 'staff' });
  const { product_id } = await t.ok('catalog.product.create', { title: 'Cup', handle: 'cup', status: 'active' });
  const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: 'CUP-1', amount: 900, currency: 'EUR' });
  await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
  await t.ok('inventory.adjust', { sku_id, on_hand: 5 });
  ({ order_id: orderId } = await t.ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'carla@example.com' }, items: [{ sku_id, qty: 1 }] }));
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  provider?.kill('SIGTERM');
  process.env = saved;
  await t?.stop();
});

/**
 * The provider's own pages as a person fills them in: its development login (any password), then its
 * consent (a first login to this client asks it), after which it sends the browser back. Its pages load a
 * web font from elsewhere, which the session aborts and names: forgotten once back, as those pages are not the admin's.
 */
async function atTheProvider(session: Session, login: string): Promise<void> {
  const { page } = session;
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.locator('input[name="prompt"][value="consent"]').waitFor({ state: 'attached' });
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === new URL(t.url).origin && url.pathname.startsWith('/admin'));
  await page.waitForLoadState('load');
  session.elsewhere.splice(0);
  session.errors.splice(0);
}

browserIt(
  'signs a staff operator in with the provider, back to the page asked for, by the HttpOnly session cookie',
  async () => {
    const session = await open(browser, t.url, [issuer]);
    const { page, context } = session;
    try {
      // Not signed in: the order's page sends the operator to sign in, which offers the provider.
      await page.goto(`${t.url}/admin/orders/${encodeURIComponent(orderId)}`);
      const withProvider = page.getByRole('button', { name: 'Sign in with Test ID' });
      await withProvider.waitFor({ timeout: 30_000 });
      // The browser logs the 401 that sent it here (the page's first queries, without a session): that is the point.
      expect(session.errors.splice(0).every((error) => error.includes('401 (Unauthorized)'))).toBe(true);
      // The store is needed first, said on its field.
      await withProvider.click();
      await page.getByText('Enter your store’s handle first').waitFor();
      await expect(page.getByLabel('Store').getAttribute('aria-invalid')).resolves.toBe('true');
      await screenshot(page, 'sign-in-oidc');
      await expectClean(session);

      await page.getByLabel('Store').fill(storeHandle);
      await withProvider.click();
      await atTheProvider(session, 'olga@oidc.test');
      await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor({ timeout: 30_000 });
      expect(page.url()).toBe(`${t.url}/admin/orders/${encodeURIComponent(orderId)}`);
      await page.getByText('Signed in as Olga Staff').waitFor();
      // Staff hold no pii.read: the customer is masked, and the page says why.
      await page.getByText('***@example.com').waitFor();
      await page.getByText('Masked: personal fields need the pii.read scope.').waitFor();
      await expectClean(session);

      // The same cookie as the code sign-in: HttpOnly, SameSite=Strict, unreadable by the page; the attempt's cookies gone
      // (the provider's own cookies are there too: cookies do not tell ports apart, and it runs on the same address).
      const cookies = (await context.cookies(t.url)).filter((c) => c.name.startsWith('bo_'));
      const sessionCookie = cookies.find((c) => c.name === 'bo_session');
      expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(sessionCookie?.value).toMatch(/^bos_/);
      expect(cookies.map((c) => c.name).sort()).toEqual(['bo_session']);
      expect(await page.evaluate<string>('document.cookie')).not.toContain('bos_');
      expect(await page.evaluate<string>('JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + location.href')).not.toContain('bos_');
      const whoami = await t.read('/internal/whoami', {}, sessionCookie!.value);
      expect(whoami.body.name).toBe('Olga Staff');
      const [operator] = await t.sql(`SELECT status FROM identity.admin_user WHERE email = 'olga@oidc.test'`);
      expect(operator.status).toBe('active');
    } finally {
      await context.close();
    }
  },
  180_000,
);

browserIt(
  'brings a login the server refuses back to the sign-in page, in words, signed out',
  async () => {
    const session = await open(browser, t.url, [issuer]);
    const { page, context } = session;
    try {
      await page.goto(`${t.url}/admin/sign-in`);
      await page.getByLabel('Store').fill(storeHandle);
      await page.getByRole('button', { name: 'Sign in with Test ID' }).click();
      await atTheProvider(session, 'stranger@oidc.test');
      const alert = page.getByRole('alert').filter({ hasText: 'did not go through' });
      await alert.waitFor({ timeout: 30_000 });
      await expect(alert.textContent()).resolves.toContain('that email is not an operator of this store');
      expect(new URL(page.url()).hash).toBe('');
      expect((await context.cookies(t.url)).filter((c) => c.name.startsWith('bo_'))).toEqual([]);
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  120_000,
);

it('says a provider is configured, and takes only a path of the admin to return to', async () => {
  expect((await t.read('/auth/methods', {}, null)).body).toEqual({ login_code: true, oidc: { provider: 'Test ID' } });
  const start = (query: Record<string, string>) => fetch(`${t.url}/v1/auth/oidc/start?${new URLSearchParams(query)}`, { redirect: 'manual' });
  for (const elsewhere of ['//evil.example/admin', 'https://evil.example/admin', '/admin/../v1/read/internal/whoami', '/v1/admin', '/administrator']) {
    const refused = await start({ store: storeHandle, return_to: elsewhere });
    expect([elsewhere, refused.status, ((await refused.json()) as { error: { kind: string } }).error.kind]).toEqual([elsewhere, 400, 'validation_failed']);
  }
  // Begun by the admin, a refusal goes back to its sign-in page with codes, not words; the API's start still answers JSON.
  const unknown = await start({ store: 'no-such-store', return_to: '/admin/orders' });
  expect([unknown.status, unknown.headers.get('location')]).toEqual([303, '/admin/sign-in#oidc_error=conflict&oidc_reason=not_found']);
  expect((await start({ store: 'no-such-store' })).status).toBe(409);
  const begun = await start({ store: storeHandle, return_to: '/admin/orders?status=paid' });
  expect(begun.status).toBe(302);
  expect(begun.headers.getSetCookie().map((c) => c.split(';')[0].split('=')[0])).toEqual(['bo_oidc_binding', 'bo_oidc_return']);
});
