import { Command } from 'commander';
import { createTenant, identity } from '@backoffice/identity';
import { createDataSource, migrate, openDatabase } from '@backoffice/platform';
import { OPERATIONS } from './subgraphs';
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
    const dataSource = createDataSource(database.url, { schema: identity.name, entities: identity.entities, migrations: identity.migrations }, 2);
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

/** Every operation is a command of the same name, sent to a running gateway. */
for (const [name, { operation }] of OPERATIONS) {
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
