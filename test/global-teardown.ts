import { onServer, TEMPLATE_VARIABLE } from './template-database';

/** Drops the run's template database (see global-setup.ts); the second project's teardown finds it gone. */
export default async function globalTeardown(): Promise<void> {
  const name = process.env[TEMPLATE_VARIABLE];
  if (!name) return;
  delete process.env[TEMPLATE_VARIABLE];
  await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
