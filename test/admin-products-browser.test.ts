import { ownerSignIn } from '@backoffice/identity';
import type { Browser, Page } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The product editor in Chromium over the real gateway and PostgreSQL: a product made through the
 * screens (typed into the forms), two SKUs, their price, stock in two warehouses, publication to the
 * store; then the API says it is so. Refusals show on their field. Every screen is clean (CSP, no
 * script error, nothing fetched elsewhere, no serious axe finding).
 */
let t: TestSystem;
let browser: Browser;

beforeAll(async () => {
  t = await startTestSystem();
  await t.ok('inventory.warehouse.create', { code: 'east', name: 'East depot' });
  await t.ok('catalog.brand.create', { name: 'Acme' });
  await t.ok('catalog.category.create', { path: 'kitchen', name: 'Kitchen' });
  await t.ok('catalog.product.create', { title: 'Taken', handle: 'taken-handle' });
  if (!installed) return;
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function addSku(page: Page, code: string, amount: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a SKU' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Price (minor units, e.g. cents)').fill(amount);
  await form.getByLabel('Currency').fill('EUR');
  await form.getByRole('button', { name: 'Add SKU' }).click();
  await page.getByRole('article', { name: `SKU ${code}` }).waitFor();
}

async function setStock(page: Page, code: string, warehouse: string, onHand: string): Promise<void> {
  await page.getByRole('textbox', { name: `On hand of ${code} at ${warehouse}` }).fill(onHand);
  await page.getByRole('button', { name: `Adjust ${code} at ${warehouse}` }).click();
}

browserIt(
  'creates a product with two SKUs, their price and stock, publishes it, and shows refusals on their field',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@products.test');
    const session = await open(browser, t.url);
    const { page, context } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      await page.getByRole('link', { name: 'Taken' }).waitFor();
      await expectClean(session);

      // A new product, typed in; a handle already taken is refused on the Handle field.
      await page.getByRole('link', { name: 'New product' }).click();
      await page.getByRole('heading', { name: 'New product' }).waitFor();
      await page.getByLabel('Title').fill('Stoneware bowl');
      await page.getByLabel('Handle').fill('taken-handle');
      await page.getByLabel('Description').fill('A bowl thrown by hand.');
      await page.getByLabel('Status').selectOption('active');
      await page.getByLabel('Brand').selectOption({ label: 'Acme' });
      await page.getByRole('checkbox', { name: 'Kitchen (kitchen)' }).check();
      await page.getByRole('button', { name: 'Create product' }).click();
      const handle = page.getByLabel('Handle');
      await page.getByText('a product with handle taken-handle exists already').waitFor();
      expect(await handle.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, 'product-new');
      await expectClean(session);

      await handle.fill('stoneware-bowl');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { name: 'Stoneware bowl' }).waitFor();
      const productId = new URL(page.url()).pathname.split('/').pop()!;
      expect(productId).toMatch(/^prd_|^[A-Za-z0-9_]+$/);
      expect(page.url()).toBe(`${t.url}/admin/catalog/products/${productId}`);

      // Two SKUs; the second's price edited; a negative price refused on its field.
      await addSku(page, 'BOWL-S', '2500');
      await addSku(page, 'BOWL-L', '3500');
      const large = page.getByRole('form', { name: 'Price and shipping of BOWL-L' });
      await large.getByLabel('Price (minor units, e.g. cents)').fill('-5');
      await large.getByRole('button', { name: 'Save BOWL-L' }).click();
      await large.locator('[aria-invalid="true"]').first().waitFor();
      expect(await large.getByLabel('Price (minor units, e.g. cents)').getAttribute('aria-invalid')).toBe('true');
      await expectClean(session);
      await large.getByLabel('Price (minor units, e.g. cents)').fill('3900');
      await large.getByLabel('Weight (g)').fill('800');
      await large.getByRole('button', { name: 'Save BOWL-L' }).click();
      await page.getByRole('form', { name: 'Price and shipping of BOWL-L' }).getByText('€39.00').waitFor();

      // Stock per warehouse; below zero refused on the field.
      await setStock(page, 'BOWL-S', 'default', '7');
      await page.getByRole('table', { name: 'Stock of BOWL-S' }).getByRole('cell', { name: '7', exact: true }).first().waitFor();
      await setStock(page, 'BOWL-L', 'east', '-1');
      const refused = page.getByRole('textbox', { name: 'On hand of BOWL-L at east' });
      await page.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await refused.elementHandle());
      await setStock(page, 'BOWL-L', 'east', '4');
      await page.getByRole('table', { name: 'Stock of BOWL-L' }).getByRole('cell', { name: '4', exact: true }).first().waitFor();
      await expectClean(session);

      // Published to the tenant's store.
      await page.getByRole('button', { name: /^Publish to / }).click();
      await page.getByText(/^Published /).waitFor();
      await screenshot(page, 'product');
      await expectClean(session);

      // The API agrees.
      const res = await t.graphql(
        `query($id: ID!) { catalog_product(input: { product_id: $id }) {
          title handle description status brand { name } categories { path } stores { store_id }
          skus { code amount currency weight_grams stock_levels { on_hand warehouse { code } } } } }`,
        { id: productId },
      );
      expect(res.status).toBe(200);
      const product = res.body.data.catalog_product;
      expect(product).toMatchObject({
        title: 'Stoneware bowl',
        handle: 'stoneware-bowl',
        description: 'A bowl thrown by hand.',
        status: 'active',
        brand: { name: 'Acme' },
        categories: [{ path: 'kitchen' }],
      });
      expect(product.stores).toEqual([{ store_id: t.tenant.store_id }]);
      const skus = Object.fromEntries(product.skus.map((s: { code: string }) => [s.code, s]));
      expect(skus['BOWL-S']).toMatchObject({ amount: 2500, currency: 'EUR', stock_levels: [{ on_hand: 7, warehouse: { code: 'default' } }] });
      expect(skus['BOWL-L']).toMatchObject({ amount: 3900, currency: 'EUR', weight_grams: 800, stock_levels: [{ on_hand: 4, warehouse: { code: 'east' } }] });
      // And the store's public read lists it.
      const listed = await t.read('/products', { store: t.tenant.store_id }, null);
      expect(listed.body.items.map((p: { handle: string }) => p.handle)).toContain('stoneware-bowl');

      // Back in the list, its row links to it.
      await page.getByRole('link', { name: 'All products' }).click();
      await page.getByRole('link', { name: 'Stoneware bowl' }).click();
      await page.getByRole('heading', { name: 'Stoneware bowl' }).waitFor();
      await page.getByRole('article', { name: 'SKU BOWL-L' }).waitFor();
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  180_000,
);
