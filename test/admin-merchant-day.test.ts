import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { browserIt, expectClean, installed, launch, open, type Session } from './admin-browser-helpers';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/*
 * A merchant's day in the admin, in Chromium over the real gateway, PostgreSQL and a real SMTP server:
 * sign in with the mailed code → a product with two SKUs and stock → an order placed through the API
 * shows up live → its payment confirmed → the parcel split, tracked, dispatched and delivered → the
 * customer's mail is in the message log (and reached the SMTP server) → sign out ends the session.
 * Then a staff operator, signed in the same way, is offered no developers' screen and the server refuses
 * what they would do there.
 */

let t: TestSystem;
let browser: Browser;
let smtp: SMTPServer;
let appId: string;
const mails: ParsedMail[] = [];
const saved = process.env.SMTP_URL;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) =>
      void simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  // The content subgraph's mailer reads SMTP_URL when the system starts.
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  t = await startTestSystem();
  if (saved === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = saved;
  await t.ok('admin_user.invite', { email: 'maria@day.test', name: 'Maria Merchant', role: 'admin' });
  await t.ok('admin_user.invite', { email: 'sam@day.test', name: 'Sam Staff', role: 'staff' });
  ({ app_id: appId } = await t.ok('payment.app.install', {
    app_key: 'transfer',
    name: 'Bank transfer',
    methods: [{ method: 'pix', reservation_window_seconds: null }],
  }));
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const mailsTo = (email: string) => mails.filter((m) => JSON.stringify(m.to ?? '').includes(email));

/** Signs in as the sign-in screen asks: the store, the email, then the code read in the mail. */
async function signInByMail(email: string, name: string): Promise<Session> {
  const session = await open(browser, t.url);
  const { page } = session;
  const before = mailsTo(email).length;
  await page.goto(`${t.url}/admin/sign-in`);
  await page.getByLabel('Store').fill(await storeHandle());
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByText('a code is on its way').waitFor();
  const code = await eventually(
    async () =>
      mailsTo(email)
        .slice(before)
        .map((m) => /\b(\d{6})\b/.exec(m.text ?? '')?.[1])
        .find(Boolean),
    20_000,
  );
  await page.getByLabel('Code').fill(code!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
  await page.getByText(`Signed in as ${name}`).waitFor();
  return session;
}

async function storeHandle(): Promise<string> {
  const res = await t.graphql('{ stores(first: 1) { edges { node { handle } } } }');
  return res.body.data.stores.edges[0].node.handle;
}

async function addSku(page: Page, code: string, amount: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a SKU' });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Price (minor units, e.g. cents)').fill(amount);
  await form.getByLabel('Currency').fill('EUR');
  await form.getByRole('button', { name: 'Add SKU' }).click();
  await page.getByRole('article', { name: `SKU ${code}` }).waitFor();
}

async function setStock(page: Page, code: string, onHand: string): Promise<void> {
  await page.getByRole('textbox', { name: `On hand of ${code} at default` }).fill(onHand);
  await page.getByRole('button', { name: `Adjust ${code} at default` }).click();
  await page
    .getByRole('table', { name: `Stock of ${code}` })
    .getByRole('cell', { name: onHand, exact: true })
    .first()
    .waitFor();
}

browserIt(
  'runs a merchant day: product, a live order, payment, parcels, the customer’s mail, sign-out',
  async () => {
    const session = await signInByMail('maria@day.test', 'Maria Merchant');
    const { page, context } = session;
    try {
      await expectClean(session);

      // A product with two SKUs and stock, published to the store.
      await page.getByRole('link', { name: 'New product' }).click();
      await page.getByRole('heading', { name: 'New product' }).waitFor();
      await page.getByLabel('Title').fill('Linen apron');
      await page.getByLabel('Handle').fill('linen-apron');
      await page.getByLabel('Status').selectOption('active');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.getByRole('heading', { name: 'Linen apron' }).waitFor();
      const productId = new URL(page.url()).pathname.split('/').pop()!;
      await addSku(page, 'APRON-S', '2900');
      await addSku(page, 'APRON-L', '3100');
      await setStock(page, 'APRON-S', '5');
      await setStock(page, 'APRON-L', '8');
      await page.getByRole('button', { name: /^Publish to / }).click();
      await page.getByText(/^Published /).waitFor();
      await expectClean(session);

      const product = await t.graphql('query($id: ID!) { catalog_product(input: { product_id: $id }) { skus { id code } } }', { id: productId });
      const skus = Object.fromEntries(product.body.data.catalog_product.skus.map((s: { id: string; code: string }) => [s.code, s.id]));

      // The Orders list is open when the customer orders: the order shows up without a reload.
      const streaming = page.waitForResponse((response) => response.url().includes('/v1/stream/events'));
      await page.getByRole('link', { name: 'Orders' }).first().click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      expect((await streaming).status()).toBe(200);
      await page.waitForTimeout(500);
      const { order_id: orderId } = await t.ok('order.create', {
        store_id: t.tenant.store_id,
        customer: { email: 'ana@customer.test', name: 'Ana Customer' },
        items: [
          { sku_id: skus['APRON-S'], qty: 2 },
          { sku_id: skus['APRON-L'], qty: 1 },
        ],
        payment: { app_id: appId, method: 'pix' },
      });
      await page.getByRole('table').getByRole('link', { name: orderId }).waitFor({ timeout: 15_000 });
      await expectClean(session);

      // Its page: items with their product's title; the payment confirmed.
      await page.getByRole('table').getByRole('link', { name: orderId }).click();
      await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
      await page.getByText('Linen apron').first().waitFor();
      await page.getByLabel('Provider reference').fill('pix-day-1');
      await page.getByRole('button', { name: 'Confirm payment' }).click();
      await page.getByRole('table', { name: 'Payments' }).getByRole('cell', { name: 'Succeeded' }).waitFor();
      const first = page.getByRole('article', { name: 'Parcel 1' });
      await first.getByRole('button', { name: 'Dispatch' }).waitFor();
      await expectClean(session);

      // The parcel split in two; the new one tracked, dispatched, delivered.
      await first.getByRole('button', { name: 'Split parcel' }).click();
      await first.getByLabel('Linen apron: quantity to move').first().fill('1');
      await first.getByRole('button', { name: 'Split', exact: true }).click();
      const second = page.getByRole('article', { name: 'Parcel 2' });
      await second.waitFor();
      await second.getByLabel('Carrier').fill('Post');
      await second.getByLabel('Tracking code').fill('DAY-1');
      await second.getByRole('button', { name: 'Save tracking' }).click();
      await second.getByText('DAY-1', { exact: true }).waitFor();
      await second.getByRole('button', { name: 'Dispatch' }).click();
      await second.getByRole('button', { name: 'Mark delivered' }).click();
      await second.getByText('Delivered', { exact: true }).waitFor();
      await expectClean(session);
      const read = (await t.read('/internal/order', { order_id: orderId })).body;
      expect(read.status).toBe('paid');
      expect(read.shipments.map((s: { status: string }) => s.status)).toEqual(['pending', 'delivered']);

      // The customer was told: the mail reached the SMTP server, and its record is in the message log.
      await eventually(async () => mailsTo('ana@customer.test').length > 0 || undefined, 20_000);
      await page.getByRole('link', { name: 'Settings' }).first().click();
      await page.getByRole('main').getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      const log = page.getByRole('region', { name: 'Message log' });
      const paid = log.getByRole('row').filter({ hasText: 'Order paid' }).filter({ hasText: 'ana@customer.test' });
      await eventually(async () => {
        if ((await paid.count()) > 0) return true;
        await page.reload();
        await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
        return undefined;
      }, 20_000);
      await expectClean(session);

      // Sign-out ends the session on the server too.
      const cookie = (await context.cookies()).find((c) => c.name === 'bo_session');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      const after = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: `bo_session=${cookie!.value}`, origin: new URL(t.url).origin },
        body: JSON.stringify({ query: '{ read_internal_whoami { name } }' }),
      });
      expect(after.status).toBe(401);
    } finally {
      await context.close();
    }
  },
  240_000,
);

browserIt(
  'offers a staff operator no developers’ screen, and the server refuses them too',
  async () => {
    const session = await signInByMail('sam@day.test', 'Sam Staff');
    const { page, context } = session;
    try {
      await page.getByRole('link', { name: 'Settings' }).first().click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      for (const screen of ['API keys', 'Webhooks', 'Audit log']) expect(await page.getByRole('link', { name: screen }).count()).toBe(0);
      await expectClean(session);
      const refused = await page.evaluate<{ errors?: Array<{ extensions: { code: string } }> }>(
        `fetch('/graphql', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
           body: JSON.stringify({ query: 'mutation { webhook_subscription_create(input: { url: "https://hooks.example.com/x", event_types: [\\"*\\"] }) { subscription_id } }' }) })
         .then((r) => r.json())`,
      );
      expect(refused.errors?.[0].extensions.code).toBe('forbidden');
    } finally {
      await context.close();
    }
  },
  120_000,
);
