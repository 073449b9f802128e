import { ownerSignIn } from '@backoffice/identity';
import type { Browser } from 'playwright-core';
import { KNOWN_SCOPES } from '../admin/src/scopes';
import { ALL_SCOPES } from '../subgraphs/identity/src/domain/scopes';
import { browserIt, expectClean, installed, launch, open, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Developers → API keys in Chromium over the real gateway and PostgreSQL: the owner creates a key with
 * two scopes, reads its token from the dialog and the token works; once the dialog is closed the token
 * is nowhere in the page (text, localStorage, sessionStorage, URL); revoked (asked first), the token is
 * refused. Every state clean (policy, scripts, offline, axe).
 */
let t: TestSystem;
let browser: Browser;

beforeAll(async () => {
  t = await startTestSystem();
  if (!installed) return;
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function whoami(token: string): Promise<{ status: number; body: { scopes?: string[] } }> {
  const res = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { scopes?: string[] } };
}

it("offers identity's scopes, all and only", () => {
  expect([...KNOWN_SCOPES]).toEqual(ALL_SCOPES);
});

browserIt(
  'creates a key whose token is shown once, works, leaves no trace, and is refused once revoked',
  async () => {
    const identity = t.system.runtimes.get('identity')!;
    const link = await ownerSignIn(identity.dataSource, t.tenant.tenant_id, 'owner@keys.test');
    const session = await open(browser, t.url);
    const { page } = session;
    try {
      const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
      await page.goto(`${t.url}/admin/sign-in#${fragment}`);
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });

      // Settings links to it; so does the navigation.
      await page.getByRole('link', { name: 'Settings' }).first().click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'API keys' }).click();
      await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/settings/api-keys');
      await page.getByRole('table').getByText('Owner', { exact: true }).first().waitFor();
      await expectClean(session);

      // A name left empty is refused on its field.
      await page.getByRole('button', { name: 'New API key' }).click();
      await page.getByRole('checkbox', { name: 'order.read' }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByLabel('Name').and(page.locator('[aria-invalid="true"]')).waitFor();
      await expectClean(session);

      await page.getByLabel('Name').fill('Warehouse sync');
      await page.getByRole('checkbox', { name: 'catalog.admin.read' }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your new API key' });
      await dialog.waitFor();
      await dialog.getByText('This token will not be shown again.').waitFor();
      await dialog.getByRole('button', { name: 'Copy token' }).waitFor();
      const token = await dialog.getByLabel('Token').inputValue();
      expect(token.length).toBeGreaterThan(20);
      await screenshot(page, 'api-keys-token');
      await expectClean(session);

      // The token works, with the two scopes given.
      const who = await whoami(token);
      expect(who.status).toBe(200);
      expect([...(who.body.scopes ?? [])].sort()).toEqual(['catalog.admin.read', 'order.read']);

      // Closed: the token is nowhere in the page.
      await dialog.getByRole('button', { name: 'I have copied it' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.getByRole('row').filter({ hasText: 'Warehouse sync' });
      await row.waitFor();
      const traces = await page.evaluate<string[]>(
        '[document.documentElement.outerHTML, document.body.textContent, ' +
          '...Array.from(document.querySelectorAll("input, textarea"), (el) => el.value), ' +
          'JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage }), location.href]',
      );
      for (const trace of traces) expect(trace).not.toContain(token);
      await expectClean(session);

      // Revoke, asked first: the token is refused.
      await row.getByRole('button', { name: 'Revoke Warehouse sync' }).click();
      const ask = page.getByRole('dialog', { name: 'Revoke this key?' });
      await ask.getByRole('button', { name: 'Revoke key' }).click();
      await row.getByText('Revoked').waitFor();
      expect((await whoami(token)).status).toBe(401);
      await screenshot(page, 'api-keys');
      await expectClean(session);
    } finally {
      await session.context.close();
    }
  },
  120_000,
);
