import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { callOperation } from './cli/call';
import { completionScript } from './cli/completion';
import type { SeedOptions, TenantCreateOptions } from './cli/database';
import { inputFlags } from './cli/fields';
import { readInstance } from './instance-file';
import { readSurfaceViews, type SurfaceView } from './surface-views';

const program = new Command('backoffice').description('Command line of the commerce back office');

/** The exit code of each error kind (docs/surfaces.md, CLI); any other kind (internal, or unknown) is 5, commander's usage errors 1. */
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
  // The database and the subgraph it writes are loaded only now: other commands start without them.
  .action(async (options: TenantCreateOptions) => (await import('./cli/database')).tenantCreate(options));

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
  .option('--store <ref...>', 'store ids or handles to publish to (default: every store of the tenant)')
  .option('--json', 'print the summary as JSON')
  .option('--quiet', 'no progress bar (there is none either when stderr is not a terminal)')
  .action(async (options: SeedOptions) => (await import('./cli/database')).seed(options));

program
  .command('mcp')
  .description(
    "serve the MCP tools over stdio (for agents that launch a process), calling a running gateway's /mcp; MCP_TOOL_NAMES=underscore names them order_mark_paid",
  )
  .option('--url <url>', 'gateway URL: BACKOFFICE_URL, else the one the running npm start wrote under DATA_DIR, else port 4000', gatewayUrl)
  .addOption(tokenOption())
  .action(async (options: { url: string; token?: string }) => (await import('./mcp-stdio')).serveMcpStdio(options));

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
const cells = (row: unknown) =>
  row !== null && typeof row === 'object' ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, cell(v)])) : { value: row };

/** `--table`: the items of a page (its other fields, like page and total, below it), or the fields of one object. */
function printTable(result: unknown): void {
  const { items, ...rest } = (result ?? {}) as { items?: unknown };
  if (!Array.isArray(items)) {
    console.table(cells(result));
    return;
  }
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
// From surfaces.json: the CLI starts without loading the subgraphs (docs/surfaces.md, CLI).
for (const view of readSurfaceViews()) {
  const name = view.name;
  const flags = inputFlags(view.input);
  const command = program.command(name).description(`${view.description} (${accessOf(view)})`);
  for (const option of flags.options) command.addOption(option);
  command
    .option('--input <json|@file>', 'the input as a JSON object, or @file.json holding one; the flags override its fields', parseInput, {})
    .option('--backoffice-url <url>', 'gateway URL: BACKOFFICE_URL, else the one the running npm start wrote under DATA_DIR, else port 4000', gatewayUrl)
    .addOption(tokenOption());
  if (view.kind === 'read') command.option('--table', 'print a table of the items (or of the fields) instead of JSON');
  command
    .addHelpText('after', flags.jsonOnly)
    .action(async (options: { input: Record<string, unknown>; backofficeUrl: string; token?: string; table?: boolean }) => {
      const result = await callOperation(options.backofficeUrl, options.token, name, { ...options.input, ...flags.values(options) });
      if (options.table) printTable(result);
      // Pretty for a person at a terminal; one line for a pipe (jq, a file).
      else console.log(JSON.stringify(result, null, process.stdout.isTTY ? 2 : undefined));
    });
}

program
  .command('completion')
  .description("print the shell completion script (commands and each command's flags); README, CLI, says how to install it")
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
