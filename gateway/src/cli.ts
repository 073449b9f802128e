import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { catalog } from '@backoffice/catalog';
import { seedCatalog } from '@backoffice/catalog';
import { createTenant, identity, resolveStore, storesOfTenant } from '@backoffice/identity';
import { dataDir, migrate, notFound, openDatabase, subgraphDataSource, type Database } from '@backoffice/platform';
import { SingleBar, Presets } from 'cli-progress';
import { SURFACE_OPERATIONS, surfaceView, type SurfaceView } from './subgraphs';
import { callOperation, CliError } from './cli/call';
import { completionScript } from './cli/completion';
import { inputFlags } from './cli/fields';
import { readInstance } from './instance-file';
import { serveMcpStdio } from './mcp-stdio';

const program = new Command('backoffice').description('Command line of the commerce back office');

/** The exit code of each error kind (README, CLI); any other kind (internal, or unknown) is 5, commander's usage errors 1. */
const EXIT_CODES: Record<string, number> = {
  validation_failed: 2,
  unknown_projection: 2,
  unauthorized: 3,
  forbidden: 3,
  conflict: 4,
  not_found: 4,
  exceeds_remaining: 4,
  unreachable: 6,
  rate_limited: 7,
};

/** The gateway: BACKOFFICE_URL, else the address the local `npm start` wrote under DATA_DIR, else the default port. */
const gatewayUrl = process.env.BACKOFFICE_URL || readInstance()?.url || 'http://127.0.0.1:4000';
// From the environment through commander's env(): help names BACKOFFICE_TOKEN, never prints its value.
const tokenOption = () => new Option('--token <token>', 'API key or session token').env('BACKOFFICE_TOKEN');

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
    throw new CliError('unreachable', `the back office running at ${instance.url} does not say where its database is (its URL holds a password, or its subgraphs run elsewhere): set DATABASE_URL`);
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

program
  .command('tenant')
  .description('tenants')
  .command('create')
  .description("create a tenant, its first store and its owner key (every scope) in the running back office's database; prints the token once")
  .requiredOption('--name <name>', 'tenant name')
  .requiredOption('--store <handle>', 'handle of its first store (lowercase letters, digits, hyphens)')
  .option('--expires-in-days <days>', 'owner key expiry in days (default 90)', (v) => Number.parseInt(v, 10))
  .option('--never-expires', 'owner key never expires')
  .option('--json', 'print JSON')
  .action(async (options: { name: string; store: string; expiresInDays?: number; neverExpires?: boolean; json?: boolean }) => {
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
  });

const positiveInt = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
  return n;
};

program
  .command('seed')
  .description("seed a realistic demo catalog (deterministic for a seed) published to the tenant's stores, in the running back office's database")
  .requiredOption('--tenant <tenant_id>', 'tenant to seed')
  .requiredOption('--products <n>', 'number of products', positiveInt('--products'))
  .option('--seed <s>', 'seed of the generator (same seed, same catalog)', positiveInt('--seed'), 1)
  .option('--store <ref...>', "store ids or handles to publish to (default: every store of the tenant)")
  .option('--json', 'print the summary as JSON')
  .option('--quiet', 'no progress bar (there is none either when stderr is not a terminal)')
  .action(async (options: { tenant: string; products: number; seed: number; store?: string[]; json?: boolean; quiet?: boolean }) => {
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
        ? await Promise.all(options.store.map(async (ref) => {
            const store = await resolveStore(identityDs, ref);
            if (!store || store.tenant_id !== options.tenant) throw notFound(`store ${ref} does not exist in tenant ${options.tenant}`);
            return store;
          }))
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
      else console.log(`seeded ${result.products} products (${result.skus} SKUs, ${result.categories} categories) into ${summary.stores.join(', ')} in ${summary.seconds} s`);
    } finally {
      bar?.stop();
      await catalogDs.destroy().catch(() => undefined);
      await identityDs.destroy().catch(() => undefined);
      await database.stop();
    }
  });

