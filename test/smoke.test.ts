import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@backoffice/platform';

/**
 * The newcomer's path: `npm start` with no DATABASE_URL runs on embedded PostgreSQL under DATA_DIR,
 * the CLI creates a tenant against the same data, and whoami answers with its key, across a restart.
 */
const ROOT = join(__dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-smoke-'));
// As root, PostgreSQL runs as a `postgres` user, who must be able to reach the folder (as it can ./.data).
chmodSync(dataDir, 0o755);
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' };
delete (env as Record<string, string | undefined>).DATABASE_URL;

async function start(port: number): Promise<ChildProcess> {
  const child = spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not get ready:\n${output}`)), 90_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('back office ready')) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((ok) => child.once('exit', ok));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('npm start on the embedded default, a tenant from the CLI, whoami with its key, across a restart', async () => {
  const port = await freePort();
  let server = await start(port);
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

    await stop(server);
    server = await start(port);
    const again = await whoami();
    expect(again.status).toBe(200);
  } finally {
    await stop(server);
  }
}, 240_000);
