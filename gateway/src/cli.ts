import { Command } from 'commander';
import { catalog } from '@backoffice/catalog';
import { seedCatalog } from '@backoffice/catalog';
import { createTenant, identity, resolveStore, storesOfTenant } from '@backoffice/identity';
import { migrate, openDatabase, subgraphDataSource } from '@backoffice/platform';
import { SingleBar, Presets } from 'cli-progress';
import { SURFACE_OPERATIONS } from './subgraphs';
import { BackofficeClient } from './client';

const program = new Command('backoffice').description('Command line of the commerce back office');

program
  .command('tenant')
  .description('tenants')
  .command('create')
  .description("create a tenant, its first store and its owner key (every scope); prints the token once")
  .requiredOption('--name <name>', 'tenant name')
  .requiredOption('--store <handle>', 'handle of its first store (lowercase letters, digits, hyphens)')
  .option('--expires-in-days <days>', 'owner key expiry in days (default 90)', (v) => Number.parseInt(v, 10))
  .option('--never-expires', 'owner key never expires')
  .option('--json', 'print JSON')
  .action(async (options: { name: string; store: string; expiresInDays?: number; neverExpires?: boolean; json?: boolean }) => {
    // Same database as the server: DATABASE_URL, or the embedded one under DATA_DIR (joined if running).
    const database = await openDatabase((line) => console.error(line));
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
  });

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};

program
  .command('seed')
  .description("seed a realistic demo catalog (deterministic for a seed) published to the tenant's stores")
  .requiredOption('--tenant <tenant_id>', 'tenant to seed')
  .requiredOption('--products <n>', 'number of products', positiveInt('--products'))
  .option('--seed <s>', 'seed of the generator (same seed, same catalog)', positiveInt('--seed'), 1)
  .option('--store <ref...>', "store ids or handles to publish to (default: every store of the tenant)")
  .option('--json', 'print the summary as JSON')
  .action(async (options: { tenant: string; products: number; seed: number; store?: string[]; json?: boolean }) => {
    const database = await openDatabase((line) => console.error(line));
    const identityDs = subgraphDataSource(database.url, identity, 2);
    const catalogDs = subgraphDataSource(database.url, catalog, 3);
    const bar = new SingleBar({ format: 'seeding {bar} {percentage}% | {value}/{total} products | {duration}s', stream: process.stderr, hideCursor: true }, Presets.shades_classic);
    try {
      await identityDs.initialize();
      await migrate(database.url, identityDs);
      await catalogDs.initialize();
      await migrate(database.url, catalogDs);
      const stores = options.store
        ? await Promise.all(options.store.map(async (ref) => {
            const store = await resolveStore(identityDs, ref);
            if (!store || store.tenant_id !== options.tenant) throw new Error(`store ${ref} does not exist in tenant ${options.tenant}`);
            return store;
          }))
        : await storesOfTenant(identityDs, options.tenant);
      if (!stores.length) throw new Error(`tenant ${options.tenant} does not exist or has no store`);
      const started = Date.now();
      bar.start(options.products, 0);
      const result = await seedCatalog(catalogDs, {
        tenant_id: options.tenant,
        store_ids: stores.map((s) => s.store_id),
        products: options.products,
        seed: options.seed,
        onProgress: (done) => bar.update(done),
      });
      bar.stop();
      const summary = { ...result, tenant_id: options.tenant, stores: stores.map((s) => s.handle), seconds: Math.round((Date.now() - started) / 100) / 10 };
      if (options.json) console.log(JSON.stringify(summary));
      else console.log(`seeded ${result.products} products (${result.skus} SKUs, ${result.categories} categories) into ${summary.stores.join(', ')} in ${summary.seconds} s`);
    } finally {
      bar.stop();
      await catalogDs.destroy().catch(() => undefined);
      await identityDs.destroy().catch(() => undefined);
      await database.stop();
    }
  });

/** Every operation is a command of the same name, sent to a running gateway. */
for (const [name, surface] of SURFACE_OPERATIONS) {
  const operation = surface.kind === 'operation' ? surface.operation : surface.read;
  program
    .command(name)
    .description(`${operation.summary}${operation.scope ? ` (scope ${operation.scope})` : ''}`)
    .option('--input <json>', 'input as a JSON object', '{}')
    .option('--url <url>', 'gateway URL', process.env.BACKOFFICE_URL ?? 'http://127.0.0.1:4000')
    .option('--token <token>', 'API key token (default: BACKOFFICE_TOKEN)', process.env.BACKOFFICE_TOKEN)
    .action(async (options: { input: string; url: string; token?: string }) => {
      let input: unknown;
      try {
        input = JSON.parse(options.input);
      } catch {
        console.error('--input must be JSON');
        process.exit(2);
      }
      const client = new BackofficeClient({ baseUrl: options.url, token: options.token });
      try {
        console.log(JSON.stringify(await client.call(name, input as Record<string, unknown>), null, 2));
      } catch (error) {
        console.error(JSON.stringify({ error: (error as { body?: unknown }).body ?? String(error) }));
        process.exit(1);
      }
    });
}

program.parseAsync().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