program
  .command('mcp')
  .description("serve the MCP tools over stdio (for agents that launch a process), calling a running gateway's /mcp; MCP_TOOL_NAMES=underscore names them order_mark_paid")
  .option('--url <url>', 'gateway URL: BACKOFFICE_URL, else the one the running npm start wrote under DATA_DIR, else port 4000', gatewayUrl)
  .addOption(tokenOption())
  .action((options: { url: string; token?: string }) => serveMcpStdio(options));

/** `--input`: a JSON object, inline or `@file` (relative to where npm was run: npm runs scripts from the package root). */
function parseInput(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.startsWith('@') ? readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), text.slice(1)), 'utf8') : text);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new InvalidArgumentError('not a JSON object');
  return value as Record<string, unknown>;
}

/** Cells of `--table`: a nested value as JSON, cut short to keep the table readable. */
const cell = (value: unknown) => {
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 39)}…` : json;
};
const cells = (row: unknown) => (row !== null && typeof row === 'object' ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cell(v)])) : { value: row });

/** `--table`: the items of a page (its other fields, like next_cursor, below it), or the fields of one object. */
function printTable(result: unknown): void {
  const { items, ...rest } = (result ?? {}) as { items?: unknown };
  if (!Array.isArray(items)) return console.table(cells(result));
  console.table(items.map(cells));
  for (const [field, value] of Object.entries(rest)) console.log(`${field}: ${JSON.stringify(value)}`);
}

/** Who may call an operation, for its help: its scope (and the owner gate), any key, or anyone. */
function accessOf({ scope, access, ownerGated }: SurfaceView): string {
  if (!scope) return access === 'public' ? 'public: no key needed' : 'any valid key';
  return `scope ${scope}${ownerGated ? ', owner key only' : ''}`;
}

/**
 * Every operation is a command of the same name, sent to a running gateway, with a flag per input
 * field (`--backoffice-url`, not `--url`: `url` is a field of webhook.subscription.create).
 */
for (const [name, surface] of SURFACE_OPERATIONS) {
  const view = surfaceView(surface);
  const flags = inputFlags(view.input);
  const command = program.command(name).description(`${view.description} (${accessOf(view)})`);
  for (const option of flags.options) command.addOption(option);
  command
    .option('--input <json|@file>', 'the input as a JSON object, or @file.json holding one; the flags override its fields', parseInput, {})
    .option('--backoffice-url <url>', 'gateway URL: BACKOFFICE_URL, else the one the running npm start wrote under DATA_DIR, else port 4000', gatewayUrl)
    .addOption(tokenOption());
  if (view.kind === 'read') command.option('--table', 'print a table of the items (or of the fields) instead of JSON');
  command.addHelpText('after', flags.jsonOnly).action(async (options: { input: Record<string, unknown>; backofficeUrl: string; token?: string; table?: boolean }) => {
    const result = await callOperation(options.backofficeUrl, options.token, name, { ...options.input, ...flags.values(options) });
    if (options.table) printTable(result);
    // Pretty for a person at a terminal; one line for a pipe (jq, a file).
    else console.log(JSON.stringify(result, null, process.stdout.isTTY ? 2 : undefined));
  });
}

program
  .command('completion')
  .description('print the shell completion script (commands and each command\'s flags); README, CLI, says how to install it')
  .addArgument(new Argument('<shell>').choices(['bash', 'zsh']))
  .action((shell: 'bash' | 'zsh') => {
    process.stdout.write(completionScript(program, shell));
  });

program.parseAsync().catch((error: Error & { kind?: string }) => {
  // Once, as `kind: message` (a server's error kind, or `unreachable`; a local failure without one is internal).
  const kind = error.kind ?? 'internal';
  console.error(`${kind}: ${error.message}`);
  process.exit(EXIT_CODES[kind] ?? 5);
});
