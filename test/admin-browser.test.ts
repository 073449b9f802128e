import { ownerSignIn } from '@backoffice/identity';
import type { Browser } from 'playwright-core';
import { accessibilityFindings, browserIt, expectClean, installed, launch, open as openOn, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The admin front-end in Debian's Chromium over the real gateway and PostgreSQL: signed in by the
 * one-time link the first start prints, through its screens, under its Content-Security-Policy,
 * offline (any request elsewhere is aborted and named), with no serious or critical axe-core finding
 * (the shared checks: ./admin-browser-helpers.ts).
 */
let t: TestSystem;
let browser: Browser;
let orderId: string;

beforeAll(async () => {
  t = await startTestSystem();
  for (const n of [1, 2, 3]) {
    const { product_id } = await t.ok('catalog.product.create', { title: `Admin mug ${n}`, handle: `admin-mug-${n}`, status: 'active' });
    const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: `AM-${n}`, amount: 1500, currency: 'EUR' });
    await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
    await t.ok('inventory.adjust', { sku_id, on_hand: 10 });
    if (n === 1) {
      const order = await t.ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 2 }] });
      orderId = order.order_id;
    }
  }
  if (!installed) return;
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const open = () => openOn(browser, t.url);

browserIt(
  'signs in by the one-time link, lists products and orders, shows an order with its titles, and signs out',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@admin.test');
    const session = await open();
    const { page, context } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      // Signed in: the products screen, the fragment gone from the address bar.
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      expect(page.url()).toBe(`${t.url}/admin/catalog/products`);
      for (const n of [1, 2, 3]) await page.getByRole('cell', { name: `Admin mug ${n}` }).waitFor();
      await screenshot(page, 'products');
      // The session is an HttpOnly cookie; the page holds no token.
      const cookie = (await context.cookies()).find((c) => c.name === 'bo_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      const stored = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie');
      expect(stored).not.toContain(cookie!.value);
      await expectClean(session);

      await page.getByRole('link', { name: 'Orders' }).first().click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      await page.getByRole('link', { name: orderId }).waitFor();
      await screenshot(page, 'orders');
      await page.getByRole('link', { name: orderId }).click();
      await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
      await page.getByText('Admin mug 1').first().waitFor();
      await screenshot(page, 'order');
      await expectClean(session);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await screenshot(page, 'sign-in');
      // The session is over on the server too: the old cookie no longer reads anything.
      const after = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `bo_session=${cookie!.value}`, origin: new URL(t.url).origin },
        body: JSON.stringify({ query: '{ read_internal_whoami { name } }' }),
      });
      expect(after.status).toBe(401);
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  120_000,
);

browserIt(
  'asks a stranger to sign in, in the browser’s language (Portuguese and Spanish too), keyboard first',
  async () => {
    for (const [locale, heading] of [
      ['pt-BR', 'Entrar'],
      ['es-ES', 'Iniciar sesión'],
    ] as const) {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      try {
        await page.goto(`${t.url}/admin/orders`);
        await page.getByRole('heading', { name: heading }).waitFor({ timeout: 30_000 });
        // The first field takes focus from the keyboard alone.
        await page.keyboard.press('Tab');
        const focused = await page.evaluate<string>('document.activeElement?.tagName ?? ""');
        expect(['INPUT', 'BUTTON', 'A', 'SELECT']).toContain(focused);
        expect(await accessibilityFindings(page)).toEqual([]);
      } finally {
        await context.close();
      }
    }
  },
  90_000,
);
