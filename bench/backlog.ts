/**
 * background_drain (`npm run bench`; issue: reads that hold up while background work drains).
 *
 * The storefront's feed page of 24 (page cache on, pages 1..20 rotating) and whoami through the REST
 * shim, at BENCH_CONNECTIONS, measured quiet and then while a backlog drains: BENCH_BACKLOG_ORDERS
 * (50,000) unpaid orders seeded past due as expire_unpaid seeds them, then cancelled by
 * `order.expire_unpaid` over REST, 1000 a sweep, as that scenario does: three events each
 * (order.cancelled, inventory.released, payment.attempt_failed) for the relay, and an order.cancelled
 * delivery each for content's notifications consumer, which records a message for the customer the
 * event names and queues its sending (without SMTP, an .eml file under the server's DATA_DIR/mail).
 * The two sides run in alternating rounds, quiet first, then
 * again under the backlog. Targets: each side while draining >= 0.5 of quiet; and the backlog empty
 * (outbox events pending and bus jobs waiting, every subgraph and queue) within
 * BENCH_DRAIN_TIMEOUT_SECONDS (1800), measured on after the rounds until it is. Reported: the drain's
 * rate (outbox events handed on and deliveries done per second) and its time to empty, counted from
 * the first sweep.
 */
import { Client } from 'pg';
import { httpLoad, type HttpLoad, type Measurement } from './measure';
import { backgroundOf, backlogOf, describeBackground } from './background';
import { seededStore } from './catalog';
import { command, seedDueOrders } from './orders';
import type { BenchContext, Scenario } from './run';

const PAGES = 20;
const SWEEP = 1000;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const envInt = (name: string, fallback: number) => {
  const n = Number(process.env[name]);
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
};
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** The sides' rates over their rounds (time-weighted), and each side's figures. */
async function measureSides(ctx: BenchContext, label: string, sides: [string, HttpLoad][], after?: () => Promise<unknown>) {
  const measured = new Map<string, Measurement[]>(sides.map(([name]) => [name, []]));
  const rounds = ctx.config.rounds;
  const seconds = Math.max(1, Math.round(ctx.config.seconds / rounds));
  const between: unknown[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [name, load] of sides) {
      const warmupSeconds = r === 0 ? ctx.config.warmupSeconds : Math.min(1, ctx.config.warmupSeconds);
      ctx.log(`background_drain ${name} ${label} (round ${r + 1}/${rounds}): ${warmupSeconds} s warm-up + ${seconds} s`);
      measured.get(name)!.push(await httpLoad(load, { connections: ctx.config.connections, seconds, warmupSeconds, watched: ctx.watched }));
    }
    if (after) between.push(await after());
  }
  const figures: Record<string, { rps: number; rounds_rps: number[]; p99_ms: number; non2xx: number; cpu_server: number | null; cpu_pg: number | null }> = {};
  for (const [name] of sides) {
    const runs = measured.get(name)!;
    const duration = runs.reduce((s, m) => s + m.duration_s, 0);
    figures[name] = {
      rps: round(runs.reduce((s, m) => s + m.rps * m.duration_s, 0) / duration, 1),
      rounds_rps: runs.map((m) => m.rps),
      p99_ms: Math.max(...runs.map((m) => m.latency_ms.p99)),
      non2xx: runs.reduce((s, m) => s + m.non2xx + m.errors + m.timeouts, 0),
      cpu_server: runs.at(-1)!.cpu_percent.server,
      cpu_pg: runs.at(-1)!.cpu_percent.postgres,
    };
  }
  return { figures, last: measured.get(sides[1][0])!.at(-1)!, between };
}

