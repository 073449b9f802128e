import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { dataDir } from './db/data-dir';

/** How one of the deployment's keys is found: its variable, its file under DATA_DIR, and what a given value must be. */
export interface DeploymentKeySpec {
  /** The environment variable that gives it, e.g. `VAULT_KEY`. */
  variable: string;
  /** The file under DATA_DIR it is generated into when the variable is unset, e.g. `vault.key`. */
  file: string;
  /** Why a given (or stored) value is unusable, or null. The message never quotes the value. */
  problem(value: string): string | null;
}

/**
 * A key of the deployment (webhook signing secrets, the extension vault): the variable when set,
 * otherwise 32 random bytes (base64url) generated once into `<DATA_DIR>/<file>` with mode 0600 and
 * read back on every later start. Processes that must share the key (subgraphs run separately)
 * must be given the variable. Losing the key makes what it sealed unreadable.
 */
export function deploymentKey(spec: DeploymentKeySpec, env: NodeJS.ProcessEnv = process.env): string {
  const given = env[spec.variable];
  if (given !== undefined && given !== '') {
    const problem = spec.problem(given);
    if (problem) throw new Error(`${spec.variable} ${problem}`);
    return given;
  }
  const dir = env.DATA_DIR ? resolve(env.DATA_DIR) : dataDir();
  const file = join(dir, spec.file);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written whole under a name of its own, then linked into place: a process starting at the same
    // moment finds no file or the whole key, never a half-written one, and the first link wins.
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  chmodSync(file, 0o600);
  const stored = readFileSync(file, 'utf8').trim();
  const problem = spec.problem(stored);
  if (problem) throw new Error(`${file} (the generated ${spec.variable}) ${problem}`);
  return stored;
}
