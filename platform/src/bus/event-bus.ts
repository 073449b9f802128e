import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../outbox';
import type { Delivery } from './consumer';
import { routeSql } from './routes';
import type { QueuedJob, TaskRetry } from './task';

/** How a consumer's deliveries are retried: 1 s doubling (with jitter) for 12 attempts, then failed. */
export const CONSUMER_RETRY = { retryLimit: 12, retryDelay: 1, retryBackoff: true } as const;

/**
 * Jobs a worker takes at once. A consumer handles its batch in one transaction (see
 * `handleDeliveries`): one delivery per transaction, it could not keep up with the commands producing
 * its events (the bench's events_pipeline measured about 170 events/s against 1,300 commands/s).
 */
const BATCH = 25;

/**
 * Batches of one queue under way at once in a process: a batch mostly waits on round trips, so
 * under load one at a time leaves the consumer behind (see the bench's events_pipeline).
 */
const WORKERS = 4;

/** Runs of a task's batch under way at once (each holds a pool connection only while it writes). */
const TASK_CONCURRENCY = 8;

/** How often an idle worker looks for work; a process's own publications wake its workers at once. */
const POLL_SECONDS = 0.5;

export interface BusOptions {
  url: string;
  log?: (line: string) => void;
  /** Connections the bus keeps (its queues, schedules and maintenance). */
  poolSize?: number;
}

/**
 * The transport between a subgraph's outbox and the consumers and jobs of every subgraph:
 * pg-boss, in PostgreSQL's `pgboss` schema, which belongs to the platform, not to a subgraph.
 *
 * Why pg-boss: the system already needs PostgreSQL and nothing else (`npm start` on an embedded
 * server); its queues are claimed with SKIP LOCKED, so every consumer gets each event once however
 * many instances of its subgraph run; retries with backoff, a trail of job states, cron schedules
 * and singleton queues (one run at a time across processes) come with it. The outbox stays the
 * source of truth: the relay hands each committed event to the queues subscribed to its type.
 */
export class EventBus {
  private readonly boss: PgBoss;
  private readonly log: (line: string) => void;
  private readonly workers = new Map<string, string[]>();

