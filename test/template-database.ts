import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database migrated once per test run, which each test system's database is copied from
 * (`CREATE DATABASE … TEMPLATE`): a system then starts on a schema already there, about half its
 * start. Made by the integration and browser projects' global setup, dropped by their teardown;
 * its name is passed to the workers in BO_TEMPLATE_DATABASE.
 */
export const TEMPLATE_VARIABLE = 'BO_TEMPLATE_DATABASE';

const BASE_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export async function onServer<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: BASE_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The URL of a database of this name on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export const newDatabaseName = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;
