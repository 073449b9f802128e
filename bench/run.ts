/**
 * `npm run bench`: starts the back office in a child process (bench/server.ts) on a fresh database,
 * runs the scenarios below against 127.0.0.1, writes bench/results.json and prints a table.
 *
 * Environment:
 *   DATABASE_URL           server to use (default postgres://postgres@127.0.0.1:5432/test); a fresh
 *                          database bo_bench_<timestamp> is created on it and dropped at the end
 *   BENCH_SECONDS          measured seconds per scenario (default 10)
 *   BENCH_WARMUP_SECONDS   warm-up seconds before each (default 2)
 *   BENCH_CONNECTIONS      concurrent connections / clients (default 32; split_routers keeps the
 *                          issue's 16)
 *   BENCH_ROUNDS           the two sides of a ratio run in this many alternating rounds (default 3),
 *                          splitting the measured seconds, so that drift (a checkpoint, a busy
 *                          neighbour on a shared host) weighs on both sides alike
 *   BENCH_ONLY             comma-separated scenario names to run (ratios missing a side are skipped);
 *                          without it every scenario runs, catalog_scale (seeds 1,000,000 products:
 *                          about 15 minutes) and storefront_memory (11 minutes) included
 *   BENCH_MEMORY_SECONDS   measured seconds of storefront_memory (default 600)
 *   BENCH_CATALOG_PRODUCTS products seeded for catalog_products (default 100000)
 *   BENCH_CATALOG_SCALE    products of the large store in catalog_scale (default 1000000)
 *   BENCH_STARTUP_RUNS     starts of each kind measured by cli_startup (default 15)
 *   BENCH_CPU_PROF         a directory: the server runs with --cpu-prof and writes its profile there
 *   BENCH_RESULTS          where the results go (default bench/results.json)
 *
 * It is a report: it exits 0 whether or not the targets are met (non-zero only if it could not run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, Pool } from 'pg';
import { ACTOR_CONTEXT_HEADER, signContext } from '../platform/src/actor';
import { httpLoad, loopLoad, type HttpLoad, type Measurement, type Watched } from './measure';
import type { BenchTarget } from './target';
import { catalogProducts, catalogScale } from './catalog';
import { eventsPipeline } from './events';
import { adminOrderList, graphqlPath } from './graphql';
import { adminFirstPaint } from './admin';
import { backgroundOf, describeBackground, type Background } from './background';
import { backgroundDrain } from './backlog';
import { ordersScenarios } from './orders';
import { splitRouters } from './split';
import { cliStartup } from './startup';
import { storefrontMemory, storefrontThroughput } from './storefront';

const ROOT = resolve(__dirname, '..');
/** DATA_DIR of the servers the run starts, removed at its end. */
const dataDir = mkdtempSync(join(tmpdir(), 'bo-bench-data-'));
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

const numberFromEnv = (name: string, fallback: number, min: number) => {
  const raw = process.env[name];
  const value = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(value) && value >= min ? value : fallback;
};

export interface BenchConfig {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  rounds: number;
}

export interface BenchContext {
  config: BenchConfig;
  target: BenchTarget;
  /** The bench's own database (the one the server uses). */
  databaseUrl: string;
  /** What CPU is attributed to: the server process and this database's PostgreSQL backends. */
  watched: Watched;
  log: (line: string) => void;
  /**
   * Another instance of the system on the same database with these environment overrides (e.g. a
   * cache turned off), started on first use and stopped with the main one.
   */
  server(env: Record<string, string>): Promise<BenchTarget>;
}

export interface Scenario {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<Measurement>;
}

export interface RatioSpec {
  name: string;
  numerator: string;
  denominator: string;
  /** Pass when numerator.rps / denominator.rps >= target. */
  target: number;
}

// ---------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------

const WHOAMI_QUERY = 'query Rest_read_internal_whoami { read_internal_whoami { actor_id name tenant_id credential_id scopes } }';

/** One request before the load: proves the scenario measures successes, not fast errors. */
async function probe(load: HttpLoad, check: (status: number, body: string) => boolean): Promise<NonNullable<Measurement['probe']>> {
  const response = await fetch(load.url, { method: load.method, headers: load.headers, body: load.body });
  const body = await response.text();
  return { status: response.status, ok: check(response.status, body), body: body.slice(0, 300) };
}

const parsed = (body: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
};

async function httpScenario(ctx: BenchContext, load: HttpLoad, check: (status: number, body: string) => boolean): Promise<Measurement> {
  const first = await probe(load, check);
  if (!first.ok) ctx.log(`probe failed (${first.status}): ${first.body}`);
  const measured = await httpLoad(load, { ...ctx.config, watched: ctx.watched });
  return { ...measured, probe: first };
}