  constructor(options: BusOptions) {
    this.log = options.log ?? console.error;
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: 'pgboss',
      max: options.poolSize ?? 4,
      application_name: 'backoffice-bus',
      // Completed deliveries are kept a week as the trail, then archived by pg-boss's maintenance.
      retentionDays: 7,
    });
    this.boss.on('error', (error: Error) => this.log(`bus: ${error.message}`));
  }

  async start(): Promise<this> {
    await this.boss.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /**
   * Hands committed events to every queue subscribed to their type (one job per queue and event),
   * in one statement for the batch. Returns the ids of events no queue takes. Throws when the jobs
   * could not be written (the relay then tries again: at least once).
   */
  async publish(events: readonly DomainEvent[]): Promise<Set<string>> {
    const types = [...new Set(events.map((e) => e.type))];
    const { rows } = await this.db().executeSql('SELECT event, name FROM pgboss.subscription WHERE event = ANY($1::text[])', [types]);
    const queues = new Map<string, string[]>();
    for (const row of rows as Array<{ event: string; name: string }>) queues.set(row.event, [...(queues.get(row.event) ?? []), row.name]);
    const jobs = events.flatMap((event) => (queues.get(event.type) ?? []).map((name) => ({ name, data: event })));
    if (jobs.length) await this.boss.insert(jobs);
    this.wake(...jobs.map((j) => j.name));
    return new Set(events.filter((e) => !queues.has(e.type)).map((e) => e.event_id));
  }

  /**
   * A consumer's queue, subscribed to its event types (exactly these: a type it no longer takes is
   * unsubscribed). `handle` gets the deliveries of a fetched batch and answers, for each, null or
   * the error that makes pg-boss retry it (alone).
   */
  async consume(queue: string, eventTypes: readonly string[], handle: (deliveries: Delivery[]) => Promise<Array<Error | null>>): Promise<void> {
    await this.boss.createQueue(queue, { name: queue, ...CONSUMER_RETRY });
    const route = routeSql(queue, eventTypes);
    await this.db().executeSql(route.text, route.values);
    await this.work<DomainEvent>(queue, async (jobs) => {
      const errors = await handle(jobs.map((job) => ({ event: job.data, attempt: job.retryCount + 1 })));
      await Promise.all(jobs.map((job, i) => errors[i] && this.fail(queue, job.id, errors[i]!)));
    });
  }

  /** A task's queue: each job is one run, retried as `retry` says; `handle` throwing fails the run. */
  async task(queue: string, retry: TaskRetry, handle: (data: unknown, attempt: number, lastAttempt: boolean) => Promise<void>): Promise<void> {
    const options = { name: queue, retryLimit: retry.limit, retryDelay: retry.delaySeconds, retryBackoff: retry.backoff };
    await this.boss.createQueue(queue, options);
    // An existing queue keeps what it was created with: apply today's policy to jobs queued from now on.
    await this.boss.updateQueue(queue, options);
    // Runs are independent (a webhook send waits on the network): several of a batch at a time.
    await this.work<unknown>(queue, async (jobs) => {
      let next = 0;
      const lane = async () => {
        while (next < jobs.length) {
          const job = jobs[next++];
          const attempt = job.retryCount + 1;
          await handle(job.data, attempt, attempt > retry.limit).catch((error: unknown) => this.fail(queue, job.id, error));
        }
      };
      await Promise.all(Array.from({ length: Math.min(TASK_CONCURRENCY, jobs.length) }, lane));
    });
  }

  /**
   * Writes jobs in the caller's transaction: they exist exactly when it commits. The caller wakes
   * the queues' workers after its commit (`wake`), or they find the jobs on their next poll.
   */
  async queue(jobs: readonly QueuedJob[], db: Pick<EntityManager, 'query'>): Promise<void> {
    await this.boss.insert(jobs as PgBoss.JobInsert[], { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await db.query(text, values) }) } });
  }

  /** Tells this process's workers of these queues to fetch now. */
  wake(...queues: string[]): void {
    for (const queue of new Set(queues)) {
      for (const worker of this.workers.get(queue) ?? []) this.boss.notifyWorker(worker);
    }
  }

  // Jobs are fetched in batches but succeed or fail one by one: a failure is failed explicitly
  // (pg-boss then retries it alone), and completing the batch completes only what is still active.
  private async work<D>(queue: string, handle: (jobs: PgBoss.JobWithMetadata<D>[]) => Promise<void>): Promise<void> {
    const workers: string[] = [];
    for (let i = 0; i < WORKERS; i++) {
      const worker = await this.boss.work<D>(queue, { pollingIntervalSeconds: POLL_SECONDS, batchSize: BATCH, includeMetadata: true }, async (jobs) => {
        await handle(jobs);
        // A full batch means more are waiting: fetch again at once instead of after the polling interval.
        if (jobs.length === BATCH) this.boss.notifyWorker(worker);
      });
      workers.push(worker);
    }
    this.workers.set(queue, workers);
  }

  private async fail(queue: string, id: string, error: unknown): Promise<void> {
    await this.boss.fail(queue, id, { message: error instanceof Error ? error.message : String(error) });
  }

  /**
   * A scheduled job: a singleton queue (one run at a time, whichever process takes it), a cron
   * schedule (pg-boss creates one job per tick whatever the number of processes), no retries (a
   * failed run is logged; the next tick runs it again).
   */
  async schedule(queue: string, cron: string, run: () => Promise<void>): Promise<void> {
    await this.boss.createQueue(queue, { name: queue, policy: 'singleton', retryLimit: 0, expireInSeconds: 15 * 60 });
    await this.boss.schedule(queue, cron);
    const worker = await this.boss.work(queue, { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 }, async () => run());
    this.workers.set(queue, [worker]);
  }

  /** Queues a run of a scheduled job now (the same queue, so still one at a time). */
  async runNow(queue: string): Promise<void> {
    await this.boss.send(queue, {});
    this.wake(queue);
  }

  private db(): PgBoss.Db {
    return (this.boss as unknown as { getDb(): PgBoss.Db }).getDb();
  }
}
