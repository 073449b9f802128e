/**
 * split_routers (default) of `npm run bench` (issue: this gateway against Hive Gateway, subgraphs split).
 *
 * The four subgraphs run as their own processes (`subgraphs/<name>/src/main.ts`, as docker-compose
 * runs them and test/router.test.ts starts them) on the bench's database, identity first. In front of
 * the same processes, each router in a process of its own, so that CPU is attributed to the router
 * alike (`cpu srv%`: the router; `subgraphs` in extra: the four subgraph processes together):
 *   - ours: `gateway/src/main.ts` with GATEWAY_ONLY=1 and <NAME>_URL (a signed context to each subgraph);
 *   - Hive Gateway 2.15 (the dev dependency), started by its CLI (`hive-gateway supergraph
 *     supergraph.graphql`, one process: `--fork 1`), which loads the committed gateway.config.ts of
 *     docs/routers.md over the committed supergraph.graphql: it is the documented way to run it, so
 *     what is measured is what a deployment runs. In-flight request merging is off there:
 *     `transportEntries['*.http'].options.deduplicateInflightRequests: false` (the HTTP executor of
 *     @graphql-tools/executor-http fetches every query itself instead of sharing one fetch among
 *     identical ones); its inbound merging (`inboundInflightRequestDeduplication`) is off by default
 *     and not turned on. So both routers send every client request on to the subgraphs.
 * Every process runs with NODE_ENV=production, LOG_LEVEL=warn, the same CONTEXT_SECRET and rate
 * limits too high to refuse anything (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST), JOBS=off as the bench
 * server.
 *
 * At 16 connections (the issue's; not BENCH_CONNECTIONS), POST /graphql, in BENCH_ROUNDS alternating
 * rounds splitting BENCH_SECONDS: `whoami_ours` / `whoami_hive`, read_internal_whoami with the bench
 * tenant's owner token (same database: identity's process knows it); `products_ours` /
 * `products_hive`, read_products of the bench store (the catalog_products store, 100,000 products),
 * the first 24, feed projection (the REST shim's document for `?projection=feed`), without a token.
 * Each side is probed once first (200, no errors, the right actor, 24 items; both routers the same data).
 *
 * Targets: ours >= 1.5 x Hive Gateway on whoami and on products.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { freePort } from '../platform/src/db/locate';
import { operationDocument } from '../platform/src/graphql-sdl';
import { readProducts } from '../subgraphs/catalog/src/operations/read.products';
import { httpLoad, type HttpLoad, type Measurement } from './measure';
import { seededStore } from './catalog';
import type { Scenario } from './run';

const ROOT = resolve(__dirname, '..');
const SUBGRAPH_NAMES = ['identity', 'catalog', 'orders', 'content'] as const;
/** The issue's load: 16 connections, whatever BENCH_CONNECTIONS says. */
const CONNECTIONS = 16;
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

const WHOAMI = 'query { read_internal_whoami { actor_id name tenant_id credential_id scopes } }';
/** What the REST shim sends for /v1/read/products?projection=feed: the feed projection's fields. */
const PRODUCTS = operationDocument(readProducts, 'feed');

/** A child process of this scenario, with the tail of what it wrote (shown when it fails). */
interface Child {
  name: string;
  process: ChildProcess;
  tail: string[];
}

function start(name: string, args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  // Read on (a full pipe would block the child), keeping the last lines.
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString().trimEnd().split('\n'));
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { name, process: child, tail };
}

const gone = (c: Child) => c.process.exitCode !== null || c.process.signalCode !== null;