const whoamiRest: Scenario = {
  name: 'whoami_rest',
  description: 'GET /v1/read/internal/whoami through the REST shim and the federated gateway',
  run: (ctx) =>
    httpScenario(
      ctx,
      { url: `${ctx.target.url}/v1/read/internal/whoami`, method: 'GET', headers: { authorization: `Bearer ${ctx.target.token}` } },
      (status, body) => status === 200 && parsed(body)?.actor_id === ctx.target.actor.api_key_id,
    ),
};

const whoamiSubgraphDirect: Scenario = {
  name: 'whoami_subgraph_direct',
  description: 'The same GraphQL operation POSTed to the identity subgraph served alone, with a signed context',
  run(ctx) {
    // A signed context lives 60 s: signed once for a default run, re-signed every 30 s for long ones.
    const sign = () => ({
      [ACTOR_CONTEXT_HEADER]: signContext(ctx.target.contextSecret, { actor: ctx.target.actor, request_id: `req_bench_${randomUUID()}` }),
    });
    return httpScenario(
      ctx,
      {
        url: ctx.target.subgraphUrl,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sign() },
        body: JSON.stringify({ query: WHOAMI_QUERY, operationName: 'Rest_read_internal_whoami' }),
        refresh: { everyMs: 30_000, headers: sign },
      },
      (status, body) => {
        const data = parsed(body)?.data as { read_internal_whoami?: { actor_id?: string } } | undefined;
        return status === 200 && !parsed(body)?.errors && data?.read_internal_whoami?.actor_id === ctx.target.actor.api_key_id;
      },
    );
  },
};

