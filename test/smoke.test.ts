import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@backoffice/platform';
import { embeddedEnv, ROOT, startCommand, stopCommand } from './start-command';

/**
 * The newcomer's path: `npm start` with no DATABASE_URL runs on embedded PostgreSQL under DATA_DIR,
 * the CLI creates a tenant against the same data, and whoami answers with its key, across a restart.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-smoke-'));
const env = embeddedEnv(dataDir);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('npm start on the embedded default, a tenant from the CLI, whoami with its key, across a restart', async () => {
  const port = await freePort();
  let server = (await startCommand(env, port)).child;
  try {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'backoffice', '--', 'tenant', 'create', '--name', 'Smoke', '--store', 'smoke', '--json'], { cwd: ROOT, env });
    const tenant = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(Object.keys(tenant).sort()).toEqual(['api_key_id', 'store_id', 'tenant_id', 'token']);
    const whoami = () => fetch(`http://127.0.0.1:${port}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${tenant.token}` } });
    const first = await whoami();
    expect(first.status).toBe(200);
    expect(((await first.json()) as { actor_id: string }).actor_id).toBe(tenant.api_key_id);

    // Every operation is also a CLI command, sent to the running gateway.
    const cli = await promisify(execFile)('npm', ['run', '--silent', 'backoffice', '--', 'read.internal.whoami', '--url', `http://127.0.0.1:${port}`, '--token', tenant.token], { cwd: ROOT, env });
    expect(JSON.parse(cli.stdout).actor_id).toBe(tenant.api_key_id);

    await stopCommand(server);
    server = (await startCommand(env, port)).child;
    const again = await whoami();
    expect(again.status).toBe(200);
  } finally {
    await stopCommand(server);
  }
}, 240_000);
