import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ownerSignIn } from '@backoffice/identity';
import type { Browser, Page } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, screenshot, type Session } from './admin-browser-helpers';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * Settings → Notifications, Developers → Webhooks and Audit log, and API key rotation, in Chromium over
 * the real gateway and PostgreSQL: a customer's message recorded for an order paid through the API is
 * in the message log and is resent; a template edited shows the server's rendering; a webhook
 * subscription delivers to a real receiver run here, its delivery is in its log and is retried; a
 * key rotated from the page has its old token refused and its new one working, and the audit log
 * shows the rotation. Every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;
let receiver: Server;
let hookUrl: string;
/** The event ids the receiver was sent, in order (a retry sends the same id again). */
const arrivals: string[] = [];
const ENV = {
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_DELAY_SECONDS: '1',
  WEBHOOK_SECRET_KEY: 'test-key-test-key-test-key-test-key-0002',
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_id: string }).event_id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const saved = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
  Object.assign(process.env, ENV);
  try {
    t = await startTestSystem();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise((ok) => receiver?.close(ok));
});

/** The owner, signed in by the one-time link, on the Settings screen. */
async function signedIn(email: string): Promise<Session> {
  const identity = t.system.runtimes.get('identity')!;
  const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, email);
  const session = await open(browser, t.url);
  const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
  await session.page.goto(`${t.url}/admin/sign-in#${fragment}`);
  await session.page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
  await session.page.getByRole('link', { name: 'Settings' }).first().click();
  await session.page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return session;
}

/** Reloads the page until `ready` finds what it waits for (work done after commit: a consumer, a delivery). */
async function reloadUntil(page: Page, ready: () => Promise<boolean>): Promise<void> {
  await eventually(async () => {
    if (await ready()) return true;
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    return undefined;
  }, 30_000);
}

async function whoami(token: string): Promise<number> {
  return (await fetch(`${t.url}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${token}` } })).status;
}

