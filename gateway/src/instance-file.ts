import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '@backoffice/platform/src/db/data-dir';

/**
 * What a running `npm start` tells the CLI about itself, in `DATA_DIR/instance.json` while it runs:
 * where its gateway listens, and which database it uses, so that `tenant create` and `seed` write
 * where the server reads. Never a secret: a database URL holding a password is left out.
 */
export interface Instance {
  pid: number;
  url: string;
  /** Its database is the embedded PostgreSQL under DATA_DIR (which the CLI joins). */
  embedded: boolean;
  database_url?: string;
}

const file = () => join(dataDir(), 'instance.json');

/** Whether a URL may be written down: no password, in its user part or its query (`?password=`). */
function withoutPassword(url: string): boolean {
  try {
    const parsed = new URL(url);
    return !parsed.password && !parsed.searchParams.has('password');
  } catch {
    return false;
  }
}

/** A gateway listening on every address (`HOST=0.0.0.0` or `::`) is reached on loopback. */
function reachable(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.toString().replace(/\/$/, '');
}

export function writeInstance(url: string, databaseUrl: string, embedded: boolean): void {
  const instance: Instance = {
    pid: process.pid,
    url: reachable(url),
    embedded,
    ...(databaseUrl && withoutPassword(databaseUrl) ? { database_url: databaseUrl } : {}),
  };
  mkdirSync(dataDir(), { recursive: true });
  // Whole or not at all (a CLI reading it meanwhile), and for this user only.
  const partial = `${file()}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(instance)}\n`, { mode: 0o600 });
  renameSync(partial, file());
}

/** Removes the file if it is still this process's (another instance may have started on the same DATA_DIR since). */
export function removeInstance(): void {
  if (readInstance()?.pid === process.pid) rmSync(file(), { force: true });
}

/** The instance under DATA_DIR, or null when there is none or the process that wrote the file has ended (killed). */
export function readInstance(): Instance | null {
  let instance: Instance;
  try {
    instance = JSON.parse(readFileSync(file(), 'utf8')) as Instance;
  } catch {
    return null;
  }
  try {
    process.kill(instance.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return instance;
}
