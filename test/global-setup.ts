import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseUrl, newDatabaseName, onServer, TEMPLATE_VARIABLE } from './template-database';

/**
 * Migrates the run's template database by starting the whole system on it once (its migrations, the
 * job queue's schema), then stopping it: nothing stays connected, so it can be copied. Both projects
 * that start systems name this setup; the second finds the template made.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env[TEMPLATE_VARIABLE]) return;
  const name = newDatabaseName('bo_template');
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  const restore = withEnv({ DATABASE_URL: databaseUrl(name), DATA_DIR: mkdtempSync(join(tmpdir(), 'bo-test-template-')) });
  try {
    const { startSystem } = await import('../gateway/src/system');
    const system = await startSystem({ port: 0, contextSecret: randomBytes(32).toString('base64url'), log: () => undefined });
    await system.stop();
  } finally {
    restore();
  }
  process.env[TEMPLATE_VARIABLE] = name;
}

/** Sets variables for a while; the returned function puts back what was there (or nothing). */
function withEnv(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  Object.assign(process.env, values);
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
