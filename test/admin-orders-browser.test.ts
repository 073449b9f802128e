import { ownerSignIn } from '@backoffice/identity';
import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The admin's order work in Chromium over the real gateway and PostgreSQL: an order placed through
 * the API appears in the open Orders list without a reload (the event stream), then on its page it is
 * marked paid, its parcel split (a quantity over what the parcel holds refused on its field first),
 * tracked, dispatched and delivered, then found in the list by its fulfilment; every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;
let skuId: string;

beforeAll(async () => {
  t = await startTestSystem();
  const { product_id } = await t.ok('catalog.product.create', { title: 'Parcel mug', handle: 'parcel-mug', status: 'active' });
  const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: 'PM-1', amount: 1500, currency: 'EUR' });
  await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
  await t.ok('inventory.adjust', { sku_id, on_hand: 10 });
  skuId = sku_id;
  if (!installed) return;
  browser = await launch();
}, 120_000);
/** The order as the API reads it now. */
async function orderNow(orderId: string) {
  const res = await t.read('/internal/order', { order_id: orderId });
  expect(res.status).toBe(200);
  return res.body;
}

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

browserIt(
  'sees a new order live, marks it paid, splits, tracks, dispatches and delivers its parcel',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@orders.test');
    const session = await open(browser, t.url);
    const { page, context } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });

      // The Orders list opens the event stream; the order is placed once it answered.
      const streaming = page.waitForResponse((response) => response.url().includes('/v1/stream/events'));
      await page.getByRole('link', { name: 'Orders' }).first().click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      expect((await streaming).status()).toBe(200);
      await page.getByText('No order matches.').waitFor();
      await page.waitForTimeout(500);
      const { order_id: orderId } = await t.ok('order.create', {
        store_id: t.tenant.store_id,
        customer: { email: 'buyer@example.com' },
        items: [{ sku_id: skuId, qty: 3 }],
      });
      // Live: the notice names it and the list shows it, no reload.
      const notice = page.getByRole('status').filter({ hasText: 'New order:' });
      await notice.getByRole('link', { name: orderId }).waitFor({ timeout: 15_000 });
      await page.getByRole('table').getByRole('link', { name: orderId }).waitFor();
      await screenshot(page, 'orders-live');
      await expectClean(session);

      await page.getByRole('table').getByRole('link', { name: orderId }).click();
      await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
      const markPaid = page.getByRole('button', { name: 'Mark paid' });
      await markPaid.waitFor();
      await expect(page.getByRole('button', { name: 'Cancel order' }).isVisible()).resolves.toBe(true);
      // Unpaid: no dispatch yet.
      await expect(page.getByRole('button', { name: 'Dispatch' }).count()).resolves.toBe(0);
      await expectClean(session);

      await markPaid.click();
      const first = page.getByRole('article', { name: 'Parcel 1' });
      await first.getByRole('button', { name: 'Dispatch' }).waitFor();
      await expect(markPaid.count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Cancel order' }).count()).resolves.toBe(0);
      await expectClean(session);

      // Split: more than the parcel holds is refused on the quantity's field, in words.
      await first.getByRole('button', { name: 'Split parcel' }).click();
      const quantity = first.getByLabel('Parcel mug: quantity to move');
      await quantity.fill('5');
      await first.getByRole('button', { name: 'Split', exact: true }).click();
      await first.getByText('5 requested').waitFor();
      await expect(quantity.getAttribute('aria-invalid')).resolves.toBe('true');
      await screenshot(page, 'order-split-refused');
      await expectClean(session);

      await quantity.fill('1');
      await first.getByRole('button', { name: 'Split', exact: true }).click();
      const second = page.getByRole('article', { name: 'Parcel 2' });
      await second.waitFor();
      await expect(first.getByRole('cell', { name: '2', exact: true }).count()).resolves.toBe(1);
      await expect(second.getByRole('cell', { name: '1', exact: true }).count()).resolves.toBe(1);
      await expectClean(session);

      // Tracking, dispatch, delivered: on the new parcel.
      await second.getByLabel('Carrier').fill('Post');
      await second.getByLabel('Tracking code').fill('TRK-123');
      await second.getByRole('button', { name: 'Save tracking' }).click();
      await second.getByText('TRK-123', { exact: true }).waitFor();
      await second.getByRole('button', { name: 'Dispatch' }).click();
      await second.getByRole('button', { name: 'Mark delivered' }).waitFor();
      await expect(second.getByText('Dispatched', { exact: true }).count()).resolves.toBe(1);
      await expectClean(session);
      await second.getByRole('button', { name: 'Mark delivered' }).click();
      await second.getByText('Delivered', { exact: true }).waitFor();
      await expect(second.getByRole('button', { name: 'Mark delivered' }).count()).resolves.toBe(0);
      await screenshot(page, 'order-parcels');
      await expectClean(session);

      const read = await orderNow(orderId);
      expect(read.status).toBe('paid');
      expect(read.shipments.map((s: { status: string; tracking_code: string | null }) => [s.status, s.tracking_code])).toEqual([
        ['pending', null],
        ['delivered', 'TRK-123'],
      ]);

      // The first parcel too: every parcel delivered, the Orders list finds it under Fulfilment → Delivered only.
      await first.getByRole('button', { name: 'Dispatch' }).click();
      await first.getByRole('button', { name: 'Mark delivered' }).click();
      await first.getByText('Delivered', { exact: true }).waitFor();
      await page.getByRole('link', { name: 'Orders' }).first().click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      const fulfilment = page.getByLabel('Fulfilment');
      await fulfilment.selectOption('delivered');
      await page.waitForURL(/fulfilment=delivered/);
      const row = page
        .getByRole('table')
        .getByRole('row')
        .filter({ has: page.getByRole('link', { name: orderId }) });
      await row.getByText('Delivered', { exact: true }).waitFor();
      await screenshot(page, 'orders-fulfilment-filter');
      await expectClean(session);
      await fulfilment.selectOption('unfulfilled');
      await page.waitForURL(/fulfilment=unfulfilled/);
      await page.getByText('No order matches.').waitFor();
      await expect(page.getByRole('table').getByRole('link', { name: orderId }).count()).resolves.toBe(0);
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  180_000,
);

browserIt(
  'cancels an unpaid order only once the operator confirms',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@orders.test');
    const { order_id: orderId } = await t.ok('order.create', {
      store_id: t.tenant.store_id,
      customer: { email: 'buyer@example.com' },
      items: [{ sku_id: skuId, qty: 1 }],
    });
    const session = await open(browser, t.url);
    const { page, context } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      await page.goto(`${t.url}/admin/orders/${encodeURIComponent(orderId)}`);
      await page.getByRole('button', { name: 'Cancel order' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
      await dialog.waitFor();
      await expectClean(session);
      // Kept: nothing changed.
      await dialog.getByRole('button', { name: 'Keep the order' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect((await orderNow(orderId)).status).toBe('pending_payment');
      await page.getByRole('button', { name: 'Cancel order' }).click();
      await dialog.getByRole('button', { name: 'Cancel the order' }).click();
      await page.getByText('Cancelled', { exact: true }).first().waitFor();
      await expect(page.getByRole('button', { name: 'Mark paid' }).count()).resolves.toBe(0);
      expect((await orderNow(orderId)).status).toBe('cancelled');
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  120_000,
);