/** Outbox rows of a subgraph by status: shows whether the relay kept up with a command's events. */
async function outboxByStatus(databaseUrl: string, schema: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM "${schema}".outbox_event GROUP BY status`);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  } finally {
    await client.end();
  }
}

const apiKeyCreateRest: Scenario = {
  name: 'api_key_create_rest',
  description: 'POST /v1/commands/iam.api_key.create (a command: key + credential + outbox event + audit row in one transaction)',
  async run(ctx) {
    const measured = await httpScenario(
      ctx,
      {
        url: `${ctx.target.url}/v1/commands/iam.api_key.create`,
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', scopes: ['audit.read'] }),
      },
      (status, body) => status === 200 && typeof parsed(body)?.token === 'string',
    );
    // The relay delivers the command's events after commit: how far behind it was when the load
    // stopped, and how long it then took to catch up (bounded; also keeps its catch-up out of the next scenario).
    const atEnd = await outboxByStatus(ctx.databaseUrl, 'identity');
    const started = Date.now();
    let now = atEnd;
    while ((now.pending ?? 0) > 0 && Date.now() - started < 30_000) {
      await new Promise((ok) => setTimeout(ok, 250));
      now = await outboxByStatus(ctx.databaseUrl, 'identity');
    }
    return {
      ...measured,
      extra: {
        identity_outbox_at_end: atEnd,
        relay_drain_s: (now.pending ?? 0) > 0 ? null : Math.round((Date.now() - started) / 100) / 10,
        identity_outbox_after_drain: now,
      },
    };
  },
};

const bareInsert: Scenario = {
  name: 'bare_insert',
  description: 'N pg clients each looping one autocommit INSERT (bigserial PK + two text columns): the database floor',
  async run(ctx) {
    const setup = new Client({ connectionString: ctx.databaseUrl });
    await setup.connect();
    await setup.query('CREATE TABLE IF NOT EXISTS public.bench_row (id bigserial PRIMARY KEY, a text NOT NULL, b text NOT NULL)');
    await setup.end();
    const pool = new Pool({ connectionString: ctx.databaseUrl, max: ctx.config.connections, application_name: 'backoffice-bench' });
    try {
      // Open every connection before timing anything.
      const clients = await Promise.all(Array.from({ length: ctx.config.connections }, () => pool.connect()));
      for (const c of clients) c.release();
      let n = 0;
      const step = () => pool.query({ name: 'bench_insert', text: 'INSERT INTO public.bench_row (a, b) VALUES ($1, $2)', values: [`a${++n}`, 'bench'] });
      const workers = ctx.config.connections;
      if (ctx.config.warmupSeconds > 0) await loopLoad(step, { workers, seconds: ctx.config.warmupSeconds, watched: ctx.watched });
      return await loopLoad(step, { workers, seconds: ctx.config.seconds, watched: ctx.watched });
    } finally {
      await pool.end();
    }
  },
};

/** Run in this order. */
// The orders scenarios run before events_pipeline: its webhook endpoints would take their events.
export const SCENARIOS: Scenario[] = [
  cliStartup,
  whoamiRest,
  whoamiSubgraphDirect,
  apiKeyCreateRest,
  bareInsert,
  ordersScenarios.checkoutRest,
  ordersScenarios.checkoutBareSql,
  ordersScenarios.expireUnpaid,
  eventsPipeline,
  catalogProducts,
  storefrontThroughput,
  backgroundDrain,
  graphqlPath,
  adminOrderList,
  adminFirstPaint,
  splitRouters,
  catalogScale,
  storefrontMemory,
];

export const RATIOS: RatioSpec[] = [
  { name: 'whoami_rest_over_direct', numerator: 'whoami_rest', denominator: 'whoami_subgraph_direct', target: 0.5 },
  { name: 'api_key_create_over_bare_insert', numerator: 'api_key_create_rest', denominator: 'bare_insert', target: 0.2 },
  { name: 'checkout_over_bare_sql', numerator: 'checkout_rest', denominator: 'checkout_bare_sql', target: 0.3 },
];

/**
 * One measurement from a scenario's rounds: rates and CPU over the rounds' whole time; p50 the
 * rounds' median, p99 and max the worst round's.
 */
function mergeRounds(rounds: Measurement[]): Measurement {
  if (rounds.length === 1) return rounds[0];
  const sum = (f: (m: Measurement) => number) => rounds.reduce((total, m) => total + f(m), 0);
  const duration = sum((m) => m.duration_s);
  const total = sum((m) => m.total);
  const byTime = (f: (m: Measurement) => number | null) => (rounds.some((m) => f(m) === null) ? null : Math.round(sum((m) => f(m)! * m.duration_s) / duration));
  const p50s = rounds.map((m) => m.latency_ms.p50).sort((a, b) => a - b);
  return {
    ...rounds[rounds.length - 1],
    rps: Math.round((sum((m) => m.rps * m.duration_s) / duration) * 10) / 10,
    latency_ms: {
      mean: Math.round((sum((m) => m.latency_ms.mean * m.total) / Math.max(1, total)) * 100) / 100,
      p50: p50s[Math.floor(p50s.length / 2)],
      p99: Math.max(...rounds.map((m) => m.latency_ms.p99)),
      max: Math.max(...rounds.map((m) => m.latency_ms.max)),
    },
    total,
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    duration_s: duration,
    cpu_percent: {
      server: byTime((m) => m.cpu_percent.server),
      loadgen: byTime((m) => m.cpu_percent.loadgen)!,
      postgres: byTime((m) => m.cpu_percent.postgres),
      kernel: byTime((m) => m.cpu_percent.kernel),
      other: byTime((m) => m.cpu_percent.other),
      ...(rounds.some((m) => m.cpu_percent.subgraphs !== undefined) ? { subgraphs: byTime((m) => m.cpu_percent.subgraphs ?? null) } : {}),
    },
    probe: rounds.find((m) => m.probe && !m.probe.ok)?.probe ?? rounds[0].probe,
    extra: { ...rounds[rounds.length - 1].extra, rounds_rps: rounds.map((m) => m.rps) },
  };
}

/**
 * What runs, in order: a scenario alone, or the two sides of a ratio in alternating rounds (only
 * when both are selected and neither is already planned).
 */
function plan(selected: Scenario[], rounds: number): Scenario[][] {
  const steps: Scenario[][] = [];
  const planned = new Set<string>();
  for (const scenario of selected) {
    if (planned.has(scenario.name)) continue;
    const spec = rounds > 1 ? RATIOS.find((r) => r.numerator === scenario.name || r.denominator === scenario.name) : undefined;
    const partner = spec && selected.find((s) => s.name === (spec.numerator === scenario.name ? spec.denominator : spec.numerator) && !planned.has(s.name));
    const step = partner ? [scenario, partner] : [scenario];
    for (const s of step) planned.add(s.name);
    steps.push(step);
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// Database and server lifecycle
// ---------------------------------------------------------------------------------------------

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(baseUrl: string, sql: string): Promise<void> {
  const admin = new Client({ connectionString: withDatabase(baseUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

interface RunningServer {
  child: ChildProcess;
  target: BenchTarget;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string, log: (line: string) => void, env: Record<string, string> = {}): Promise<RunningServer> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const args = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : []), '--import', 'tsx', join(ROOT, 'bench', 'server.ts')];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Measured as deployed: NODE_ENV=production (graphql-js then skips its development-time checks).
    // A line per request would flood the stdout read here: warnings only, unless LOG_LEVEL says.
    // The events scenario's webhook receiver listens on 127.0.0.1 over http.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      WEBHOOK_ALLOW_INSECURE: '1',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
      // Scheduled jobs would sweep what expire_unpaid seeds and measures.
      JOBS: 'off',
      // Its files (mail written without SMTP: a message per cancelled order) go to the run's folder, not the checkout's ./.data.
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };
  const lines = createInterface({ input: child.stdout! });
  const target = await new Promise<BenchTarget>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('the server did not report ready within 120 s')), 120_000);
    lines.on('line', (line) => {
      const value = parsed(line);
      if (value && typeof value.url === 'string') {
        clearTimeout(timer);
        ok(value as unknown as BenchTarget);
      } else if (line.trim()) log(`[server stdout] ${line}`);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (code ${code}) before it was ready`));
    });
  });
  return { child, target, stop };
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

