import { catalog, seedCatalog } from '@backoffice/catalog';
import { createTenant, identity, resolveStore, storesOfTenant } from '@backoffice/identity';
import { dataDir, migrate, notFound, openDatabase, subgraphDataSource, type Database } from '@backoffice/platform';
import { Presets, SingleBar } from 'cli-progress';
import { readInstance } from '../instance-file';
import { CliError } from './call';

/** The commands that write the running back office's database (loaded by cli.ts only when one of them runs). */

/**
 * The database of the running back office, never a second one: DATABASE_URL, else what its instance
 * file says (its database URL, or its embedded PostgreSQL, joined). Refused when there is none.
 */
async function runningDatabase(): Promise<Database> {
  if (process.env.DATABASE_URL) return openDatabase();
  const instance = readInstance();
  if (!instance) throw new CliError('unreachable', `no running back office found under ${dataDir()}: start it (npm start) or set DATABASE_URL`);
  if (instance.database_url) return { url: instance.database_url, embedded: false, fresh: false, stop: async () => undefined };
  if (!instance.embedded) {
    throw new CliError(
      'unreachable',
      `the back office running at ${instance.url} does not say where its database is (its URL holds a password, or its subgraphs run elsewhere): set DATABASE_URL`,
    );
  }
  const database = await openDatabase((line) => console.error(line));
  // Started rather than joined: the instance's server is gone, and this one would not be the server's.
  if (database.embedded) {
    await database.stop();
    throw new CliError('unreachable', `the embedded PostgreSQL of the back office running at ${instance.url} is not running (data in ${dataDir()})`);
  }
  return database;
}

/** A progress bar on stderr, or none: with --quiet, or when stderr is not a terminal (a log, a pipe). */
function progressBar(format: string, quiet?: boolean): SingleBar | null {
  return quiet || !process.stderr.isTTY ? null : new SingleBar({ format, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
}

export type TenantCreateOptions = { name: string; store: string; expiresInDays?: number; neverExpires?: boolean; json?: boolean };

/** `tenant create`: a tenant, its first store and its owner key; the token printed once. */
export async function tenantCreate(options: TenantCreateOptions): Promise<void> {
  const database = await runningDatabase();
  const dataSource = subgraphDataSource(database.url, identity, 2);
  try {
    await dataSource.initialize();
    await migrate(database.url, dataSource);
    const tenant = await createTenant(dataSource, {
      name: options.name,
      store: options.store,
      ...(options.expiresInDays !== undefined ? { expires_in_days: options.expiresInDays } : {}),
      ...(options.neverExpires ? { never_expires: true } : {}),
    });
    if (options.json) console.log(JSON.stringify(tenant));
    else {
      console.log(`tenant   ${tenant.tenant_id}\nstore    ${tenant.store_id} (${options.store})\nowner    ${tenant.api_key_id}\ntoken    ${tenant.token}`);
      console.log('The token is shown once; keep it secret.');
    }
  } finally {
    await dataSource.destroy().catch(() => undefined);
    await database.stop();
  }
}

export type SeedOptions = { tenant: string; products: number; seed: number; store?: string[]; json?: boolean; quiet?: boolean };

/** `seed`: a demo catalog published to the tenant's stores. */
export async function seed(options: SeedOptions): Promise<void> {
  const database = await runningDatabase();
  const identityDs = subgraphDataSource(database.url, identity, 2);
  const catalogDs = subgraphDataSource(database.url, catalog, 3);
  const bar = progressBar('seeding {bar} {percentage}% | {value}/{total} products | {duration}s', options.quiet);
  try {
    await identityDs.initialize();
    await migrate(database.url, identityDs);
    await catalogDs.initialize();
    await migrate(database.url, catalogDs);
    const stores = options.store
      ? await Promise.all(
          options.store.map(async (ref) => {
            const store = await resolveStore(identityDs, ref);
            if (!store || store.tenant_id !== options.tenant) throw notFound(`store ${ref} does not exist in tenant ${options.tenant}`);
            return store;
          }),
        )
      : await storesOfTenant(identityDs, options.tenant);
    if (!stores.length) throw notFound(`tenant ${options.tenant} does not exist or has no store`);
    const started = Date.now();
    bar?.start(options.products, 0);
    const result = await seedCatalog(catalogDs, {
      tenant_id: options.tenant,
      store_ids: stores.map((s) => s.store_id),
      products: options.products,
      seed: options.seed,
      onProgress: (done) => bar?.update(done),
    });
    bar?.stop();
    const summary = { ...result, tenant_id: options.tenant, stores: stores.map((s) => s.handle), seconds: Math.round((Date.now() - started) / 100) / 10 };
    if (options.json) console.log(JSON.stringify(summary));
    else
      console.log(
        `seeded ${result.products} products (${result.skus} SKUs, ${result.categories} categories) into ${summary.stores.join(', ')} in ${summary.seconds} s`,
      );
  } finally {
    bar?.stop();
    await catalogDs.destroy().catch(() => undefined);
    await identityDs.destroy().catch(() => undefined);
    await database.stop();
  }
}