browserIt(
  "lists the customer's message of an order paid, resends it, and previews an edited template as the server renders it",
  async () => {
    const { product_id } = await t.ok('catalog.product.create', { title: 'Notice mug', handle: 'notice-mug', status: 'active' });
    const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: 'NM-1', amount: 1500, currency: 'EUR' });
    await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
    await t.ok('inventory.adjust', { sku_id, on_hand: 5 });
    const { order_id } = await t.ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 1 }] });
    await t.ok('order.mark_paid', { order_id });

    const session = await signedIn('owner@notify.test');
    const { page } = session;
    try {
      await page.getByRole('main').getByRole('link', { name: 'Notifications' }).click();
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings/notifications');
      const log = page.getByRole('region', { name: 'Message log' });
      const paid = log.getByRole('row').filter({ hasText: 'Order paid' }).filter({ hasText: 'buyer@example.com' });
      await reloadUntil(page, async () => (await paid.count()) > 0);
      await expectClean(session);

      // Resend: a new record of the same message, linked to the first.
      await paid.first().getByRole('button', { name: 'Resend Order paid to buyer@example.com' }).click();
      await log.getByRole('status').filter({ hasText: 'Sent again as' }).waitFor();
      await log.getByText(/^resend of /).waitFor();
      const records = await t.read('/internal/notifications', { type_key: 'order.paid' });
      expect(records.body.items.filter((n: { resent_from: string | null }) => n.resent_from !== null)).toHaveLength(1);
      await expectClean(session);

      // A channel's switch: order.cancelled off by email, as the page reads it back.
      const cancelled = page.getByRole('switch', { name: 'Send Order cancelled by Email' });
      // By keyboard, as an operator without a mouse would.
      await cancelled.focus();
      await page.keyboard.press('Space');
      await eventually(async () => ((await cancelled.isChecked()) ? undefined : true));
      // Invitations and sign-in codes always go by email: nothing to switch.
      await expect(page.getByRole('switch', { name: 'Send Sign-in code by Email' }).isDisabled()).resolves.toBe(true);

      // The template in use (the shipped default) rendered by the server; edited, saved, rendered again.
      const templates = page.getByRole('region', { name: 'Templates' });
      const subjectPreview = templates.getByLabel('Preview of Subject');
      await subjectPreview.getByText('Payment received for order ord_example').waitFor();
      await templates.getByText('Shipped default (en)').waitFor();
      await expect(templates.getByTitle('Preview of HTML body').getAttribute('sandbox')).resolves.toBe('');
      await templates.getByRole('textbox', { name: 'Subject' }).fill('Paid: {{order_id}} at {{store_name}}');
      await templates.getByRole('button', { name: 'Save template' }).click();
      await subjectPreview.getByText('Paid: ord_example at Example Store').waitFor();
      await templates.getByText('Your template (en)').waitFor();
      // A template outside the rules is refused on its field, in words.
      await templates.getByRole('textbox', { name: 'Subject' }).fill('{{#each items}}x{{/each}}');
      await templates.getByRole('button', { name: 'Save template' }).click();
      await templates.getByRole('textbox', { name: 'Subject' }).and(page.locator('[aria-invalid="true"]')).waitFor();
      await templates.getByRole('textbox', { name: 'Subject' }).fill('Paid: {{order_id}} at {{store_name}}');
      await page.evaluate('document.getElementById("notification-templates").scrollIntoView(); window.scrollBy(0, -80)');
      await screenshot(page, 'settings-notifications');
      await expectClean(session);

      // A channel registered from the page: a key outside the rules refused on its field, then listed with its switches.
      const register = page.getByRole('region', { name: 'Register a channel' });
      await register.getByLabel(/^Key/).fill('SMS!');
      await register.getByLabel(/^Label/).fill('SMS');
      await register.getByLabel('Field 1: name').fill('body');
      await register.getByLabel('Field 1: label').fill('Body');
      await register.getByLabel('Field 1: type').selectOption('multiline');
      await register.getByLabel('Field 1: required').check();
      await register.getByRole('button', { name: 'Register channel' }).click();
      await register.getByLabel(/^Key/).and(page.locator('[aria-invalid="true"]')).waitFor();
      await register.getByLabel(/^Key/).fill('sms');
      await register.getByRole('button', { name: 'Register channel' }).click();
      await register.getByRole('status').filter({ hasText: 'Channel sms registered.' }).waitFor();
      await page.getByRole('article', { name: 'SMS' }).getByRole('switch', { name: 'Send Order paid by SMS' }).waitFor();
      await expectClean(session);
    } finally {
      await session.context.close();
    }
  },
  180_000,
);

