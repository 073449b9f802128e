import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../platform/src/db/locate';
import { embeddedEnv, ROOT, startCommand, stopCommand } from './start-command';

/**
 * The newcomer's path: `npm start` with no DATABASE_URL runs on embedded PostgreSQL under DATA_DIR,
 * the CLI creates a tenant against the same data, and whoami answers with its key, across a restart.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-smoke-'));
const env = embeddedEnv(dataDir);
// The CLI is to find the server through DATA_DIR, whatever the caller's shell says.
delete env.BACKOFFICE_URL;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('npm start on the embedded default, a tenant from the CLI, whoami with its key, across a restart', async () => {
  const port = await freePort();
  const started = await startCommand(env, port);
  let server = started.child;
  try {
    // Without SMTP, notification mail is written as .eml files, and the banner says where.
    if (!env.SMTP_URL && !env.SMTP_HOST)
      expect(started.output()).toContain(
        `mail      no SMTP configured (SMTP_URL or SMTP_HOST): messages are written as .eml files under ${join(dataDir, 'mail')}`,
      );
    // The banner lists every surface with its address: GraphQL and its explorer, REST and its docs, OpenAPI, MCP, metrics.
    const url = `http://127.0.0.1:${port}`;
    const banner = started.output().split('\n');
    for (const line of [
      `  GraphQL   ${url}/graphql  (explorer: open it in a browser)`,
      `  REST      ${url}/v1/commands/<name>  ${url}/v1/read/...  (docs: ${url}/v1/docs)`,
      `  OpenAPI   ${url}/v1/openapi.json`,
      `  MCP       ${url}/mcp  (Streamable HTTP; stdio: npm run --silent backoffice -- mcp)`,
      `  admin     ${url}/admin  (the admin front-end; operators sign in with a code mailed to them)`,
      `  metrics   ${url}/metrics`,
    ]) {
      expect(banner).toContain(line);
    }
    // The first start's demo prints a one-time sign-in link for its owner operator: what it carries signs in, once.
    const linked = new RegExp(`${url}/admin/sign-in#(\\S+)`);
    for (let waited = 0; !linked.test(started.output()) && waited < 60_000; waited += 100) await new Promise((ok) => setTimeout(ok, 100));
    const link = linked.exec(started.output())?.[1];
    const signIn = Object.fromEntries(new URLSearchParams(link));
    expect(signIn).toEqual({ store: 'demo', email: 'owner@demo.example', code: expect.stringMatching(/^[0-9]{6}$/) });
    const session = (body: unknown) =>
      fetch(`${url}/v1/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const signedIn = await session(signIn);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { role: string }).role).toBe('owner');
    expect(signedIn.headers.get('set-cookie')).toMatch(/^bo_session=bos_/);
    expect((await session(signIn)).status).toBe(401);
    // Each address it gives answers: the explorer to a browser, the docs, the document, the metrics; MCP takes POSTs only.
    const answers = await Promise.all(
      [`${url}/graphql`, `${url}/v1/docs`, `${url}/v1/openapi.json`, `${url}/metrics`, `${url}/mcp`].map(async (address) => {
        const headers: Record<string, string> = { accept: 'text/html' };
        if (address.endsWith('/metrics') && env.METRICS_TOKEN) headers.authorization = `Bearer ${env.METRICS_TOKEN}`;
        const res = await fetch(address, { headers });
        await res.arrayBuffer();
        return [address, res.status, res.headers.get('content-type')?.split(';')[0]];
      }),
    );
    expect(answers).toEqual([
      [`${url}/graphql`, 200, 'text/html'],
      [`${url}/v1/docs`, 200, 'text/html'],
      [`${url}/v1/openapi.json`, 200, 'application/json'],
      [`${url}/metrics`, 200, 'text/plain'],
      [`${url}/mcp`, 405, 'application/json'],
    ]);
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'backoffice', '--', 'tenant', 'create', '--name', 'Smoke', '--store', 'smoke', '--json'],
      { cwd: ROOT, env },
    );
    const tenant = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(Object.keys(tenant).sort()).toEqual(['api_key_id', 'store_id', 'tenant_id', 'token']);
    const whoami = () => fetch(`http://127.0.0.1:${port}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${tenant.token}` } });
    const first = await whoami();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { actor_id: string }).actor_id).toBe(tenant.api_key_id);

    // Every operation is also a CLI command, sent to the running gateway: found through the file it
    // wrote under DATA_DIR (its URL; its embedded database, whose URL holds a password, unnamed).
    const instance = JSON.parse(readFileSync(join(dataDir, 'instance.json'), 'utf8'));
    expect(instance).toEqual({ pid: expect.any(Number), url: `http://127.0.0.1:${port}`, embedded: true });
    const cli = await promisify(execFile)('npm', ['run', '--silent', 'backoffice', '--', 'read.internal.whoami', '--token', tenant.token], { cwd: ROOT, env });
    expect(JSON.parse(cli.stdout).actor_id).toBe(tenant.api_key_id);

    await stopCommand(server);
    expect(existsSync(join(dataDir, 'instance.json'))).toBe(false);
    server = (await startCommand(env, port)).child;
    const again = await whoami();
    expect(again.status).toBe(200);
  } finally {
    await stopCommand(server);
  }
}, 240_000);
