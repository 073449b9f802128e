import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { FAVICON_FILE } from '../gateway/src/explorer';
import { startTestSystem, type TestSystem } from './helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// A fresh machine may lack Chromium: skipped there (with a warning), never under CI, where it must run.
const installed = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!installed) console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
const browserIt = installed ? it : it.skip;

/**
 * The browser faces in a real headless Chromium (Debian's), its network restricted to the gateway:
 * any request elsewhere is aborted and named, so the explorer and the docs must work offline.
 */
let t: TestSystem;
let browser: Browser;

beforeAll(async () => {
  t = await startTestSystem();
  if (!installed) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

interface Visit {
  page: Page;
  context: BrowserContext;
  /** Requests aimed anywhere but the gateway (aborted). */
  elsewhere: string[];
  /** What the page reported as errors (a CSP refusal, a failed script). */
  errors: string[];
  /** The page's Content-Security-Policy header. */
  csp: string | null;
  /** What the browser refused under that policy (securitypolicyviolation events), by directive and what was blocked. */
  violations(): Promise<string[]>;
}

async function visit(path: string): Promise<Visit> {
  const context = await browser.newContext();
  const origin = new URL(t.url).origin;
  const elsewhere: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  // Collected in the page from its first moment (an init script is not subject to the page's CSP).
  await page.addInitScript({
    content:
      "window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));",
  });
  const response = await page.goto(`${t.url}${path}`);
  const csp = (await response?.allHeaders())?.['content-security-policy'] ?? null;
  return { page, context, elsewhere, errors, csp, violations: () => page.evaluate<string[]>('window.violations') };
}

/** The pages run under their policy, and the browser refused nothing of what they do. */
async function expectPolicyKept(visited: Visit): Promise<void> {
  expect(visited.csp).toContain("script-src 'self'");
  expect(visited.csp).toContain("default-src 'self'");
  expect(await visited.violations()).toEqual([]);
}

browserIt(
  'serves GraphiQL on GET /graphql (where / leads) to a browser: a token pasted in Headers runs read_internal_whoami',
  async () => {
    const visited = await visit('/');
    const { page, context, elsewhere, errors } = visited;
    try {
      expect(page.url()).toBe(`${t.url}/graphql`);
      await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
      // The headers editor is open on a first visit; replace its content as a user pasting would.
      const headers = page.locator('.graphiql-editor-tool .CodeMirror').last();
      await headers.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${t.tenant.token}` }));
      await page.locator('.graphiql-execute-button').click();
      const result = page.locator('.result-window');
      await result.getByText(t.tenant.api_key_id).waitFor({ timeout: 15_000 });
      expect(await result.textContent()).toContain(t.tenant.tenant_id);
      // The schema's docs: the Docs pane lists the root types.
      await page.locator('[aria-label="Show Documentation Explorer"]').click();
      await page.locator('.graphiql-doc-explorer').getByText('Mutation').first().waitFor();
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      await expectPolicyKept(visited);
      // The token ran a query (history) but is kept nowhere in the browser.
      const kept = await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })');
      expect(kept).not.toContain(t.tenant.token);
    } finally {
      await context.close();
    }
  },
  90_000,
);

browserIt(
  'fills the headers from a token in the fragment, which leaves the address bar',
  async () => {
    const { page, context } = await visit(`/graphql#token=${t.tenant.token}`);
    try {
      await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
      expect(page.url()).toBe(`${t.url}/graphql`);
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.result-window').getByText(t.tenant.api_key_id).waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  },
  90_000,
);

browserIt(
  'runs a mutation typed in the query editor: catalog_product_create creates the product, its id in the result pane',
  async () => {
    const visited = await visit(`/graphql#token=${t.tenant.token}`);
    const { page, context, elsewhere, errors } = visited;
    const handle = `browser-mug-${Date.now().toString(36)}`;
    try {
      await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
      // Replace the welcome query as a user typing one would.
      await page.locator('.graphiql-query-editor .CodeMirror').first().click();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(`mutation { catalog_product_create(input: { title: "Browser mug", handle: "${handle}", status: draft }) { product_id } }`);
      await page.locator('.graphiql-execute-button').click();
      await page.locator('.result-window').getByText(/prd_/).waitFor({ timeout: 15_000 });
      const shown = JSON.parse(await page.evaluate<string>("document.querySelector('.result-window .CodeMirror').CodeMirror.getValue()"));
      expect(shown).toEqual({ data: { catalog_product_create: { product_id: expect.stringMatching(/^prd_/) } } });
      // It ran, for the token's tenant: the product is there, read over REST.
      const { product_id } = shown.data.catalog_product_create;
      const read = await t.read('/internal/catalog/product', { product_id });
      expect({ status: read.status, handle: read.body.handle, title: read.body.title }).toEqual({ status: 200, handle, title: 'Browser mug' });
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      await expectPolicyKept(visited);
    } finally {
      await context.close();
    }
  },
  90_000,
);

browserIt(
  'serves Swagger UI on /v1/docs, listing the operations of the OpenAPI document',
  async () => {
    const visited = await visit('/v1/docs');
    const { page, context, elsewhere, errors } = visited;
    try {
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      const paths = await page.locator('.opblock-summary-path').allInnerTexts();
      expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(expect.arrayContaining(['/v1/commands/order.mark_paid', '/v1/read/products']));
      // Grouped by subgraph, each group with its description: no "default".
      const groups = await page.locator('.opblock-tag').allInnerTexts();
      expect(groups.map((g) => g.split('\n')[0].trim())).toEqual(['identity', 'catalog', 'orders', 'content', 'merged']);
      expect(groups[1]).toContain('Products, SKUs');
      expect(elsewhere).toEqual([]);
      expect(errors).toEqual([]);
      await expectPolicyKept(visited);
    } finally {
      await context.close();
    }
  },
  90_000,
);

it('serves its SVG icon at /favicon.svg and /favicon.ico, named by the explorer and the docs page', async () => {
  for (const path of ['/favicon.svg', '/favicon.ico']) {
    const res = await fetch(`${t.url}${path}`);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await res.text()).toBe(readFileSync(FAVICON_FILE, 'utf8'));
  }
  for (const path of ['/graphql', '/v1/docs']) {
    const page = await (await fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } })).text();
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
  }
});

it('sends no Referer from its pages to other origins (Referrer-Policy), beside their CSP', async () => {
  for (const path of ['/graphql', '/v1/docs', '/explorer/graphiql.css', '/v1/docs/swagger-ui.css']) {
    const res = await fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } });
    expect([path, res.status, res.headers.get('referrer-policy')]).toEqual([path, 200, 'same-origin']);
  }
});

it('keeps clients on GraphQL: a GET that does not ask for HTML is not the explorer', async () => {
  const res = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
    headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
  });
  expect(res.headers.get('content-type')).toMatch(/application\/(graphql-response\+)?json/);
  const page = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(await page.text()).not.toMatch(/<script>(?!<\/script>)/);
  const root = await fetch(`${t.url}/`, { redirect: 'manual' });
  expect([root.status, root.headers.get('location')]).toEqual([302, '/graphql']);
  expect(page.headers.get('vary')).toBe('accept, accept-encoding');
  const asset = await fetch(`${t.url}/explorer/graphiql.js`, { headers: { 'accept-encoding': 'identity' } });
  const etag = asset.headers.get('etag')!;
  expect((await fetch(`${t.url}/explorer/graphiql.js`, { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } })).status).toBe(304);
  // Each encoding has its own tag; gzip;q=0 refuses gzip.
  const zipped = await fetch(`${t.url}/explorer/graphiql.js`, { headers: { 'accept-encoding': 'gzip;q=0, identity' } });
  expect(zipped.headers.get('content-encoding')).toBeNull();
});
