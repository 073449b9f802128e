import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../platform/src/db/locate';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { ERROR_STATUS, type RateLimiter } from '@backoffice/platform';
import { startTestSystem, type TestSystem } from './helpers';

const ROOT = join(__dirname, '..');
/** As `npm run backoffice` runs it: compiled from dist/ when that is fresh, else the sources through tsx. */
const CLI = ['scripts/run.mjs', 'gateway/src/cli'];

let t: TestSystem;
let scratch: string;
/** A DATA_DIR with no running instance in it (never the checkout's ./.data, whatever runs there). */
let emptyDataDir: string;

/**
 * The test system's rate limiter: the gateway's own token buckets, generous, except for the
 * credentials put in `throttled` (`cred:<credential id>`), which get one request an hour.
 */
const throttled = new Set<string>();
const generous = new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 });
const hourly = new MemoryRateLimiter({ ratePerSecond: 1 / 3600, burst: 1 });
const limiter: RateLimiter = {
  consume: (key, cost) => (throttled.has(key) ? hourly : generous).consume(key, cost),
  refund: (key, cost) => (throttled.has(key) ? hourly : generous).refund(key, cost),
  health: () => 'ok',
  close: async () => undefined,
};

beforeAll(async () => {
  t = await startTestSystem({ limiter });
  scratch = mkdtempSync(join(tmpdir(), 'backoffice-cli-'));
  emptyDataDir = join(scratch, 'empty');
  mkdirSync(emptyDataDir);
});
afterAll(async () => {
  await t.stop();
  rmSync(scratch, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `backoffice <args>` in a process of its own, as `npm run backoffice --` runs it (stdout and stderr
 * pipes, not terminals), with `env` alone deciding where it goes: the caller's BACKOFFICE_* and
 * DATABASE_URL are dropped, DATA_DIR is empty unless given.
 */
function cli(args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: emptyDataDir };
  for (const name of ['BACKOFFICE_URL', 'BACKOFFICE_TOKEN', 'DATABASE_URL']) delete base[name];
  const child = spawn(process.execPath, [...nodeFlags, ...CLI, ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((ok) => child.on('close', (code) => ok({ code, stdout, stderr })));
}

/** The CLI against the test system with its owner key. */
const call = (args: string[], env: Record<string, string> = {}) => cli(args, { BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token, ...env });

/** A success: exit 0, nothing on stderr, the JSON on stdout (one line: stdout is not a terminal). */
function ok(run: Run): any {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout);
}

/** A refusal: its exit code, one line `kind: message` on stderr, nothing on stdout. */
function refused(run: Run, code: number, kind: string): string {
  expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(new RegExp(`^${kind}: `));
  return run.stderr.trim();
}

/**
 * The CLI with a terminal for stdout and stderr, through util-linux's `script` (the CI has it);
 * asynchronously, as the test system answering it runs in this process.
 */
function inTerminal(args: string[], env: Record<string, string>) {
  const command = [process.execPath, ...CLI, ...args].map((word) => `'${word}'`).join(' ');
  return promisify(execFile)('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
}

const unique = () => Math.random().toString(36).slice(2, 10);

describe('operations as commands with flags', () => {
  it('creates a product from flags and reads it back', async () => {
    const handle = `mug-${unique()}`;
    const { product_id } = ok(await call(['catalog.product.create', '--title', 'Blue mug', '--handle', handle, '--status', 'draft']));
    expect(ok(await call(['catalog.product', '--product-id', product_id]))).toMatchObject({ product_id, handle, title: 'Blue mug', status: 'draft' });
  });

  it('takes a list as the flag repeated, parses integers and booleans (--x/--no-x), flags over --input', async () => {
    const [lasting, expiring] = await Promise.all([
      call(['iam.api_key.create', '--name', 'cli-lasting', '--scopes', 'audit.read', '--scopes', 'order.read', '--never-expires']),
      // --input says never_expires; --no-never-expires and --expires-in-days (a number, else the server would refuse it) win.
      call([
        'iam.api_key.create',
        '--input',
        '{"name":"cli-expiring","scopes":["audit.read"],"never_expires":true}',
        '--no-never-expires',
        '--expires-in-days',
        '2',
      ]),
    ]);
    const key = ok(lasting);
    expect(key).toMatchObject({ name: 'cli-lasting', scopes: ['audit.read', 'order.read'], expires_at: null });
    expect((await t.read('/internal/whoami', {}, key.token)).body.scopes).toEqual(['audit.read', 'order.read']);
    const other = ok(expiring);
    const days = (Date.parse(other.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.9);
    expect(days).toBeLessThan(2.1);
  });

  it('reads --input from @file, its fields overridden by flags', async () => {
    const file = join(scratch, 'product.json');
    const handle = `file-${unique()}`;
    writeFileSync(file, JSON.stringify({ title: 'From the file', handle, status: 'active' }));
    const { product_id } = ok(await call(['catalog.product.create', '--input', `@${file}`, '--title', 'From the flag']));
    expect(ok(await call(['catalog.product', '--product-id', product_id]))).toMatchObject({ handle, title: 'From the flag', status: 'active' });
    const missing = await call(['catalog.product.create', '--input', `@${join(scratch, 'none.json')}`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("error: option '--input <json|@file>' argument");
  });

  it('prints a read as a table with --table: the items of a page, or the fields of one object', async () => {
    const page = await call(['read.internal.stores', '--table']);
    expect(page.code).toBe(0);
    expect(page.stdout).toMatch(/│.*handle.*│/);
    expect(page.stdout).toContain(t.tenant.store_id);
    const who = await call(['read.internal.whoami', '--table']);
    expect(who.code).toBe(0);
    expect(who.stdout).toMatch(new RegExp(`│ tenant_id +│ '${t.tenant.tenant_id}' +│`));
    // A command has no --table: commander refuses the option (a usage error).
    expect((await call(['iam.api_key.revoke', '--api-key-id', 'key_x', '--table'])).code).toBe(1);
  });

  it('pretty-prints JSON on a terminal', async () => {
    const { stdout } = await inTerminal(['read.internal.whoami'], { BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token });
    expect(stdout).toContain(`\r\n  "tenant_id": "${t.tenant.tenant_id}",`);
  });
});

describe('errors: `kind: message` once on stderr, an exit code per kind', () => {
  it('validation_failed 2 (a required field left out goes to the server), unauthorized 3, conflict 4', async () => {
    const [invalid, badKey, conflict, unknownOption] = await Promise.all([
      call(['catalog.product.create', '--title', 'No handle']),
      call(['read.internal.whoami'], { BACKOFFICE_TOKEN: 'bok_nope' }),
      call(['iam.api_key.revoke', '--api-key-id', 'key_missing']),
      call(['read.internal.whoami', '--no-such-flag']),
    ]);
    expect(refused(invalid, 2, 'validation_failed')).toContain('handle');
    refused(badKey, 3, 'unauthorized');
    refused(conflict, 4, 'conflict');
    expect(unknownOption.code).toBe(1);
    expect(unknownOption.stderr).toContain("error: unknown option '--no-such-flag'");
  });

  it('forbidden 3 (a key without the scope), not_found 4, unknown_projection 2', async () => {
    const limited = await t.command('iam.api_key.create', { name: 'cli-audit-only', scopes: ['audit.read'], never_expires: true });
    expect(limited.status).toBe(200);
    const [forbidden, missing, projection] = await Promise.all([
      call(['catalog.product.create', '--title', 'Mug', '--handle', `mug-${unique()}`], { BACKOFFICE_TOKEN: limited.body.token }),
      call(['catalog.product', '--product-id', 'prd_01J00000000000000000000000']),
      call(['read.products', '--store', t.tenant.store_id, '--projection', 'no_such_projection']),
    ]);
    expect(refused(forbidden, 3, 'forbidden')).toContain('catalog.product.write');
    refused(missing, 4, 'not_found');
    refused(projection, 2, 'unknown_projection');
  });

  it('internal 5: an answer that is not the gateway’s JSON (a proxy’s error page, another web server’s page)', async () => {
    // Under /down, a reverse proxy whose gateway is down: 502 with its HTML error page; elsewhere, a web server that is not the back office.
    const server: Server = createServer((request, response) => {
      if (request.url!.startsWith('/down/'))
        return response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Welcome to nginx!</h1></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const [command, read, other] = await Promise.all([
        // A command (not retried after a 502), and a read (retried, then given up).
        call(['catalog.product.create', '--title', 'Mug', '--handle', `mug-${unique()}`, '--backoffice-url', `${url}/down`]),
        call(['read.internal.whoami', '--backoffice-url', `${url}/down`]),
        call(['read.internal.whoami', '--backoffice-url', `${url}/other`]),
      ]);
      expect(refused(command, 5, 'internal')).toBe('internal: 502 Bad Gateway');
      expect(refused(read, 5, 'internal')).toBe('internal: 502 Bad Gateway');
      expect(refused(other, 5, 'internal')).toMatch(new RegExp(`^internal: unexpected answer from ${url}/other: .*not valid JSON`));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rate_limited 7: a credential past its bucket, whose Retry-After is beyond what the client waits for', async () => {
    const tenant = await t.newTenant();
    // The bucket a token spends from is its credential's, which whoami names.
    throttled.add(`cred:${(await t.read('/internal/whoami', {}, tenant.token)).body.credential_id}`);
    // The bucket holds one request: the first call spends it, the second is refused for an hour.
    ok(await call(['read.internal.whoami'], { BACKOFFICE_TOKEN: tenant.token }));
    const started = Date.now();
    const run = await call(['read.internal.whoami'], { BACKOFFICE_TOKEN: tenant.token });
    expect(refused(run, 7, 'rate_limited')).toMatch(/^rate_limited: /);
    // Refused at once (a Retry-After over a minute is not waited for), not after retries.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('unauthorized 3 without a token says where one goes: --token or BACKOFFICE_TOKEN', async () => {
    const run = await cli(['read.internal.whoami'], { BACKOFFICE_URL: t.url });
    expect(refused(run, 3, 'unauthorized')).toBe('unauthorized: a valid API key is required: no token given (pass --token <key> or set BACKOFFICE_TOKEN)');
  });

  it('unreachable 6, naming the URL and what to do, never fetch’s TypeError', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const run = await call(['read.internal.whoami', '--backoffice-url', url]);
    expect(refused(run, 6, 'unreachable')).toBe(`unreachable: cannot reach the back office at ${url} (start it with npm start, or set BACKOFFICE_URL)`);
  });
});

describe('the running instance under DATA_DIR (npm start writes DATA_DIR/instance.json)', () => {
  /** A DATA_DIR whose instance file names the test system, written by `pid` (this process: running). */
  function instanceDir(name: string, instance: Record<string, unknown>): string {
    const dir = join(scratch, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'instance.json'), JSON.stringify({ pid: process.pid, url: t.url, embedded: false, ...instance }));
    return dir;
  }

  it('gives the CLI its URL, and tenant create and seed its database (the token works on the running server)', async () => {
    const dir = instanceDir('running', { database_url: t.databaseUrl });
    const who = ok(await cli(['read.internal.whoami'], { DATA_DIR: dir, BACKOFFICE_TOKEN: t.tenant.token }));
    expect(who.tenant_id).toBe(t.tenant.tenant_id);

    const store = `cli-${unique()}`;
    const created = await cli(['tenant', 'create', '--name', 'CLI shop', '--store', store, '--json'], { DATA_DIR: dir });
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.stdout);
    expect((await t.read('/internal/whoami', {}, tenant.token)).body.tenant_id).toBe(tenant.tenant_id);

    // Stderr is not a terminal: no progress bar, --quiet or not.
    const seeded = await cli(['seed', '--tenant', tenant.tenant_id, '--products', '3', '--json'], { DATA_DIR: dir });
    expect({ code: seeded.code, stderr: seeded.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(seeded.stdout)).toMatchObject({ products: 3, stores: [store] });
    const taken = await cli(['tenant', 'create', '--name', 'Again', '--store', store], { DATA_DIR: dir });
    expect(refused(taken, 4, 'conflict')).toBe(`conflict: store handle ${store} is taken`);
  });

  it('shows the seed progress bar on a terminal, and hides it with --quiet', async () => {
    const dir = instanceDir('terminal', { database_url: t.databaseUrl });
    const seed = async (...extra: string[]) =>
      (await inTerminal(['seed', '--tenant', t.tenant.tenant_id, '--products', '2', ...extra], { DATA_DIR: dir, DATABASE_URL: '' })).stdout;
    expect(await seed()).toContain('seeding');
    const quiet = await seed('--quiet');
    expect(quiet).toMatch(/seeded \d+ products/);
    expect(quiet).not.toContain('seeding');
  });

  it('prints every refusal the CLI section of docs/surfaces.md quotes, as quoted', async () => {
    const section = readFileSync(join(ROOT, 'docs', 'surfaces.md'), 'utf8')
      .split('\n## CLI\n')[1]
      .split('\n## ')[0];
    // `kind: message` quotes, a line break in the docs being a space; `<url>`, `<DATA_DIR>`… stand for any text.
    const kinds = [...Object.keys(ERROR_STATUS), 'unreachable'].join('|');
    const quoted = [...section.matchAll(new RegExp(`\`((?:${kinds}): [^\`]+)\``, 'g'))].map((m) => m[1].replace(/\s+/g, ' '));
    const closed = `http://127.0.0.1:${await freePort()}`;
    const runs = await Promise.all([
      cli(['tenant', 'create', '--name', 'Nowhere', '--store', `nowhere-${unique()}`]),
      cli(['seed', '--tenant', 'ten_x', '--products', '1'], { DATA_DIR: instanceDir('readme-split', {}) }),
      cli(['read.internal.whoami'], { BACKOFFICE_URL: closed, BACKOFFICE_TOKEN: 'bok_x' }),
      cli(['read.internal.whoami'], { BACKOFFICE_URL: t.url }),
    ]);
    const printed = runs.map((run) => run.stderr.trim());
    expect(quoted.length).toBeGreaterThanOrEqual(printed.length);
    const pattern = (quote: string) =>
      new RegExp(
        `^${quote
          .split(/<[^>]+>/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
      );
    for (const quote of quoted) expect([quote, printed.some((line) => pattern(quote).test(line))]).toEqual([quote, true]);
    // And each of these refusals is quoted.
    for (const line of printed) expect([line, quoted.some((quote) => pattern(quote).test(line))]).toEqual([line, true]);
  });

  it('tenant create refuses without a running instance, or when the file is stale or keeps its database to itself', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const dirs = {
      none: emptyDataDir,
      stale: instanceDir('stale', { pid: dead, database_url: t.databaseUrl }),
      secret: instanceDir('secret', {}),
    };
    const create = (dir: string) => cli(['tenant', 'create', '--name', 'Nowhere', '--store', `nowhere-${unique()}`], { DATA_DIR: dir });
    const [none, stale, secret] = await Promise.all([create(dirs.none), create(dirs.stale), create(dirs.secret)]);
    expect(refused(none, 6, 'unreachable')).toBe(`unreachable: no running back office found under ${dirs.none}: start it (npm start) or set DATABASE_URL`);
    expect(refused(stale, 6, 'unreachable')).toBe(`unreachable: no running back office found under ${dirs.stale}: start it (npm start) or set DATABASE_URL`);
    expect(refused(secret, 6, 'unreachable')).toContain(`the back office running at ${t.url} does not say where its database is`);
    // A stale file gives no URL either: the default port.
    expect((await cli(['read.internal.whoami'], { DATA_DIR: dirs.stale })).stderr).toContain('cannot reach the back office at http://127.0.0.1:4000');
  });
});

describe('a CLI that starts at once: it loads what the command needs', () => {
  /** The files a run of the CLI loaded (`require.cache` at exit, from a preload). */
  async function loaded(args: string[], env: Record<string, string> = {}): Promise<string[]> {
    const file = join(scratch, `loaded-${unique()}.txt`);
    await cli(args, { ...env, LOADED_MODULES_FILE: file }, ['--require', join(ROOT, 'test', 'fixtures', 'loaded-modules.cjs')]);
    return readFileSync(file, 'utf8').split('\n');
  }
  const heavy = /\/node_modules\/(@apollo|typeorm|pg|graphql|fastify|@modelcontextprotocol)\/|\/subgraphs\//;

  it('--help and a call load no Apollo, TypeORM, pg, GraphQL, Fastify, MCP SDK nor any subgraph', async () => {
    const [help, call] = await Promise.all([loaded(['--help']), loaded(['read.internal.whoami'], { BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token })]);
    for (const files of [help, call]) {
      expect(files.some((f) => f.includes('commander'))).toBe(true);
      expect(files.filter((f) => heavy.test(f))).toEqual([]);
    }
  });
});

describe('help and completion, generated from the declarations', () => {
  it('--help of an operation shows its summary, scope, and each field with type, required or not, bounds and description', async () => {
    // With a token in the environment: help names the variable, never its value.
    const [product, removed] = await Promise.all([
      cli(['catalog.product.create', '--help'], { BACKOFFICE_TOKEN: t.tenant.token }),
      cli(['composition.placement.remove', '--help']),
    ]);
    expect(product.code).toBe(0);
    expect(product.stdout).not.toContain(t.tenant.token);
    expect(product.stdout).toContain('BACKOFFICE_TOKEN');
    const help = product.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('Creates a product');
    expect(help).toContain('(scope catalog.product.write)');
    expect(help).toContain('--handle <string> string, required; minLength 1, maxLength 200, pattern ^[a-z0-9]+(-[a-z0-9]+)*$');
    expect(help).toContain('--status <string> string, optional; one of draft | active | archived, default draft');
    expect(help).toContain(
      'Input fields only through --input (JSON): metadata any JSON, optional categories {category_id: string, is_primary?: boolean}[], optional; maxItems 50',
    );
    expect(removed.stdout.replace(/\s+/g, ' ')).toContain('DEPRECATED. Deprecated by the interface reference; use composition.placement.reset instead.');
  });

  it('completion bash completes commands, subcommands and each command’s flags; zsh runs the same through bashcompinit', async () => {
    const [bash, zsh] = await Promise.all([cli(['completion', 'bash']), cli(['completion', 'zsh'])]);
    expect(bash.code).toBe(0);
    const script = join(scratch, 'completion.bash');
    writeFileSync(script, bash.stdout);
    /** What bash offers after the words typed (the last one being completed). */
    const complete = (...words: string[]) =>
      execFileSync('bash', ['-c', `source "$0"; COMP_WORDS=(backoffice "$@"); COMP_CWORD=$#; _backoffice; echo "\${COMPREPLY[*]}"`, script, ...words], {
        encoding: 'utf8',
      })
        .trim()
        .split(' ');
    expect(complete('catalog.product.cr')).toEqual(['catalog.product.create']);
    expect(complete('catalog.product.create', '--title', 'Mug', '--ha')).toEqual(['--handle']);
    expect(complete('iam.api_key.create', '--never')).toEqual(['--never-expires']);
    expect(complete('tenant', '')).toEqual(['create', '--help']);
    expect(complete('tenant', 'create', '--n')).toEqual(['--name', '--never-expires']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', '--help']);
    expect(zsh.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(zsh.stdout).toContain(bash.stdout.split('\n').slice(1).join('\n'));
  });
});
