import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDatabase } from '@backoffice/platform';
import { freePort } from '../platform/src/db/locate';
import { embeddedEnv, exited, ROOT, startCommand, type StartedCommand } from './start-command';

/**
 * The embedded PostgreSQL of `npm start` after a crash: the Node process killed (SIGKILL) leaves the
 * server running; the next start must stop that orphan and run the server as its own, so that its
 * SIGTERM stops it again. The data folder comes from mkdtemp (mode 0700): as root, PostgreSQL runs
 * as the `postgres` user, who cannot enter it until the start makes it passable.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-crash-'));
const pgDir = join(dataDir, 'pg');
const env = embeddedEnv(dataDir);
const started: ChildProcess[] = [];
const asRoot = process.getuid?.() === 0;

/** /proc/<pid>/stat fields after the command name: [state, ppid, …]; null when there is no such process. */
function stat(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}
const alive = (pid: number) => (stat(pid)?.[0] ?? 'Z') !== 'Z';
const parentOf = (pid: number) => Number(stat(pid)![1]);
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
/** The postmaster named by postmaster.pid. */
const postmaster = () => Number(readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
/** Every running postgres started on this data folder (the postmaster's command line names it). */
function postgresOfDataDir(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return alive(pid) && commandLine(pid).includes(`-D ${pgDir} `);
      } catch {
        return false;
      }
    });
}

async function start(port: number): Promise<StartedCommand> {
  const command = await startCommand(env, port, 40_000);
  started.push(command.child);
  return command;
}

afterAll(async () => {
  // Whatever happened above: no process of this test, and no PostgreSQL of its folder, outlives it.
  for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  for (const pid of postgresOfDataDir()) {
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((ok) => setTimeout(ok, 100));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('after a SIGKILL the next start stops the orphaned PostgreSQL, runs its own, and stops it on SIGTERM', async () => {
  const port = await freePort();
  const first = await start(port);
  expect(first.output()).toMatch(/database {2}embedded PostgreSQL started here, port \d+ \(data in /);
  if (asRoot) expect(statSync(dataDir).mode & 0o777).toBe(0o701);
  const orphan = postmaster();
  // npm → sh → node scripts/run.mjs running main, the process that started the server.
  const owner = parentOf(orphan);
  expect(commandLine(owner)).toContain('scripts/run.mjs gateway/src/main');

  // The CLI joins the server of the running instance (and leaves it running).
  const cli = await promisify(execFile)('npm', ['run', '--silent', 'backoffice', '--', 'tenant', 'create', '--name', 'Crash', '--store', 'crash', '--json'], {
    cwd: ROOT,
    env,
  });
  expect(cli.stderr).toContain(`joined the embedded PostgreSQL of the running instance pid ${owner}`);
  const tenant = JSON.parse(cli.stdout.trim().split('\n').pop()!) as { token: string; api_key_id: string };

  process.kill(owner, 'SIGKILL');
  await exited(first.child);
  expect(alive(orphan)).toBe(true);

  const second = await start(port);
  expect(second.output()).toContain(`stopped an embedded PostgreSQL left running by a process that ended (pid ${owner})`);
  expect(second.output()).toMatch(/database {2}embedded PostgreSQL started here, .*was stopped first\)/);
  expect(alive(orphan)).toBe(false);
  const server = postmaster();
  expect(parentOf(server)).not.toBe(owner);
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  // Same data as before the crash.
  const whoami = await fetch(`http://127.0.0.1:${port}/v1/read/internal/whoami`, { headers: { authorization: `Bearer ${tenant.token}` } });
  expect(((await whoami.json()) as { actor_id: string }).actor_id).toBe(tenant.api_key_id);

  // SIGTERM to main.ts alone (not its group, which would reach PostgreSQL too): it must stop its server.
  process.kill(parentOf(server), 'SIGTERM');
  await exited(second.child);
  expect(alive(server)).toBe(false);
  expect(postgresOfDataDir()).toEqual([]);
  expect(existsSync(join(pgDir, 'postmaster.pid'))).toBe(false);
}, 60_000);

(asRoot ? it : it.skip)('as root, a DATA_DIR below a folder the postgres user cannot enter fails saying what to run', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'backoffice-closed-'));
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  try {
    process.env.DATA_DIR = join(parent, 'data');
    delete process.env.DATABASE_URL;
    await expect(openDatabase()).rejects.toThrow(
      `PostgreSQL runs as the postgres user (this process is root) and cannot enter ${parent}: run \`chmod o+x ${parent}\`, or choose a DATA_DIR whose parent folders every user can enter`,
    );
    // Not ours to change.
    expect(statSync(parent).mode & 0o777).toBe(0o700);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(parent, { recursive: true, force: true });
  }
});