interface RatioResult {
  value: number;
  target: number;
  pass: boolean;
  numerator: string;
  denominator: string;
}

function printTable(scenarios: Record<string, Measurement>, ratios: Record<string, RatioResult>, config: BenchConfig) {
  const rows = [
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'cpu srv%', 'cpu pg%', 'cpu gen%', 'cpu krn%', 'cpu other%', 'probe'],
    ...Object.entries(scenarios).map(([name, m]) => [
      name,
      m.rps.toFixed(1),
      String(m.latency_ms.p50),
      String(m.latency_ms.p99),
      String(m.non2xx),
      String(m.errors + m.timeouts),
      m.cpu_percent.server === null ? '-' : String(m.cpu_percent.server),
      m.cpu_percent.postgres === null ? '-' : String(m.cpu_percent.postgres),
      String(m.cpu_percent.loadgen),
      m.cpu_percent.kernel === null ? '-' : String(m.cpu_percent.kernel),
      m.cpu_percent.other === null ? '-' : String(m.cpu_percent.other),
      m.probe ? (m.probe.ok ? 'ok' : `BAD ${m.probe.status}`) : '-',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(
    `\n${config.connections} connections, ${config.seconds} s measured after ${config.warmupSeconds} s warm-up ` +
      `(ratio pairs: ${config.rounds} alternating rounds), ${cpus().length} CPUs, Node ${process.version}\n`,
  );
  console.log(line(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
  for (const [name, m] of Object.entries(scenarios)) {
    if (m.extra)
      console.log(
        `${name}: ${Object.entries(m.extra)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join('  ')}`,
      );
    if (m.probe && !m.probe.ok) console.log(`${name}: probe answered ${m.probe.status}: ${m.probe.body}`);
    if (m.note) console.log(`${name}: ${m.note}`);
  }
  const noisy = Object.entries(scenarios).filter(([, m]) => (m.cpu_percent.other ?? 0) > 20);
  if (noisy.length) {
    console.log(`\nNOISY: other processes used CPU during ${noisy.map(([n, m]) => `${n} (${m.cpu_percent.other}%)`).join(', ')}; rerun on a quiet machine.`);
  }
  console.log('');
  for (const [name, r] of Object.entries(ratios)) {
    console.log(`${r.pass ? 'PASS' : 'MISS'}  ${name.padEnd(34)} ${r.value.toFixed(3)}  (target >= ${r.target}; ${r.numerator} / ${r.denominator})`);
  }
  for (const [scenario, m] of Object.entries(scenarios)) {
    const targets = (m.extra?.targets ?? {}) as Record<string, { value: number; target: string; pass: boolean }>;
    for (const [name, r] of Object.entries(targets)) {
      console.log(`${r.pass ? 'PASS' : 'MISS'}  ${name.padEnd(34)} ${r.value.toFixed(3)}  (target ${r.target}; ${scenario})`);
    }
  }
  console.log('');
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const config: BenchConfig = {
    seconds: Math.round(numberFromEnv('BENCH_SECONDS', 10, 1)),
    warmupSeconds: Math.round(numberFromEnv('BENCH_WARMUP_SECONDS', 2, 0)),
    connections: Math.round(numberFromEnv('BENCH_CONNECTIONS', 32, 1)),
    rounds: Math.round(numberFromEnv('BENCH_ROUNDS', 3, 1)),
  };
  const only = process.env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const selected = only?.length ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;
  if (!selected.length) throw new Error(`BENCH_ONLY matches no scenario (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);

  const loadAtStart = loadavg().map((n) => Math.round(n * 100) / 100);
  const baseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const database = `bo_bench_${Date.now()}`;
  const databaseUrl = withDatabase(baseUrl, database);
  await adminQuery(baseUrl, `CREATE DATABASE ${database}`);
  log(`created database ${database}`);

  let server: RunningServer | null = null;
  const others = new Map<string, Promise<RunningServer>>();
  let cleaned: Promise<void> | null = null;
  const cleanup = () =>
    (cleaned ??= (async () => {
      for (const other of others.values()) {
        await other.then((s) => s.stop()).catch((error: Error) => log(`stopping a server: ${error.message}`));
      }
      await server?.stop().catch((error: Error) => log(`stopping the server: ${error.message}`));
      rmSync(dataDir, { recursive: true, force: true });
      await adminQuery(baseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).then(
        () => log(`dropped database ${database}`),
        (error: Error) => log(`could not drop database ${database}: ${error.message}`),
      );
    })());
  // Interrupted: still stop the server and drop the database.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  const scenarios: Record<string, Measurement> = {};
  try {
    server = await startServer(databaseUrl, log);
    log(`server up at ${server.target.url}, identity alone at ${server.target.subgraphUrl} (pid ${server.target.pid})`);
    const other = (env: Record<string, string>) => {
      const key = JSON.stringify(env);
      // Requests only: the main server does the background work, which would otherwise run in two processes at once.
      if (!others.has(key)) others.set(key, startServer(databaseUrl, log, { CONSUMERS: 'off', ...env }));
      return others.get(key)!.then((s) => s.target);
    };
    const ctx: BenchContext = { config, target: server.target, databaseUrl, log, watched: { serverPid: server.target.pid, database }, server: other };
    for (const step of plan(selected, config.rounds)) {
      const rounds = step.length > 1 ? config.rounds : 1;
      const measured = new Map<string, Measurement[]>(step.map((s) => [s.name, []]));
      // What the database is still busy with as the step starts (the last scenario's events, vacuum).
      const background: Background = await backgroundOf(databaseUrl);
      log(`${step.map((s) => s.name).join(' + ')} starts with ${describeBackground(background)}`);
      for (let round = 0; round < rounds; round++) {
        for (const scenario of step) {
          // Each round after the first warms up for a second: the scenario before it ran something else.
          const roundConfig = {
            ...config,
            seconds: Math.max(1, Math.round(config.seconds / rounds)),
            warmupSeconds: round === 0 ? config.warmupSeconds : Math.min(1, config.warmupSeconds),
          };
          log(`${scenario.name}${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ''}: ${roundConfig.warmupSeconds} s warm-up + ${roundConfig.seconds} s`);
          measured.get(scenario.name)!.push(await scenario.run({ ...ctx, config: roundConfig }));
        }
      }
      for (const scenario of step) {
        const m = mergeRounds(measured.get(scenario.name)!);
        m.extra = { background_at_start: background, ...m.extra };
        scenarios[scenario.name] = m;
        log(`${scenario.name}: ${m.rps} req/s, p50 ${m.latency_ms.p50} ms, p99 ${m.latency_ms.p99} ms, non-2xx ${m.non2xx}, errors ${m.errors}`);
      }
    }
  } finally {
    await cleanup();
  }

  const ratios: Record<string, RatioResult> = {};
  for (const spec of RATIOS) {
    const top = scenarios[spec.numerator];
    const bottom = scenarios[spec.denominator];
    if (!top || !bottom?.rps) continue;
    const value = Math.round((top.rps / bottom.rps) * 1000) / 1000;
    ratios[spec.name] = { value, target: spec.target, pass: value >= spec.target, numerator: spec.numerator, denominator: spec.denominator };
  }

  const results = {
    machine: {
      cpus: cpus().length,
      cpu_model: cpus()[0]?.model ?? null,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      loadavg_at_start: loadAtStart,
    },
    config,
    scenarios: Object.fromEntries(
      Object.entries(scenarios).map(([name, m]) => [name, { description: SCENARIOS.find((s) => s.name === name)!.description, ...m }]),
    ),
    ratios,
    at: new Date().toISOString(),
  };
  const file = process.env.BENCH_RESULTS || join(ROOT, 'bench', 'results.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  printTable(scenarios, ratios, config);
  console.log(`wrote ${file}`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    process.stderr.write(`[bench] failed: ${error.stack ?? error.message}\n`);
    process.exit(1);
  },
);
