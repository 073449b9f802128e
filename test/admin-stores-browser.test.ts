import { ownerSignIn } from '@backoffice/identity';
import type { Browser } from 'playwright-core';
import { browserIt, expectClean, installed, launch, open, type Session, screenshot } from './admin-browser-helpers';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Settings → Stores, Institutional pages and Operators in Chromium over the real gateway and PostgreSQL:
 * the owner edits a store's sender name (a host taken is refused on its field), creates a page, previews
 * it, publishes it (the storefront's read serves it) and archives it (no longer served); invites an
 * operator with a role and deactivates them; an operator whose locale is pt-BR sees the shell in
 * Portuguese on an English browser. Every state clean (policy, scripts, offline, axe).
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

/** A session of the owner operator `email` (made an owner of the test tenant if they are not one yet), signed in by the one-time link. */
async function signIn(email: string): Promise<Session> {
  const link = await ownerSignIn(t.system.runtimes.get('identity')!.dataSource, t.tenant.tenant_id, email);
  const session = await open(browser, t.url);
  const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
  await session.page.goto(`${t.url}/admin/sign-in#${fragment}`);
  return session;
}

async function settings(session: Session, screen: string): Promise<void> {
  const { page } = session;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  await page.getByRole('main').getByRole('link', { name: screen }).click();
  await page.getByRole('heading', { name: screen, level: 1 }).waitFor();
  await expectClean(session);
}

const storefront = (store: string, slug: string) => fetch(`${t.url}/v1/read/pages?${new URLSearchParams({ store, slug })}`).then((res) => res.status);

browserIt(
  'edits a store, makes a page and archives it, invites and deactivates an operator',
  async () => {
    const session = await signIn('owner@stores.test');
    const { page } = session;
    try {
      await page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
      const stores = await t.graphql('{ stores(first: 1) { edges { node { id handle name } } } }');
      const store = stores.body.data.stores.edges[0].node as { id: string; handle: string; name: string };

      // Stores: the sender name and a host; a second store may not take that host (refused on its field).
      await settings(session, 'Stores');
      expect(new URL(page.url()).pathname).toBe('/admin/settings/stores');
      await page.getByRole('button', { name: `Edit ${store.name}` }).click();
      let dialog = page.getByRole('dialog', { name: `Edit ${store.name}` });
      await dialog.getByLabel('Sender name').fill('Ana at the shop');
      await dialog.getByLabel('Host').fill('Shop.Stores.Test');
      await expectClean(session);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.getByRole('row').filter({ hasText: store.handle });
      await row.getByText('Ana at the shop').waitFor();
      await row.getByText('shop.stores.test').waitFor();

      await page.getByRole('button', { name: 'New store' }).click();
      await page.getByLabel('Name').fill('Second shop');
      await page.getByLabel('Handle').fill(store.handle);
      await page.getByRole('button', { name: 'Create store' }).click();
      await page.getByLabel('Handle').and(page.locator('[aria-invalid="true"]')).waitFor();
      await page.getByText(`store handle ${store.handle} is taken`).waitFor();
      await page.getByLabel('Handle').fill('second-shop');
      await page.getByRole('button', { name: 'Create store' }).click();
      await page.getByRole('button', { name: 'Edit Second shop' }).click();
      dialog = page.getByRole('dialog', { name: 'Edit Second shop' });
      await dialog.getByLabel('Host').fill('shop.stores.test');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByLabel('Host').and(page.locator('[aria-invalid="true"]')).waitFor();
      await dialog.getByText('host shop.stores.test is taken by another store').waitFor();
      await expectClean(session);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await screenshot(page, 'settings-stores');
      const after = await t.graphql('{ stores(first: 1) { edges { node { id notification_sender_name host } } } }');
      expect(after.body.data.stores.edges[0].node).toEqual({ id: store.id, notification_sender_name: 'Ana at the shop', host: 'shop.stores.test' });

      // Institutional pages: a draft previewed, published (served), archived (not served, listed under Archived).
      await settings(session, 'Institutional pages');
      await page.getByRole('button', { name: 'New page' }).click();
      dialog = page.getByRole('dialog', { name: 'New page' });
      await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('About us <script>alert(1)</script>');
      await dialog.getByLabel('Slug').fill('about-us');
      await dialog.getByLabel('Description for search engines').fill('Who we are and where we ship.');
      await dialog.getByRole('button', { name: 'Preview' }).click();
      const preview = dialog.getByRole('region', { name: 'Storefront preview' });
      await preview.getByRole('heading', { name: 'About us <script>alert(1)</script>' }).waitFor();
      await preview.getByText('Who we are and where we ship.').waitFor();
      await preview.getByText('shop.stores.test · page about-us').waitFor();
      await preview.getByText('Draft: the storefront does not serve it until it is published.').waitFor();
      await expectClean(session);
      await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('About us');
      await dialog.getByRole('button', { name: 'Create page' }).click();
      await dialog.waitFor({ state: 'detached' });
      const pageRow = page.getByRole('row').filter({ hasText: 'about-us' });
      await pageRow.getByText('Draft').waitFor();
      expect(await storefront(store.handle, 'about-us')).toBe(404);

      await pageRow.getByRole('button', { name: 'Publish About us' }).click();
      await pageRow.getByText('Published').waitFor();
      expect(await storefront('shop.stores.test', 'about-us')).toBe(200);
      await screenshot(page, 'settings-pages');
      await expectClean(session);

      await pageRow.getByRole('button', { name: 'Archive About us' }).click();
      await pageRow.waitFor({ state: 'detached' });
      expect(await storefront(store.handle, 'about-us')).toBe(404);
      await page.getByLabel('Show').selectOption('archived');
      await pageRow.getByText('Archived').waitFor();
      await pageRow.getByRole('button', { name: 'Unarchive About us' }).waitFor();
      await expectClean(session);

      // Operators: one invited as an admin who speaks Spanish, then deactivated (asked first); the owner's own row has no action.
      await settings(session, 'Operators');
      await page.getByRole('button', { name: 'Invite operator' }).click();
      await page.getByLabel('Email').fill('rita@stores.test');
      await page.getByLabel('Name', { exact: true }).fill('Rita');
      await page.getByLabel('Role').selectOption('admin');
      await page.getByLabel('Language').last().selectOption('es');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      const rita = page.getByRole('row').filter({ hasText: 'rita@stores.test' });
      await rita.getByText('Invited').waitFor();
      await rita.getByText('Admin').waitFor();
      await rita.getByText('Español').waitFor();
      await expect(page.getByRole('row').filter({ hasText: 'owner@stores.test' }).getByRole('button').count()).resolves.toBe(0);
      await expectClean(session);

      await rita.getByRole('button', { name: 'Change role of Rita' }).click();
      dialog = page.getByRole('dialog', { name: 'Role of Rita' });
      await dialog.getByLabel('Role').selectOption('staff');
      await dialog.getByRole('button', { name: 'Save role' }).click();
      await dialog.waitFor({ state: 'detached' });
      await rita.getByText('Staff').waitFor();

      await rita.getByRole('button', { name: 'Deactivate Rita' }).click();
      dialog = page.getByRole('dialog', { name: 'Deactivate this operator?' });
      // Judged once it is there (axe waits for its fade-in to end, not for it to begin).
      await dialog.getByRole('button', { name: 'Deactivate operator' }).waitFor();
      await expectClean(session);
      await dialog.getByRole('button', { name: 'Deactivate operator' }).click();
      await dialog.waitFor({ state: 'detached' });
      await rita.getByText('Deactivated').waitFor();
      await expect(rita.getByRole('button').count()).resolves.toBe(0);
      await screenshot(page, 'settings-operators');
      await expectClean(session);

      // An owner invited in Portuguese (Brasil).
      await page.getByRole('button', { name: 'Invite operator' }).click();
      await page.getByLabel('Email').fill('lucia@stores.test');
      await page.getByLabel('Role').selectOption('owner');
      await page.getByLabel('Language').last().selectOption('pt-BR');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByRole('row').filter({ hasText: 'lucia@stores.test' }).getByText('Português (Brasil)').waitFor();
    } finally {
      await session.context.close();
    }

    // Lúcia signs in on an English browser: the shell follows her own locale.
    const lucia = await signIn('lucia@stores.test');
    try {
      await lucia.page.getByRole('heading', { name: 'Produtos', level: 1 }).waitFor({ timeout: 30_000 });
      await lucia.page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Configurações' }).waitFor();
      expect(await lucia.page.evaluate<string>('document.documentElement.lang')).toBe('pt-BR');
      await expectClean(lucia);
    } finally {
      await lucia.context.close();
    }
  },
  240_000,
);
