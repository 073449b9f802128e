import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { browserIt, expectClean, launch, open } from './admin-browser-helpers';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/*
 * An operator signs in to the admin the way a merchant does on a fresh install: asks for a code in
 * the sign-in screen, reads it in the mail the content subgraph sent (a real SMTP server here), types
 * it in. A staff operator invited by the owner, so the mail is the only way in.
 */

let t: TestSystem;
let browser: Browser;
let smtp: SMTPServer;
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
  await t.ok('admin_user.invite', { email: 'staff@mail.test', name: 'Sam Staff', role: 'staff' });
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

browserIt(
  'asks for a code, reads it in the mail, types it in, and is signed in',
  async () => {
    const session = await open(browser, t.url);
    const { page, context } = session;
    try {
      await page.goto(`${t.url}/admin/sign-in`);
      await page.getByLabel('Store').fill(await storeHandle());
      await page.getByLabel('Email').fill('staff@mail.test');
      await page.getByRole('button', { name: 'Email me a code' }).click();
      await page.getByText('a code is on its way').waitFor();
      // The invitation came first; the code's mail is the one holding six digits.
      const code = await eventually(
        async () =>
          mails
            .filter((m) => JSON.stringify(m.to ?? '').includes('staff@mail.test'))
            .map((m) => /\b(\d{6})\b/.exec(m.text ?? '')?.[1])
            .find(Boolean),
        20_000,
      );
      expect(code).toMatch(/^\d{6}$/);
      await page.getByLabel('Code').fill(code!);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      await page.getByText('Signed in as Sam Staff').waitFor();
      await expectClean(session);
      // Staff: no developers' screens offered, and the server refuses what they would do, from this very page.
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
      const refused = await page.evaluate<{ status: number; body: { errors?: Array<{ extensions: { code: string } }> } }>(
        `fetch('/graphql', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' },
           body: JSON.stringify({ query: 'mutation { iam_api_key_create(input: { name: "by staff", scopes: ["order.read"] }) { api_key_id } }' }) })
         .then(async (r) => ({ status: r.status, body: await r.json() }))`,
      );
      expect(refused.body.errors?.[0].extensions.code).toBe('forbidden');
      await expectClean(session);
      // Shipping and payments: read (logistics.read, order.read), not changed (no shipping.write, payments.write).
      await page.getByRole('main').getByRole('link', { name: 'Shipping' }).click();
      await page.getByRole('heading', { name: 'Quote tester' }).waitFor();
      expect(await page.getByRole('button', { name: /^New (zone|method)$/ }).count()).toBe(0);
      await expectClean(session);
      await page.getByRole('link', { name: '← Settings' }).click();
      await page.getByRole('main').getByRole('link', { name: 'Payments' }).click();
      await page.getByText('No payment app yet.').waitFor();
      expect(await page.getByRole('button', { name: 'Install a payment app' }).count()).toBe(0);
      await expectClean(session);
    } finally {
      await context.close();
    }
  },
  120_000,
);

/** The tenant's store handle (the sign-in screen asks for it). */
async function storeHandle(): Promise<string> {
  const res = await t.graphql('{ stores(first: 1) { edges { node { handle } } } }');
  return res.body.data.stores.edges[0].node.handle;
}