/** Until `check` answers true, failing when the child exits or `ms` pass. */
async function ready(child: Child, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (gone(child)) throw new Error(`${child.name} exited (${child.process.exitCode ?? child.process.signalCode}):\n${child.tail.join('\n')}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${child.name} was not ready within ${ms / 1000} s:\n${child.tail.join('\n')}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

async function stop(child: Child): Promise<void> {
  if (gone(child)) return;
  const exited = new Promise<void>((ok) => child.process.once('exit', () => ok()));
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 10_000);
  child.process.kill('SIGTERM');
  await exited;
  clearTimeout(timer);
}

const post = (url: string, body: string, token?: string): HttpLoad => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body,
});

/** The one request of a side, before its load: the data it answers, or a loud failure. */
async function probe(name: string, load: HttpLoad, check: (data: Record<string, any>) => boolean): Promise<unknown> {
  const response = await fetch(load.url, { method: load.method, headers: load.headers, body: load.body });
  const text = await response.text();
  let body: { data?: Record<string, any>; errors?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // reported below
  }
  if (response.status !== 200 || !body?.data || body.errors || !check(body.data))
    throw new Error(`split_routers: probe of ${name} (${load.url}) answered ${response.status}: ${text.slice(0, 300)}`);
  return body.data;
}

export const splitRouters: Scenario = {
  name: 'split_routers',
  description:
    'subgraphs in their own processes: this gateway (GATEWAY_ONLY) vs Hive Gateway 2.15 (in-flight merging off) over the same ones, ' +
    '16 connections, whoami with a token and read_products feed first 24 without one',
  async run(ctx) {
    const store = await seededStore(ctx);
    const children: Child[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'bo-bench-split-'));
    // Interrupted (run.ts exits on SIGINT without unwinding this): none is left running.
    const orphans = () => {
      for (const c of children) if (!gone(c)) c.process.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    };
    process.once('exit', orphans);
    try {
      const secret = randomBytes(32).toString('base64url');
      const ports: Record<string, number> = {};
      for (const name of SUBGRAPH_NAMES) ports[name] = await freePort();
      const urls = Object.fromEntries(SUBGRAPH_NAMES.map((name) => [`${name.toUpperCase()}_URL`, `http://127.0.0.1:${ports[name]}`]));
      // What every process shares: one secret, keys, limits that never refuse.
      const shared = {
        DATABASE_URL: ctx.databaseUrl,
        CONTEXT_SECRET: secret,
        WEBHOOK_SECRET_KEY: secret,
        VAULT_KEY: randomBytes(32).toString('base64'),
        RATE_LIMIT_PER_SECOND: '1000000000',
        RATE_LIMIT_BURST: '1000000000',
        JOBS: 'off',
        HOST: '127.0.0.1',
        ...urls,
      };
      // Each its own DATA_DIR (content's .eml files, the gateway's instance.json), none the checkout's.
      const subgraph = (name: string) =>
        start(name, ['--import', 'tsx', `subgraphs/${name}/src/main.ts`], {
          ...shared,
          DATA_DIR: join(dataDir, name),
          [`${name.toUpperCase()}_PORT`]: String(ports[name]),
          WEBHOOK_ALLOW_INSECURE: '1',
          WEBHOOK_ALLOW_PRIVATE: '1',
        });
      const readyz = (name: string) => () => fetch(`http://127.0.0.1:${ports[name]}/readyz`).then((r) => r.ok);
      // Identity first (the others ask it who a token is), then the rest together.
      const identity = subgraph('identity');
      children.push(identity);
      await ready(identity, readyz('identity'));
      const rest = SUBGRAPH_NAMES.slice(1).map((name) => [name, subgraph(name)] as const);
      children.push(...rest.map(([, c]) => c));
      await Promise.all(rest.map(([name, c]) => ready(c, readyz(name))));

      const oursPort = await freePort();
      const hivePort = await freePort();
      const ours = start('gateway', ['--import', 'tsx', 'gateway/src/main.ts'], {
        ...shared,
        GATEWAY_ONLY: '1',
        PORT: String(oursPort),
        DATA_DIR: join(dataDir, 'gateway'),
      });
      children.push(ours);
      const hive = start(
        'hive-gateway',
        [
          join(ROOT, 'node_modules', '@graphql-hive', 'gateway', 'dist', 'bin.js'),
          'supergraph',
          'supergraph.graphql',
          '--config-path',
          'gateway.config.ts',
          '--fork',
          '1',
          '--host',
          '127.0.0.1',
          '--port',
          String(hivePort),
        ],
        { ...shared, DATA_DIR: join(dataDir, 'hive') },
      );
      children.push(hive);
      const routers = [
        { side: 'ours', child: ours, url: `http://127.0.0.1:${oursPort}/graphql` },
        { side: 'hive', child: hive, url: `http://127.0.0.1:${hivePort}/graphql` },
      ] as const;
      const typename = JSON.stringify({ query: '{ __typename }' });
      await Promise.all(
        routers.map(({ child, url }) =>
          ready(child, () => fetch(url, { method: 'POST', headers: post(url, typename).headers, body: typename }).then((r) => r.ok)),
        ),
      );
      const subgraphPids = children.filter((c) => SUBGRAPH_NAMES.includes(c.name as never)).map((c) => c.process.pid!);
      ctx.log(`split routers up: ours pid ${ours.process.pid}, hive pid ${hive.process.pid}, subgraphs pids ${subgraphPids.join(' ')}`);

      const whoami = JSON.stringify({ query: WHOAMI });
      const products = JSON.stringify({ query: PRODUCTS, variables: { input: { store: store.store_id, limit: 24, projection: 'feed' } } });
      const sides: { name: string; load: HttpLoad; pid: number; check: (data: Record<string, any>) => boolean }[] = [];
      for (const { side, child, url } of routers) {
        sides.push({
          name: `whoami_${side}`,
          load: post(url, whoami, ctx.target.token),
          pid: child.process.pid!,
          check: (data) => data.read_internal_whoami?.actor_id === ctx.target.actor.api_key_id,
        });
      }
      for (const { side, child, url } of routers) {
        sides.push({
          name: `products_${side}`,
          load: post(url, products),
          pid: child.process.pid!,
          check: (data) => data.read_products?.items?.length === 24,
        });
      }
      const answers = new Map<string, unknown>();
      for (const { name, load, check } of sides) answers.set(name, await probe(name, load, check));
      for (const what of ['whoami', 'products']) {
        if (!isDeepStrictEqual(answers.get(`${what}_ours`), answers.get(`${what}_hive`)))
          throw new Error(
            `split_routers: the two routers answer ${what} differently:\n${JSON.stringify(answers.get(`${what}_ours`)).slice(0, 300)}\n${JSON.stringify(answers.get(`${what}_hive`)).slice(0, 300)}`,
          );
      }

      const measured = new Map<string, Measurement[]>(sides.map(({ name }) => [name, []]));
      const rounds = ctx.config.rounds;
      const seconds = Math.max(1, Math.round(ctx.config.seconds / rounds));
      for (let r = 0; r < rounds; r++) {
        for (const { name, load, pid } of sides) {
          const warmupSeconds = r === 0 ? ctx.config.warmupSeconds : Math.min(1, ctx.config.warmupSeconds);
          ctx.log(`split ${name} (round ${r + 1}/${rounds}): ${warmupSeconds} s warm-up + ${seconds} s`);
          measured
            .get(name)!
            .push(await httpLoad(load, { connections: CONNECTIONS, seconds, warmupSeconds, watched: { ...ctx.watched, serverPid: pid, subgraphPids } }));
        }
        for (const c of children) if (gone(c)) throw new Error(`split_routers: ${c.name} exited during the load:\n${c.tail.join('\n')}`);
      }

      const figures: Record<string, unknown> = { connections: CONNECTIONS, products: store.products, store_id: store.store_id };
      const rps: Record<string, number> = {};
      for (const { name } of sides) {
        const runs = measured.get(name)!;
        const duration = runs.reduce((s, m) => s + m.duration_s, 0);
        const byTime = (f: (m: Measurement) => number | null | undefined) =>
          runs.some((m) => f(m) == null) ? null : Math.round(runs.reduce((s, m) => s + f(m)! * m.duration_s, 0) / duration);
        rps[name] = Math.round((runs.reduce((s, m) => s + m.rps * m.duration_s, 0) / duration) * 10) / 10;
        figures[name] = {
          rps: rps[name],
          rounds_rps: runs.map((m) => m.rps),
          p50_ms: runs.map((m) => m.latency_ms.p50).sort((a, b) => a - b)[Math.floor(runs.length / 2)],
          p99_ms: Math.max(...runs.map((m) => m.latency_ms.p99)),
          non2xx: runs.reduce((s, m) => s + m.non2xx, 0),
          errors: runs.reduce((s, m) => s + m.errors + m.timeouts, 0),
          cpu_router_percent: byTime((m) => m.cpu_percent.server),
          cpu_subgraphs_percent: byTime((m) => m.cpu_percent.subgraphs),
          cpu_postgres_percent: byTime((m) => m.cpu_percent.postgres),
          cpu_loadgen_percent: byTime((m) => m.cpu_percent.loadgen),
        };
        ctx.log(`split ${name}: ${JSON.stringify(figures[name])}`);
      }
      const over = (what: string) => round(rps[`${what}_ours`] / rps[`${what}_hive`]);
      figures.targets = {
        split_whoami_ours_over_hive: { value: over('whoami'), target: '>= 1.5', pass: over('whoami') >= 1.5 },
        split_products_ours_over_hive: { value: over('products'), target: '>= 1.5', pass: over('products') >= 1.5 },
      };
      const main = measured.get('whoami_ours')!;
      const failed = sides.flatMap(({ name }) => measured.get(name)!).find((m) => m.non2xx || m.errors || m.timeouts);
      return {
        ...main.at(-1)!,
        rps: rps.whoami_ours,
        latency_ms: {
          ...main.at(-1)!.latency_ms,
          p50: (figures.whoami_ours as { p50_ms: number }).p50_ms,
          p99: (figures.whoami_ours as { p99_ms: number }).p99_ms,
        },
        probe: { status: 200, ok: true, body: JSON.stringify(answers.get('whoami_ours')).slice(0, 300) },
        extra: figures,
        note: `the row is whoami through this gateway (mean and CPU of the last round); every side in extra${failed ? '; SOME REQUESTS FAILED, see non2xx/errors in extra' : ''}`,
      };
    } finally {
      await Promise.all(children.map((c) => stop(c).catch((error: Error) => ctx.log(`stopping ${c.name}: ${error.message}`))));
      process.off('exit', orphans);
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
