import { ownerSignIn } from '@backoffice/identity';
import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Settings → Shipping and Settings → Payments in Chromium over the real gateway and PostgreSQL: the owner
 * creates a zone (a bad postal code refused on its field first) and a method charging by weight band,
 * changes it, and the quote tester offers it at its price for a cart of a weighed SKU, names why another
 * method is not offered, and refuses a bad postal code on its field; then installs a payment app (a bad
 * key refused on its field first), sets a store's payment window for its method, sees it listed after a
 * reload, clears it, and uninstalls the app (asked first) and installs it again. The server holds each change; every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;

beforeAll(async () => {
  t = await startTestSystem();
  // A SKU with a weight and a size (weight bands need both), for sale in the tenant's store.
  const { product_id } = await t.ok('catalog.product.create', { title: 'Quote mug', handle: 'quote-mug', status: 'active' });
  await t.ok('catalog.sku.create', { product_id, code: 'QM-1', amount: 1500, currency: 'EUR', weight_grams: 800, length_cm: 20, width_cm: 15, height_cm: 10 });
  await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
  // A method no 800 g parcel fits, to be named among those not offered.
  await t.ok('shipping.method.create', { name: 'Locker', kind: 'pickup', dimensional_divisor: 6000, max_weight_grams: 500 });
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

browserIt(
  'configures a zone and a priced method, quotes a cart, installs a payment app and sets a store’s payment window',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@shipping.test');
    const session = await open(browser, t.url);
    const { page } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'Settings' }).first().click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Shipping' }).click();
      await page.getByRole('heading', { name: 'Shipping', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings/shipping');
      await page.getByRole('table', { name: 'Methods' }).getByText('Locker').waitFor();
      await expectClean(session);

      // A zone: a postal code that is not one is refused on its field, in words.
      await page.getByRole('button', { name: 'New zone' }).click();
      const zoneForm = page.getByRole('region', { name: 'New zone' });
      await zoneForm.getByLabel('Name').fill('Lisbon');
      await zoneForm.getByLabel('From postal code').fill('1000-001');
      await zoneForm.getByLabel('To postal code').fill('1999-99#');
      await zoneForm.getByRole('button', { name: 'Create zone' }).click();
      const to = zoneForm.getByLabel('To postal code');
      await zoneForm.getByText('a postal code is 1 to 16 letters or digits', { exact: false }).waitFor();
      await expect(to.getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(session);
      await to.fill('1999-999');
      await zoneForm.getByRole('button', { name: 'Create zone' }).click();
      const zoneRow = page.getByRole('table', { name: 'Zones' }).getByRole('row').filter({ hasText: 'Lisbon' });
      await zoneRow.getByText('1999999').waitFor();
      await expect(zoneRow.getByText('1000001').count()).resolves.toBe(1);

      // A method serving it, by weight band.
      await page.getByRole('button', { name: 'New method' }).click();
      const methodForm = page.getByRole('region', { name: 'New method' });
      await methodForm.getByLabel('Name').fill('Courier');
      await methodForm.getByRole('checkbox', { name: 'Lisbon' }).check();
      await methodForm.getByLabel('Charge').selectOption('bands');
      await methodForm.getByLabel('Currency').fill('EUR');
      await methodForm.getByLabel('Band 1: up to (g)').fill('1000');
      await methodForm.getByLabel('Band 1: price (minor units)').fill('490');
      await methodForm.getByRole('button', { name: 'Add band' }).click();
      await methodForm.getByLabel('Band 2: up to (g)').fill('5000');
      await methodForm.getByLabel('Band 2: price (minor units)').fill('990');
      await expectClean(session);
      await methodForm.getByRole('button', { name: 'Create method' }).click();
      const courier = page.getByRole('table', { name: 'Methods' }).getByRole('row').filter({ hasText: 'Courier' });
      await courier.getByText('up to 1000 g: €4.90; up to 5000 g: €9.90').waitFor();
      await expect(courier.getByText('Lisbon').count()).resolves.toBe(1);
      await expectClean(session);

      // Changed: two transit days.
      await courier.getByRole('button', { name: 'Edit Courier' }).click();
      const editForm = page.getByRole('region', { name: 'Edit Courier' });
      await editForm.getByLabel('Transit days').fill('2');
      await editForm.getByRole('button', { name: 'Save method' }).click();
      await editForm.waitFor({ state: 'detached' });
      const [method] = await t.sql<{ transit_days: number; rates: unknown }>(`SELECT transit_days, rates FROM orders.shipping_method WHERE name = 'Courier'`);
      expect(method.transit_days).toBe(2);

      // The quote tester: a bad postal code is refused on its field.
      const tester = page.getByRole('region', { name: 'Quote tester' });
      await tester.getByLabel('Find a SKU').fill('QM-1');
      await tester.getByRole('button', { name: 'Find' }).click();
      await tester.getByLabel('SKU', { exact: true }).waitFor();
      await tester.getByRole('button', { name: 'Add to cart' }).click();
      await tester.getByRole('table', { name: 'Cart' }).getByText('QM-1', { exact: false }).waitFor();
      const postalCode = tester.getByLabel('Destination postal code');
      await postalCode.fill('15#');
      await tester.getByRole('button', { name: 'Get quote' }).click();
      await tester.getByText('a postal code is 1 to 16 letters or digits', { exact: false }).waitFor();
      await expect(postalCode.getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(session);

      // In the zone: Courier at its first band's price; Locker not offered, and why.
      await postalCode.fill('1500-100');
      await tester.getByRole('button', { name: 'Get quote' }).click();
      const offered = tester.getByRole('table', { name: 'Methods offered' }).getByRole('row').filter({ hasText: 'Courier' });
      await offered.getByText('€4.90').waitFor();
      await expect(offered.getByText('800 g').count()).resolves.toBe(1);
      await tester.getByText('Locker: the parcel is heavier than its limit').waitFor();
      await expect(postalCode.getAttribute('aria-invalid')).resolves.toBe('false');
      await tester.getByText('To 1500100, in 1 zone; parcel weight 800 g.').waitFor();
      await expectClean(session);
      await offered.scrollIntoViewIfNeeded();
      await screenshot(page, 'settings-shipping');

      // Payments: an app key that is not one is refused on its field.
      await page.getByRole('link', { name: '← Settings' }).click();
      await page.getByRole('main').getByRole('link', { name: 'Payments' }).click();
      await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
      await page.getByText('No payment app yet.').waitFor();
      await expectClean(session);
      await page.getByRole('button', { name: 'Install a payment app' }).click();
      const install = page.getByRole('region', { name: 'Install a payment app' });
      const appKey = install.getByLabel('App key');
      await appKey.fill('Card Pay');
      await install.getByLabel('Name').fill('Card Pay');
      await install.getByLabel('Method 1: key').fill('card');
      await install.getByLabel('Method 1: payment window (s)').fill('1800');
      await install.getByRole('button', { name: 'Install', exact: true }).click();
      await install.getByText('app_key must match pattern', { exact: false }).waitFor();
      await expect(appKey.getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(session);
      await appKey.fill('card_pay');
      await install.getByRole('button', { name: 'Install', exact: true }).click();
      const app = page.getByRole('table', { name: 'Payment apps' }).getByRole('row').filter({ hasText: 'Card Pay' });
      await app.getByText('card: 30 minutes').waitFor();
      await expect(app.getByText('Installed', { exact: true }).count()).resolves.toBe(1);

      // The store's window for card payments: ten minutes.
      const windowForm = page.getByRole('region', { name: 'Payment window of a store' });
      await windowForm.getByText('The app declares: 30 minutes.').waitFor();
      await windowForm.getByLabel('Window (seconds)').fill('600');
      await windowForm.getByRole('button', { name: 'Set window' }).click();
      await windowForm.getByRole('status').getByText('now waits 10 minutes for card payments.', { exact: false }).waitFor();
      const windows = await t.sql<{ store_id: string; method: string; reservation_window_seconds: number }>(
        `SELECT store_id, method, reservation_window_seconds FROM orders.payment_window`,
      );
      expect(windows).toEqual([{ store_id: t.tenant.store_id, method: 'card', reservation_window_seconds: 600 }]);
      // Read back after a reload: listed with the app by store name, and the form starts from it.
      const [store] = await t.sql<{ name: string }>(`SELECT name FROM identity.store WHERE id = $1`, [t.tenant.store_id]);
      await page.reload();
      await app.getByText(`${store.name} · card: 10 minutes`).waitFor();
      await windowForm.getByText('This store waits 10 minutes (the app declares 30 minutes).').waitFor();
      await expect(windowForm.getByLabel('Window (seconds)').inputValue()).resolves.toBe('600');
      await expectClean(session);
      await screenshot(page, 'settings-payments');
      // Cleared (the field emptied): the override is gone from the list and the declared window shows again.
      await windowForm.getByLabel('Window (seconds)').fill('');
      await windowForm.getByRole('button', { name: 'Set window' }).click();
      await windowForm.getByRole('status').getByText('follows the app’s window for card payments again.', { exact: false }).waitFor();
      await page.reload();
      await app.getByText('None: every store follows the app.').waitFor();
      await expect(app.getByText(`${store.name} · card`, { exact: false }).count()).resolves.toBe(0);
      await windowForm.getByText('The app declares: 30 minutes.').waitFor();
      await expect(windowForm.getByLabel('Window (seconds)').inputValue()).resolves.toBe('');
      await expect(t.sql(`SELECT 1 FROM orders.payment_window`)).resolves.toEqual([]);
      await expectClean(session);

      // Uninstalled, asked first.
      await app.getByRole('button', { name: 'Uninstall Card Pay' }).click();
      await page.getByRole('dialog', { name: 'Uninstall this payment app?' }).getByRole('button', { name: 'Uninstall app' }).click();
      await app.getByText('Uninstalled').waitFor();
      const [stored] = await t.sql<{ installed: boolean }>(`SELECT installed FROM orders.payment_app WHERE app_key = 'card_pay'`);
      expect(stored.installed).toBe(false);
      await expectClean(session);
      // Installed again by its key, with the methods it declared.
      await app.getByRole('button', { name: 'Install again: Card Pay' }).click();
      await app.getByText('Installed', { exact: true }).waitFor();
      await app.getByText('card: 30 minutes').waitFor();
      await expectClean(session);
    } finally {
      await session.context.close();
    }
  },
  180_000,
);