browserIt(
  'creates a webhook whose secret is shown once, sees its delivery to a real receiver, retries it, rotates its secret',
  async () => {
    const session = await signedIn('owner@hooks.test');
    const { page } = session;
    try {
      await page.getByRole('main').getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings/webhooks');
      await expectClean(session);

      await page.getByRole('button', { name: 'New webhook' }).click();
      await page.getByLabel('URL').fill(hookUrl);
      await page.getByLabel('Description (optional)').fill('Warehouse receiver');
      await page.getByRole('button', { name: 'Create webhook' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your webhook’s signing secret' });
      await dialog.waitFor();
      const secret = await dialog.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expectClean(session);
      await dialog.getByRole('button', { name: 'I have copied it' }).click();
      await dialog.waitFor({ state: 'detached' });
      const traces = await page.evaluate<string[]>(
        '[document.documentElement.outerHTML, ...Array.from(document.querySelectorAll("input, textarea"), (el) => el.value), ' +
          'JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage }), location.href]',
      );
      for (const trace of traces) expect(trace).not.toContain(secret);

      // An event of the tenant reaches the receiver; its delivery is in the subscription's log.
      const { brand_id } = await t.ok('catalog.brand.create', { name: 'Hooked' });
      const card = page.getByRole('article', { name: hookUrl });
      const log = card.getByRole('table', { name: `Deliveries to ${hookUrl}` });
      const delivered = log.getByRole('row').filter({ hasText: 'catalog.brand.created' }).filter({ hasText: 'Delivered' });
      await reloadUntil(page, async () => (await delivered.count()) > 0);
      expect(brand_id).toBeTruthy();
      const sent = arrivals.length;
      await expectClean(session);

      // Retry: the same event is sent again.
      await delivered
        .first()
        .getByRole('button', { name: /^Retry catalog\.brand\.created / })
        .click();
      await eventually(async () => (arrivals.length > sent ? true : undefined), 15_000);
      expect(arrivals[arrivals.length - 1]).toBe(arrivals[sent - 1]);
      await reloadUntil(page, async () => (await delivered.count()) > 0);
      await screenshot(page, 'settings-webhooks');
      await expectClean(session);

      // A new secret, asked first and shown once.
      await card.getByRole('button', { name: `Rotate secret of ${hookUrl}` }).click();
      await page.getByRole('dialog', { name: 'Rotate this secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = page.getByRole('dialog', { name: 'Your webhook’s signing secret' });
      const second = await rotated.getByLabel('Signing secret').inputValue();
      expect(second).toMatch(/^whsec_/);
      expect(second).not.toBe(secret);
      await rotated.getByRole('button', { name: 'I have copied it' }).click();
      await rotated.waitFor({ state: 'detached' });
      await card.getByText(/The previous secret also signs until/).waitFor();

      // Off: the switch says so, as the server reads it back.
      const enabled = card.getByRole('switch', { name: `Deliver to ${hookUrl}` });
      await enabled.focus();
      await page.keyboard.press('Space');
      await eventually(async () => ((await enabled.isChecked()) ? undefined : true));
      await expectClean(session);
    } finally {
      await session.context.close();
    }
  },
  180_000,
);

browserIt(
  'rotates an API key (its old token refused, the new one working) and the audit log shows the rotation',
  async () => {
    const key = await t.ok('iam.api_key.create', { name: 'Rotating sync', scopes: ['order.read'] });
    expect(await whoami(key.token)).toBe(200);
    const session = await signedIn('owner@audit.test');
    const { page } = session;
    try {
      await page.getByRole('main').getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      await page.getByRole('row').filter({ hasText: 'Rotating sync' }).getByRole('button', { name: 'Rotate Rotating sync' }).click();
      const ask = page.getByRole('dialog', { name: 'Rotate this key?' });
      await ask.getByLabel('Old token works for (hours)').fill('0');
      await expectClean(session);
      await ask.getByRole('button', { name: 'Rotate key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your new API key' });
      const token = await dialog.getByLabel('Token').inputValue();
      expect(token).not.toBe(key.token);
      await dialog.getByRole('button', { name: 'I have copied it' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await whoami(key.token)).toBe(401);
      expect(await whoami(token)).toBe(200);
      expect(await page.evaluate<string>('document.documentElement.outerHTML')).not.toContain(token);

      // The audit log: identity's trail shows the rotation by the signed-in owner.
      await t.flushAudit();
      await page.getByRole('link', { name: 'Audit log' }).first().click();
      await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings/audit');
      await page.getByRole('row').filter({ hasText: 'iam.api_key.rotate' }).first().waitFor();
      await page.getByLabel('Part').selectOption('identity');
      await page.getByLabel('Operation').fill('iam.api_key.rotate');
      await page.getByRole('button', { name: 'Filter' }).click();
      const rows = page.getByRole('row').filter({ hasText: 'iam.api_key.rotate' });
      await expect(rows.first().getByText('ok', { exact: true }).count()).resolves.toBe(1);
      await page.getByText('1 entry').waitFor();
      await screenshot(page, 'settings-audit');
      await expectClean(session);
    } finally {
      await session.context.close();
    }
  },
  120_000,
);
