import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, openAsOwner, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The product editor's later parts in Chromium over the real gateway and PostgreSQL: an option axis
 * (its value on the existing SKU, and a new SKU choosing its own), custom fields, media of the product
 * and of a SKU, a promotion (one above the price refused on its field first), and a SKU's shipping
 * weight and dimensions; then the API says it is so. Every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;
let productId: string;

beforeAll(async () => {
  t = await startTestSystem();
  ({ product_id: productId } = await t.ok('catalog.product.create', { title: 'Linen shirt', handle: 'linen-shirt', status: 'active' }));
  await t.ok('catalog.sku.create', { product_id: productId, code: 'SHIRT-M', amount: 4000, currency: 'EUR' });
  if (!installed) return;
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

browserIt(
  'adds an option, a SKU of it, custom fields, media, a promotion and shipping weight and dimensions',
  async () => {
    const session = await openAsOwner(browser, t, 'owner@product-gaps.test');
    const { page, context } = session;
    try {
      await page.goto(`${t.url}/admin/catalog/products/${productId}`);
      await page.getByRole('heading', { name: 'Linen shirt' }).waitFor();
      await page.getByText('No option: every SKU is the same product.').waitFor();
      await expectClean(session);

      // An option whose default is not among its values is refused on that field; then Size: S, M, L.
      const option = page.getByRole('form', { name: 'Add option' });
      await option.getByLabel('Option').fill('Size');
      await option.getByLabel('Values').fill('S, M, L');
      await option.getByLabel('Value of existing SKUs').fill('XL');
      await option.getByRole('button', { name: 'Add option' }).click();
      await option.getByText('default_value must be one of values').waitFor();
      await expect(option.getByLabel('Value of existing SKUs').getAttribute('aria-invalid')).resolves.toBe('true');
      await option.getByLabel('Value of existing SKUs').fill('M');
      await option.getByRole('button', { name: 'Add option' }).click();
      const options = page.getByRole('table', { name: 'Options' });
      await options.getByRole('rowheader', { name: 'Size' }).waitFor();
      const medium = page.getByRole('article', { name: 'SKU SHIRT-M' });
      await medium.getByText('Size: M').waitFor();
      await expectClean(session);

      // A SKU of size L.
      const add = page.getByRole('form', { name: 'Add a SKU' });
      await add.getByLabel('Code').fill('SHIRT-L');
      await add.getByLabel('Price (minor units, e.g. cents)').fill('4200');
      await add.getByLabel('Size').selectOption('L');
      await add.getByRole('button', { name: 'Add SKU' }).click();
      const large = page.getByRole('article', { name: 'SKU SHIRT-L' });
      await large.getByText('Size: L').waitFor();

      // Custom fields: a text and a yes/no.
      const custom = page.getByRole('form', { name: 'Custom fields' });
      await custom.getByRole('button', { name: 'Add a field' }).click();
      await custom.getByLabel('Name of field 1').fill('Material');
      await custom.getByLabel('Value of field 1').fill('Linen');
      await custom.getByRole('button', { name: 'Add a field' }).click();
      await custom.getByLabel('Name of field 2').fill('Organic');
      await custom.getByLabel('Kind of field 2').selectOption('boolean');
      await custom.getByRole('button', { name: 'Save custom fields' }).click();
      await page.getByRole('form', { name: 'Custom fields' }).getByRole('status').waitFor();
      await expectClean(session);

      // Media: the product's image by its address (a link, never loaded), and a SKU's by a provider key.
      const productMedia = page.getByRole('form', { name: 'Attach media to Linen shirt' });
      await productMedia.getByLabel('Provider key or URL').fill('https://cdn.example.com/linen-shirt.jpg');
      await productMedia.getByLabel('Alternative text').fill('A linen shirt on a hanger');
      await productMedia.getByRole('button', { name: 'Attach media to Linen shirt' }).click();
      const image = page.getByRole('table', { name: 'Media of Linen shirt' }).getByRole('link', { name: 'https://cdn.example.com/linen-shirt.jpg' });
      await image.waitFor();
      await expect(image.getAttribute('target')).resolves.toBe('_blank');
      const skuMedia = page.getByRole('form', { name: 'Attach media to SHIRT-L' });
      await skuMedia.getByLabel('Provider key or URL').fill('shirt-l-front');
      await skuMedia.getByRole('button', { name: 'Attach media to SHIRT-L' }).click();
      await page.getByRole('table', { name: 'Media of SHIRT-L' }).getByRole('cell', { name: 'shirt-l-front' }).waitFor();
      await expectClean(session);

      // A promotion at or above the price is refused on its field; below it, it shows beside the price.
      const promotion = page.getByRole('form', { name: 'Promotion of SHIRT-M' });
      await promotion.getByLabel('Promotional price (minor units)').fill('5000');
      await promotion.getByRole('button', { name: 'Set promotion of SHIRT-M' }).click();
      await promotion.getByText('a promotional amount must be below the unit amount 4000').waitFor();
      await expect(promotion.getByLabel('Promotional price (minor units)').getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(session);
      await promotion.getByLabel('Promotional price (minor units)').fill('3500');
      await promotion.getByRole('button', { name: 'Set promotion of SHIRT-M' }).click();
      await page.getByRole('form', { name: 'Promotion of SHIRT-M' }).getByText('€35.00 instead of €40.00').waitFor();
      await medium.getByText('On promotion').waitFor();

      // Shipping weight and dimensions.
      const shipping = page.getByRole('form', { name: 'Price and shipping of SHIRT-M' });
      await shipping.getByLabel('Weight (g)').fill('300');
      await shipping.getByLabel('Length (cm)').fill('30');
      await shipping.getByLabel('Width (cm)').fill('20');
      await shipping.getByLabel('Height (cm)').fill('3');
      const saved = page.waitForResponse((response) => response.request().postData()?.includes('mutation UpdateSku') === true);
      await shipping.getByRole('button', { name: 'Save SHIRT-M' }).click();
      expect(await (await saved).json()).not.toHaveProperty('errors');
      await screenshot(page, 'product-options-media');
      await expectClean(session);

      const res = await t.graphql(
        `query($id: ID!) { catalog_product(input: { product_id: $id }) {
          custom_fields options { name values default_value } media { provider_key alt url }
          skus { code option_values { option value } media { provider_key } promotional_price { promotional_amount }
                 weight_grams length_cm width_cm height_cm } } }`,
        { id: productId },
      );
      const product = res.body.data.catalog_product;
      expect(product.custom_fields).toEqual({ Material: 'Linen', Organic: true });
      expect(product.options).toEqual([{ name: 'Size', values: ['S', 'M', 'L'], default_value: 'M' }]);
      expect(product.media).toEqual([
        { provider_key: 'https://cdn.example.com/linen-shirt.jpg', alt: 'A linen shirt on a hanger', url: 'https://cdn.example.com/linen-shirt.jpg' },
      ]);
      const skus = Object.fromEntries(product.skus.map((s: { code: string }) => [s.code, s]));
      expect(skus['SHIRT-M']).toMatchObject({
        option_values: [{ option: 'Size', value: 'M' }],
        promotional_price: { promotional_amount: 3500 },
        weight_grams: 300,
        length_cm: 30,
        width_cm: 20,
        height_cm: 3,
      });
      expect(skus['SHIRT-L']).toMatchObject({ option_values: [{ option: 'Size', value: 'L' }], media: [{ provider_key: 'shirt-l-front' }] });
    } finally {
      await context.close();
    }
  },
  180_000,
);
