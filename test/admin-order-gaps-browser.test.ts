import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, openAsOwner, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The order page's later parts in Chromium over the real gateway and PostgreSQL: the payment attempts
 * with the confirmation of a payment (order.payment.confirm, verified by the payment app), a parcel's
 * tracking page as a link, and documents: a refusal shown on its field, one attached and listed with its
 * link, the same one again changing nothing. Every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;
let orderId: string;

beforeAll(async () => {
  t = await startTestSystem();
  const { product_id } = await t.ok('catalog.product.create', { title: 'Paper mug', handle: 'paper-mug', status: 'active' });
  const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: 'PAPER-1', amount: 1200, currency: 'EUR' });
  await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
  await t.ok('inventory.adjust', { sku_id, on_hand: 10 });
  const { app_id } = await t.ok('payment.app.install', {
    app_key: 'transfer',
    name: 'Bank transfer',
    methods: [{ method: 'pix', reservation_window_seconds: null }],
  });
  const placed = await t.ok('order.create', {
    store_id: t.tenant.store_id,
    customer: { email: 'bia@example.com', name: 'Bia Buyer' },
    items: [{ sku_id, qty: 2 }],
    payment: { app_id, method: 'pix' },
  });
  orderId = placed.order_id;
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

browserIt(
  'confirms a payment, links a parcel’s tracking page, and attaches a document (refused first on its field)',
  async () => {
    const session = await openAsOwner(browser, t, 'owner@gaps.test');
    const { page, context } = session;
    try {
      await page.goto(`${t.url}/admin/orders/${encodeURIComponent(orderId)}`);
      await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();

      // The owner holds pii.read: the customer as given, nothing masked.
      await page.getByText('Bia Buyer · bia@example.com').waitFor();
      await expect(page.getByText('Masked: personal fields need the pii.read scope.').count()).resolves.toBe(0);

      // The attempt, then its confirmation with the provider's reference: verified, the order paid.
      const payments = page.getByRole('table', { name: 'Payments' });
      await payments.getByRole('cell', { name: 'Bank transfer' }).waitFor();
      await expect(payments.getByRole('cell', { name: 'Open' }).count()).resolves.toBe(1);
      await expectClean(session);
      await page.getByLabel('Provider reference').fill('psp-42');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await payments.getByRole('cell', { name: 'Succeeded' }).waitFor();
      await payments.getByRole('cell', { name: 'psp-42' }).waitFor();
      await page.getByText('Paid', { exact: true }).first().waitFor();
      await expect(page.getByRole('button', { name: 'Confirm payment' }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Mark paid' }).count()).resolves.toBe(0);
      await screenshot(page, 'order-payment-confirmed');
      await expectClean(session);

      // Tracking with the carrier's page: shown as a link opening apart.
      const parcel = page.getByRole('article', { name: 'Parcel 1' });
      await parcel.getByLabel('Tracking code').fill('TRK-9');
      await parcel.getByLabel('Tracking page (URL)').fill('https://track.example.com/TRK-9');
      await parcel.getByRole('button', { name: 'Save tracking' }).click();
      const track = parcel.getByRole('link', { name: 'Track parcel 1 on the carrier’s site (new tab)' });
      await track.waitFor();
      await expect(track.getAttribute('href')).resolves.toBe('https://track.example.com/TRK-9');
      await expect(track.getAttribute('rel')).resolves.toBe('noopener noreferrer');
      await expectClean(session);

      // A document: a URL and an asset together are refused, on the URL's field, in words.
      const attach = page.getByRole('form', { name: 'Attach a document' });
      await attach.getByLabel('File URL').fill('https://files.example.com/invoice-1.pdf');
      await attach.getByLabel('Asset reference').fill('ast_1');
      await attach.getByRole('button', { name: 'Attach document' }).click();
      await attach.getByText('give exactly one of file_url and asset_id').waitFor();
      await expect(attach.getByLabel('File URL').getAttribute('aria-invalid')).resolves.toBe('true');
      await expectClean(session);

      await attach.getByLabel('Asset reference').fill('');
      await attach.getByLabel('Name').fill('Invoice 1');
      await attach.getByLabel('Parcel').selectOption({ label: 'Parcel 1' });
      await attach.getByRole('button', { name: 'Attach document' }).click();
      const documents = page.getByRole('table', { name: 'Documents' });
      const opening = documents.getByRole('link', { name: 'Open Invoice 1 (new tab)' });
      await opening.waitFor();
      await expect(opening.getAttribute('href')).resolves.toBe('https://files.example.com/invoice-1.pdf');
      await expect(documents.getByRole('cell', { name: 'Invoice', exact: true }).count()).resolves.toBe(1);
      await expect(documents.getByRole('cell', { name: 'Parcel 1' }).count()).resolves.toBe(1);
      await screenshot(page, 'order-documents');
      await expectClean(session);

      // The same document again: nothing changes, and the page says so.
      await attach.getByLabel('File URL').fill('https://files.example.com/invoice-1.pdf');
      await attach.getByLabel('Name').fill('Invoice 1');
      await attach.getByLabel('Parcel').selectOption({ label: 'Parcel 1' });
      await attach.getByRole('button', { name: 'Attach document' }).click();
      await attach.getByText('That document was attached already: nothing changed.').waitFor();
      await expect(documents.getByRole('row').count()).resolves.toBe(2);
      await expectClean(session);

      const read = (await t.read('/internal/order', { order_id: orderId })).body;
      expect(read.status).toBe('paid');
      expect(read.payment_attempts.map((a: { status: string; provider_reference: string | null }) => [a.status, a.provider_reference])).toEqual([
        ['succeeded', 'psp-42'],
      ]);
      expect(read.shipments.map((s: { tracking_code: string; tracking_url: string }) => [s.tracking_code, s.tracking_url])).toEqual([
        ['TRK-9', 'https://track.example.com/TRK-9'],
      ]);
      expect(read.documents).toEqual([
        expect.objectContaining({
          kind: 'fiscal_invoice',
          name: 'Invoice 1',
          file_url: 'https://files.example.com/invoice-1.pdf',
          shipment_id: read.shipments[0].shipment_id,
        }),
      ]);
    } finally {
      await context.close();
    }
  },
  180_000,
);
