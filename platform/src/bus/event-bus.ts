import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../outbox';
import { backgroundBudget, type BackgroundBudget } from './budget';
import type { Delivery } from './consumer';
import { routeSql } from './routes';
import type { QueuedJob, TaskRetry } from './task';

/** How a consumer's deliveries are retried: 1 s doubling (with jitter) for 12 attempts, then failed. */
export const CONSUMER_RETRY = { retryLimit: 12, retryDelay: 1, retryBackoff: true } as const;

/**
 * Jobs a worker takes at once. A consumer handles its batch in one transaction (see
 * `handleDeliveries`): one delivery per transaction, it could not keep up with the commands producing
 * its events (docs/decisions/background-work.md).
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
  /**
   * Whether this process runs scheduled jobs (default: unless `JOBS=off`). A deployment may keep
   * them to one worker process, and a benchmark off a table it measures.
   */
  jobs?: boolean;
  /**
   * Whether this process works consumers' and tasks' queues (default: unless `CONSUMERS=off`). Off,
   * it still creates and routes them (its relay hands events to them), and worker processes work them.
   */
  consumers?: boolean;
  /** What its batches may take of the process (default: the process's, from the environment). */
  budget?: BackgroundBudget;
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
  private readonly jobs: boolean;
  private readonly consumers: boolean;
  readonly budget: BackgroundBudget;
  /** Batches under way: their queue, and how to let go of them (see `stop`). */
  private readonly running = new Set<{ queue: string; letGo: (error: Error) => void }>();
  private stopping: Promise<void> | null = null;

  constructor(options: BusOptions) {
    this.log = options.log ?? console.error;
    this.jobs = options.jobs ?? process.env.JOBS !== 'off';
    this.consumers = options.consumers ?? process.env.CONSUMERS !== 'off';
    this.budget = options.budget ?? backgroundBudget();
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
    // pg-boss claims a queue's next jobs `ORDER BY priority DESC, created_on, id` over an index on
    // `start_after`: every claim sorted the whole backlog, most of the database's time while one
    // drained (docs/decisions/background-work.md). In that order, a claim reads the first rows and stops.
    // On the partitioned table, so that every queue's partition, now and later, has it.
    const { rows } = await this.db().executeSql(`SELECT to_regclass('pgboss.job_claim_order') IS NOT NULL AS present`, []);
    if (!(rows[0] as { present: boolean }).present)
      await this.retryingDeadlocks(() =>
        this.db().executeSql(
          // Locked: processes starting at once build it once.
          `SELECT pg_advisory_xact_lock(hashtext('backoffice.pgboss.job_claim_order'));
           CREATE INDEX IF NOT EXISTS job_claim_order ON pgboss.job (name, priority DESC, created_on, id) WHERE state < 'active'`,
          [], // no parameters: one simple query, its two statements one transaction
        ),
      );
    return this;
  }

  /**
   * Waits up to 10 s for the batches under way, then pg-boss fails what is still
   * active (to be retried) and closes its pool. A handler still running after that (a call that
   * never answers) would keep its worker's loop, and pg-boss's wait for it, alive for ever, holding
   * the process open: it is let go of, and named. Stopping twice waits for the one stop.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      try {
        await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      } finally {
        const left = new Map<string, number>();
        for (const batch of this.running) left.set(batch.queue, (left.get(batch.queue) ?? 0) + 1);
        if (left.size)
          this.log(
            `bus: stopped while batches were still running, let go of: ${[...left].map(([queue, n]) => `${queue} (${n} batch${n > 1 ? 'es' : ''})`).join(', ')}`,
          );
        for (const batch of this.running) batch.letGo(new Error('the bus has stopped'));
      }
    })();
    return this.stopping;
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
    await this.createQueue(queue, { name: queue, ...CONSUMER_RETRY });
    const route = routeSql(queue, eventTypes);
    await this.db().executeSql(route.text, route.values);
    if (!this.consumers) return;
    await this.work<DomainEvent>(queue, async (jobs) => {
      const errors = await handle(jobs.map((job) => ({ event: job.data, attempt: job.retryCount + 1 })));
      await Promise.all(
        jobs.map((job, i) => {
          const error = errors[i];
          return error && this.fail(queue, job.id, error);
        }),
      );
    });
  }

  /** A task's queue: each job is one run, retried as `retry` says; `handle` throwing fails the run. */
  async task(queue: string, retry: TaskRetry, handle: (data: unknown, attempt: number, lastAttempt: boolean) => Promise<void>): Promise<void> {
    const options = { name: queue, retryLimit: retry.limit, retryDelay: retry.delaySeconds, retryBackoff: retry.backoff };
    await this.createQueue(queue, options);
    // An existing queue keeps what it was created with: apply today's policy to jobs queued from now on.
    await this.boss.updateQueue(queue, options);
    if (!this.consumers) return;
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
    await this.boss.insert(jobs as PgBoss.JobInsert[], {
      db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await db.query(text, values) }) },
    });
  }

  /** The queues this process works (consumers, tasks and scheduled jobs). */
  working(): string[] {
    return [...this.workers.keys()];
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
        await this.tracked(queue, () => this.budget.run(() => handle(jobs)));
        // A full batch means more are waiting: fetch again at once instead of after the polling interval.
        if (jobs.length === BATCH) this.boss.notifyWorker(worker);
      });
      workers.push(worker);
    }
    this.workers.set(queue, workers);
  }

  private async tracked(queue: string, run: () => Promise<void>): Promise<void> {
    let batch!: { queue: string; letGo: (error: Error) => void };
    const letGo = new Promise<never>((_, reject) => (batch = { queue, letGo: reject }));
    this.running.add(batch);
    try {
      await Promise.race([run(), letGo]);
    } finally {
      this.running.delete(batch);
    }
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
    if (!this.jobs) return;
    await this.createQueue(queue, { name: queue, policy: 'singleton', retryLimit: 0, expireInSeconds: 15 * 60 });
    await this.boss.schedule(queue, cron);
    const worker = await this.boss.work(queue, { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 }, async () =>
      this.tracked(queue, () => this.budget.run(run)),
    );
    this.workers.set(queue, [worker]);
  }

  /** Queues a run of a scheduled job now (the same queue, so still one at a time). */
  async runNow(queue: string): Promise<void> {
    await this.boss.send(queue, {});
    this.wake(queue);
  }

  /**
   * pg-boss's createQueue, again after a deadlock: processes starting at once (each subgraph run
   * alone) create their queues (and the claim index) at the same moment, and PostgreSQL may pick one of them to fail.
   */
  private createQueue(queue: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
    return this.retryingDeadlocks(() => this.boss.createQueue(queue, options));
  }

  private async retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
        await new Promise((ok) => setTimeout(ok, 50 * attempt + Math.random() * 100));
      }
    }
  }

  private db(): PgBoss.Db {
    return this.boss.getDb();
  }
}