/** Deliveries the bus has done since `since` (consumer and task jobs completed or failed for good). */
async function jobsDone(client: Client, since: Date): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('completed', 'failed') AND created_on >= $1 AND name NOT LIKE '%.job.%'`,
    [since],
  );
  return rows[0].n;
}

export const backgroundDrain: Scenario = {
  name: 'background_drain',
  description: 'feed page of 24 (cached) and whoami, quiet and while the events of 50,000 expired orders drain (consumers, relay, vacuum)',
  async run(ctx) {
    // One connection polls the backlog throughout (a shared server may be short of connections).
    const client = new Client({ connectionString: ctx.databaseUrl, application_name: 'backoffice-bench' });
    await client.connect();
    try {
      return await drain(ctx, client);
    } finally {
      await client.end();
    }
  },
};

async function drain(ctx: BenchContext, client: Client): Promise<Measurement> {
  const orders = envInt('BENCH_BACKLOG_ORDERS', 50_000);
  const timeoutS = envInt('BENCH_DRAIN_TIMEOUT_SECONDS', 1800);
  const store = await seededStore(ctx);
  const feed = (i: number) => `/v1/read/products?store=${store.store_id}&limit=24&projection=feed&page=${(i % PAGES) + 1}`;
  let i = 0;
  const sides: [string, HttpLoad][] = [
    ['whoami_rest', { url: `${ctx.target.url}/v1/read/internal/whoami`, method: 'GET', headers: { ...BROWSER, authorization: `Bearer ${ctx.target.token}` } }],
    ['feed_24', { url: `${ctx.target.url}${feed(0)}`, method: 'GET', headers: BROWSER, paths: () => feed(++i) }],
  ];
  for (const [name, load] of sides) {
    const response = await fetch(load.url, { headers: load.headers });
    if (response.status !== 200) throw new Error(`background_drain: ${name} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  }
  // Quiet means quiet: what earlier scenarios left is let drain first (bounded), and said.
  const settleUntil = Date.now() + 120_000;
  let before = await backgroundOf(client);
  while (backlogOf(before) > 0 && Date.now() < settleUntil) {
    await sleep(1000);
    before = await backgroundOf(client);
  }
  ctx.log(`background_drain: quiet side starts with ${describeBackground(before)}`);
  const quiet = await measureSides(ctx, 'quiet', sides);

  const shop = await seedDueOrders(ctx, orders);
  const started = new Date();
  let expired = 0;
  for (let n = SWEEP; n === SWEEP; ) {
    n = ((await command(ctx, 'order.expire_unpaid', { limit: SWEEP }, shop.token)) as { expired: unknown[] }).expired.length;
    expired += n;
  }
  const producedS = (Date.now() - started.getTime()) / 1000;
  const atProduced = await backgroundOf(client);
  ctx.log(`background_drain: ${expired} orders expired in ${round(producedS, 1)} s; ${describeBackground(atProduced)}`);
  const draining = await measureSides(ctx, 'draining', sides, async () => backlogOf(await backgroundOf(client)));

  // The backlog is measured on until it is empty, or the timeout.
  const deadline = started.getTime() + timeoutS * 1000;
  let now = await backgroundOf(client);
  let lastLog = Date.now();
  while (backlogOf(now) > 0 && Date.now() < deadline) {
    await sleep(1000);
    now = await backgroundOf(client);
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      ctx.log(`background_drain: draining, ${describeBackground(now)}`);
    }
  }
  const drainS = round((Date.now() - started.getTime()) / 1000, 1);
  const drained = backlogOf(now) === 0;
  const deliveries = await jobsDone(client, started);
  const events = expired * 3;
  const ratio = (name: string) => round(draining.figures[name].rps / quiet.figures[name].rps);
  const targets = {
    feed_24_draining_over_quiet: { value: ratio('feed_24'), target: '>= 0.5', pass: ratio('feed_24') >= 0.5 },
    whoami_draining_over_quiet: { value: ratio('whoami_rest'), target: '>= 0.5', pass: ratio('whoami_rest') >= 0.5 },
    backlog_drained_s: { value: drainS, target: `empty within ${timeoutS} s`, pass: drained },
  };
  return {
    ...draining.last,
    rps: draining.figures.feed_24.rps,
    note: 'the row is the feed page of 24 while the backlog drains; quiet and draining sides in extra',
    extra: {
      orders_expired: expired,
      produced_s: round(producedS, 1),
      quiet: quiet.figures,
      draining: draining.figures,
      backlog_after_each_draining_round: draining.between,
      backlog_at_produced: atProduced,
      backlog_left: drained ? 0 : now,
      drain: {
        seconds: drainS,
        empty: drained,
        outbox_events_per_s: round(events / drainS, 1),
        deliveries_done: deliveries,
        deliveries_per_s: round(deliveries / drainS, 1),
      },
      targets,
    },
  };
}
