import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerSignIn } from '@backoffice/identity';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { ADMIN_DIST } from '../gateway/src/admin-app';
import type { TestSystem } from './helpers';

/**
 * What the admin's Chromium tests share: the browser, a page that names everything fetched from
 * elsewhere and every policy violation and script error, and the checks every screen must pass.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As the explorer's tests: skipped on a machine without Chromium, never under CI. The admin must be built (npm install builds it).
export const installed = (existsSync(CHROMIUM) && existsSync(join(ADMIN_DIST, 'index.html'))) || process.env.CI === 'true';
if (!installed) console.warn(`admin browser tests skipped: no Chromium at ${CHROMIUM} or no admin build (npm run build)`);
export const browserIt = installed ? it : it.skip;

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** ADMIN_SCREENSHOTS=docs/admin: the screens as these tests leave them, for docs/admin.md (kept in docs/admin/). */
const SCREENSHOTS = process.env.ADMIN_SCREENSHOTS;
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}

export interface Session {
  page: Page;
  context: BrowserContext;
  elsewhere: string[];
  errors: string[];
}

/**
 * A fresh English page on the gateway at `url`: requests to any other origin are aborted and named,
 * but those of `also` (an identity provider the test runs, which the browser is sent to).
 */
export async function open(browser: Browser, url: string, also: readonly string[] = []): Promise<Session> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const origins = new Set([new URL(url).origin, ...also]);
  const elsewhere: string[] = [];
  await context.route('**/*', (route) => {
    const requested = route.request().url();
    if (origins.has(new URL(requested).origin)) return route.continue();
    elsewhere.push(requested);
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.addInitScript({
    content:
      "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
  });
  return { page, context, elsewhere, errors };
}

/** A fresh page signed in as the tenant's owner by the first start's one-time link, on the Products screen. */
export async function openAsOwner(browser: Browser, t: TestSystem, email: string): Promise<Session> {
  const link = await ownerSignIn(t.system.runtimes.get('identity')!.dataSource, t.tenant.tenant_id, email);
  const session = await open(browser, t.url);
  const fragment = new URLSearchParams({ store: link.store, email: link.email, code: link.code }).toString();
  await session.page.goto(`${t.url}/admin/sign-in#${fragment}`);
  await session.page.getByRole('heading', { name: 'Products' }).waitFor({ timeout: 30_000 });
  return session;
}

/** No animation running, and no dialog or any of its ancestors less than opaque. */
const SETTLED = `document.getAnimations().every((a) => a.playState !== "running") &&
  [...document.querySelectorAll('[role="dialog"]')].every((d) => {
    for (let e = d; e; e = e.parentElement) if (getComputedStyle(e).opacity !== "1") return false;
    return true;
  })`;

/** axe-core's serious and critical findings on the page as it is (evaluated over the DevTools protocol, so the page's CSP does not apply). */

export async function accessibilityFindings(page: Page): Promise<string[]> {
  // A dialog fading in is half transparent: its colours are judged once every transition has ended
  // and every dialog is wholly opaque (a transition may not have begun yet: the dialog is then
  // mounted at opacity 0 with nothing running). Polled with evaluate (the DevTools protocol):
  // waitForFunction's predicate would be an eval the page's CSP refuses.
  for (const until = Date.now() + 5_000; Date.now() < until; await new Promise((ok) => setTimeout(ok, 50))) {
    if (await page.evaluate<boolean>(SETTLED)) break;
  }
  await page.evaluate(AXE);
  const found = await page.evaluate<Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>>(
    'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) })))',
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The screen kept its promises: nothing refused by the policy, no script error, nothing fetched elsewhere, nothing serious for axe. */
export async function expectClean(session: Session): Promise<void> {
  expect(await session.page.evaluate<string[]>('window.violations')).toEqual([]);
  expect(session.errors).toEqual([]);
  expect(session.elsewhere).toEqual([]);
  expect(await accessibilityFindings(session.page)).toEqual([]);
}
