import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { traceSql } from './sql';

/**
 * The process's Prometheus metrics (served at `/metrics` by the gateway and by each subgraph running
 * alone). Every label value is bounded: operation names come from the declarations, subgraph,
 * consumer and job names from the code, outcomes from a fixed set (`ok` or an error kind); a request
 * matching no operation is counted as `unknown`, never by its path.
 */
export const registry = new Registry();

const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

const requests = new Counter({
  name: 'backoffice_requests_total',
  help: 'Requests served by the gateway, by surface (rest, graphql, mcp, other), operation and outcome (ok or the error kind).',
  labelNames: ['surface', 'operation', 'outcome'] as const,
  registers: [registry],
});
const requestSeconds = new Histogram({
  name: 'backoffice_request_duration_seconds',
  help: 'Time to answer a request at the gateway, by surface, operation and outcome.',
  labelNames: ['surface', 'operation', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});
const operationSeconds = new Histogram({
  name: 'backoffice_subgraph_operation_duration_seconds',
  help: 'Time a subgraph took to run an operation (credential, scope, input, handler, commit), by outcome.',
  labelNames: ['subgraph', 'operation', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});
const graphqlPaths = new Counter({
  name: 'backoffice_graphql_path_total',
  help: 'POST /graphql requests by the path that answered them: lane (one fetch to a subgraph in this process, answered as it is) or gateway (Apollo and the query plan).',
  labelNames: ['path'] as const,
  registers: [registry],
});
const consumerDeliveries = new Counter({
  name: 'backoffice_consumer_deliveries_total',
  help: 'Deliveries of events to consumers, by consumer and outcome.',
  labelNames: ['subgraph', 'consumer', 'outcome'] as const,
  registers: [registry],
});
const consumerSeconds = new Histogram({
  name: 'backoffice_consumer_delivery_duration_seconds',
  help: 'Time a consumer took with one delivery.',
  labelNames: ['subgraph', 'consumer', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});
const webhookDeliveries = new Counter({
  name: 'backoffice_webhook_deliveries_total',
  help: 'Webhook deliveries, by subscription and outcome.',
  labelNames: ['subscription', 'outcome'] as const,
  registers: [registry],
});
const webhookSeconds = new Histogram({
  name: 'backoffice_webhook_delivery_duration_seconds',
  help: 'Time one webhook delivery took (the receiver answering or not).',
  labelNames: ['subscription', 'outcome'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});
const jobRuns = new Counter({
  name: 'backoffice_job_runs_total',
  help: 'Runs of scheduled jobs, by outcome (ok, failed).',
  labelNames: ['subgraph', 'job', 'outcome'] as const,
  registers: [registry],
});
const jobSeconds = new Histogram({
  name: 'backoffice_job_run_duration_seconds',
  help: 'Time one run of a job took.',
  labelNames: ['subgraph', 'job', 'outcome'] as const,
  buckets: JOB_BUCKETS,
  registers: [registry],
});
const jobLastRun = new Gauge({
  name: 'backoffice_job_last_run_timestamp_seconds',
  help: 'When a job last finished a run, whatever its outcome (Unix time).',
  labelNames: ['subgraph', 'job'] as const,
  registers: [registry],
});
const jobLastSuccess = new Gauge({
  name: 'backoffice_job_last_success_timestamp_seconds',
  help: 'When a job last finished a run that succeeded (Unix time).',
  labelNames: ['subgraph', 'job'] as const,
  registers: [registry],
});

/** The outcomes each webhook subscription has series for (so a deleted subscription's can be dropped). */
const webhookOutcomes = new Map<string, Set<string>>();

/**
 * What the rest of the system reports. Outcomes are fixed words: `ok` or an error kind for requests
 * and operations; `handled`/`failed` (or another fixed word) for deliveries; `ok`/`failed` for jobs.
 */
export const metrics = {
  /** A request the gateway answered (its onResponse hook). */
  request(surface: string, operation: string, outcome: string, seconds: number): void {
    requests.inc({ surface, operation, outcome });
    requestSeconds.observe({ surface, operation, outcome }, seconds);
  },

  /** Which path answered a POST /graphql (see the gateway's graphql-fast-path/). */
  graphqlPath(path: 'lane' | 'gateway'): void {
    graphqlPaths.inc({ path });
  },

  /** An operation a subgraph ran. */
  subgraphOperation(subgraph: string, operation: string, outcome: string, seconds: number): void {
    operationSeconds.observe({ subgraph, operation, outcome }, seconds);
  },

  /** One delivery of an event to a consumer (`outcome`: `handled`, `failed`, `duplicate`…). */
  consumerDelivery(delivery: { subgraph: string; consumer: string; outcome: string; seconds?: number }): void {
    const labels = { subgraph: delivery.subgraph, consumer: delivery.consumer, outcome: delivery.outcome };
    consumerDeliveries.inc(labels);
    if (delivery.seconds !== undefined) consumerSeconds.observe(labels, delivery.seconds);
  },

  /** One webhook delivery attempt to a subscription (`outcome`: `delivered`, `failed`, `dead`…). */
  webhookDelivery(delivery: { subscription: string; outcome: string; seconds?: number }): void {
    const labels = { subscription: delivery.subscription, outcome: delivery.outcome };
    let outcomes = webhookOutcomes.get(delivery.subscription);
    if (!outcomes) {
      outcomes = new Set();
      webhookOutcomes.set(delivery.subscription, outcomes);
    }
    outcomes.add(delivery.outcome);
    webhookDeliveries.inc(labels);
    if (delivery.seconds !== undefined) webhookSeconds.observe(labels, delivery.seconds);
  },

  /** Drops a deleted subscription's series, so labels do not outlive what they name. */
  forgetWebhookSubscription(subscription: string): void {
    for (const outcome of webhookOutcomes.get(subscription) ?? []) {
      webhookDeliveries.remove({ subscription, outcome });
      webhookSeconds.remove({ subscription, outcome });
    }
    webhookOutcomes.delete(subscription);
  },

  /** One finished run of a scheduled job; takes a `JobRun` with its subgraph as it is. */
  jobRun(run: { subgraph: string; job: string; outcome: string; seconds: number; finishedAt?: Date }): void {
    const labels = { subgraph: run.subgraph, job: run.job };
    jobRuns.inc({ ...labels, outcome: run.outcome });
    jobSeconds.observe({ ...labels, outcome: run.outcome }, run.seconds);
    const at = (run.finishedAt ?? new Date()).getTime() / 1000;
    jobLastRun.set(labels, at);
    if (run.outcome === 'ok') jobLastSuccess.set(labels, at);
  },
};

/** Times one subgraph operation: call the result with its outcome once it is known. */
export function operationTimer(subgraph: string, operation: string): (outcome: string) => void {
  const started = performance.now();
  return (outcome) => metrics.subgraphOperation(subgraph, operation, outcome, (performance.now() - started) / 1000);
}

/* ---- Subgraphs' databases: pool use and outbox backlog, read when scraped ---- */

interface OutboxStats {
  pending: number;
  oldestAgeSeconds: number;
}

interface Watched {
  dataSource: DataSource;
  last?: { at: number; stats: OutboxStats };
  running?: Promise<OutboxStats | null>;
}

const watched = new Map<string, Watched>();

/** A scrape storm meets this cache: the outbox is queried at most once per subgraph every 5 s. */
export const OUTBOX_CACHE_MS = 5000;
/** A scrape waits this long for the outbox query; then it reports the last values (or none). */
const OUTBOX_WAIT_MS = 2000;
/** The backlog is counted up to this many events (the count then reads as this number). */
export const OUTBOX_COUNT_CAP = 100_000;

function outboxQuery(schema: string): string {
  const table = `"${schema}".outbox_event`;
  // Both read the partial index of pending events: the oldest due entry is its first, the count
  // stops at the cap. The statement timeout keeps a slow database from holding a connection.
  return `SET LOCAL statement_timeout = '${OUTBOX_WAIT_MS}ms';
    SELECT (SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE status = 'pending' LIMIT ${OUTBOX_COUNT_CAP}) AS p)::int AS pending,
           coalesce(greatest(0, extract(epoch FROM now() - (SELECT min(next_attempt_at) FROM ${table} WHERE status = 'pending'))), 0)::float8 AS oldest`;
}

function outboxStats(name: string, entry: Watched): Promise<OutboxStats | null> {
  if (entry.last && Date.now() - entry.last.at < OUTBOX_CACHE_MS) return Promise.resolve(entry.last.stats);
  entry.running ??= poolOf(entry.dataSource)
    .query(outboxQuery(name))
    .then(
      (results) => {
        // Two statements, two results (pg's types say one).
        const row = (results as unknown as Array<{ rows: Array<{ pending: number; oldest: number }> }>)[1].rows[0];
        const stats = { pending: row.pending, oldestAgeSeconds: row.oldest };
        entry.last = { at: Date.now(), stats };
        return stats;
      },
      () => entry.last?.stats ?? null,
    )
    .finally(() => (entry.running = undefined));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<OutboxStats | null>((ok) => (timer = setTimeout(() => ok(entry.last?.stats ?? null), OUTBOX_WAIT_MS)));
  return Promise.race([entry.running, late]).finally(() => clearTimeout(timer));
}

function live(): Array<[string, Watched]> {
  return [...watched].filter(([, entry]) => entry.dataSource.isInitialized);
}

const poolGauge = (name: string, help: string, read: (pool: ReturnType<typeof poolOf>) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['subgraph'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [subgraph, entry] of live()) this.set({ subgraph }, read(poolOf(entry.dataSource)));
    },
  });

poolGauge('backoffice_db_pool_connections', "Connections open in a subgraph's pool (busy and idle).", (pool) => pool.totalCount);
poolGauge('backoffice_db_pool_idle_connections', "Idle connections in a subgraph's pool.", (pool) => pool.idleCount);
poolGauge('backoffice_db_pool_waiting_requests', "Queries waiting for a connection of a subgraph's pool.", (pool) => pool.waitingCount);
poolGauge('backoffice_db_pool_max_connections', "Size limit of a subgraph's pool.", (pool) => pool.options.max ?? 10);

const outboxGauge = (name: string, help: string, read: (stats: OutboxStats) => number) =>
  new Gauge({
    name,
    help,
    labelNames: ['subgraph'] as const,
    registers: [registry],
    async collect() {
      const found = await Promise.all(live().map(async ([subgraph, entry]) => [subgraph, await outboxStats(subgraph, entry)] as const));
      this.reset();
      for (const [subgraph, stats] of found) if (stats) this.set({ subgraph }, read(stats));
    },
  });

outboxGauge('backoffice_outbox_pending_events', `Events of a subgraph's outbox not yet delivered (counted up to ${OUTBOX_COUNT_CAP}).`, (s) => s.pending);
outboxGauge(
  'backoffice_outbox_oldest_pending_age_seconds',
  "How long the most overdue pending event of a subgraph's outbox has waited for delivery (since its next_attempt_at; 0 when none is due).",
  (s) => s.oldestAgeSeconds,
);

/**
 * Watches a started subgraph's database: its pool and outbox in the metrics, and (with tracing on)
 * its SQL statements as spans. Returns what stops the watching (on the subgraph's stop).
 */
export function observeSubgraph(name: string, dataSource: DataSource): () => void {
  const entry: Watched = { dataSource };
  watched.set(name, entry);
  if (dataSource.isInitialized) traceSql(poolOf(dataSource), name);
  return () => {
    if (watched.get(name) === entry) watched.delete(name);
  };
}

let defaults = false;

/** The metrics text, with Node's own (event loop, heap, GC, CPU) from the first scrape server on. */
export function exposeDefaultMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry });
}
