import type { DataSource, EntityManager } from 'typeorm';
import { poolOf } from './db/data-source';
import type { OutboxEvent } from './db/platform-entities';
import { sqlOf } from './db/sql';
import { conditions } from './db/where';
import { newId } from './ids';
import type { BackgroundBudget } from './bus/budget';

/** The envelope every delivered event has; `payload` is the event's own shape. */
export interface DomainEvent {
  event_id: string;
  type: string;
  tenant_id: string;
  occurred_at: string;
  actor_id: string | null;
  request_id: string | null;
  payload: Record<string, unknown>;
}

/** Somewhere events go after commit. Throwing makes the relay try again later. */
export type EventSink = (event: DomainEvent) => Promise<void>;

/**
 * Hands a batch of committed events on (to the bus); resolves with the ids of those nobody takes.
 * Throwing makes the relay try the whole batch again later.
 */
export type EventPublisher = (events: readonly DomainEvent[]) => Promise<Set<string>>;

export interface RelayOptions {
  batchSize?: number;
  maxAttempts?: number;
  /** Delay before attempt n+1, in ms. Default: 1s, 2s, 4s … capped at one hour. */
  backoffMs?: (attempt: number) => number;
  pollMs?: number;
  /**
   * How long commits may gather before the relay claims their events: under load one claim and one
   * delivered-mark serve many events instead of a few (default 50 ms).
   */
  gatherMs?: number;
  /** How long a subscriber may take with one event before the attempt counts as failed. */
  sinkTimeoutMs?: number;
  log?: (line: string) => void;
  /** Where events go beside in-process sinks: the bus. Without either, an event is `unrouted`. */
  publisher?: EventPublisher | null;
  /** Whose pauses its batches keep (the bus's budget: they yield to requests as consumers do); none: they run back to back. */
  budget?: BackgroundBudget | null;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`subscriber took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const defaultBackoff = (attempt: number) => Math.min(1000 * 2 ** (attempt - 1), 3_600_000);

/**
 * Delivers a subgraph's outbox after commit. The executor wakes it once a command with events has
 * committed (in process: pg_notify would serialise every commit), and it polls, so events of another
 * process or of before a crash are delivered too. Rows are claimed with a lease (SKIP LOCKED), so
 * several relays may run.
 */
export class OutboxRelay {
  private readonly sinks: EventSink[] = [];
  private poller: NodeJS.Timeout | null = null;
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly options: Required<RelayOptions>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    options: RelayOptions = {},
  ) {
    this.options = {
      batchSize: 200,
      maxAttempts: 12,
      backoffMs: defaultBackoff,
      pollMs: 1000,
      gatherMs: 50,
      sinkTimeoutMs: 30_000,
      log: console.error,
      publisher: null,
      budget: null,
      ...options,
    };
  }

  subscribe(sink: EventSink): () => void {
    this.sinks.push(sink);
    return () => this.sinks.splice(this.sinks.indexOf(sink) >>> 0, 1);
  }

  start(): void {
    this.poller = setInterval(() => this.kick(), this.options.pollMs);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    await this.draining;
  }

  private wakeTimer: NodeJS.Timeout | null = null;

  /**
   * A commit brought new events: deliver them within `gatherMs`. Commits arriving meanwhile share
   * the claim, instead of one claim per command.
   */
  wake(): void {
    this.wakeTimer ??= setTimeout(() => {
      this.wakeTimer = null;
      void this.kick();
    }, this.options.gatherMs);
  }

  /** Delivers whatever is due; resolves when the outbox has nothing due left. */
  kick(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        while (!this.stopped && (await this.batch()) === this.options.batchSize);
        // Commits came while delivering: let more gather before claiming them together.
        if (this.again && !this.stopped) await new Promise((ok) => setTimeout(ok, this.options.gatherMs));
      } while (this.again && !this.stopped);
    })()
      .catch((error: Error) => this.options.log(`relay ${this.schema}: ${error.message}`))
      .finally(() => (this.draining = null));
    return this.draining;
  }

  private batch(): Promise<number> {
    const { budget } = this.options;
    return budget ? budget.run(() => this.deliverBatch()) : this.deliverBatch();
  }

  private async deliverBatch(): Promise<number> {
    if (!this.dataSource.isInitialized) return 0;
    const s = `"${this.schema}"`;
    const pool = poolOf(this.dataSource);
    const claim = claimStatement(this.schema, this.options.batchSize, this.options.maxAttempts);
    // One round trip: the two statements of one query string are one implicit transaction. pg answers
    // such a text with one result per statement, which its types (one result) do not say.
    const results = (await pool.query(`${claim.setting}; ${claim.text}`)) as unknown as Array<{ rows: Array<Record<string, unknown>> }>;
    const { rows } = results[1];
    const due = rows.length ? (rows[0].due as number) : 0;
    const claimed = rows.filter((row) => row.event_id !== null);
    claimed.sort((a, b) => String(a.event_id).localeCompare(String(b.event_id)));
    const passed: Array<[DomainEvent, number]> = [];
    const failed = async (event: DomainEvent, attempt: number, error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const dead = attempt >= this.options.maxAttempts;
      await pool.query(
        `WITH failed AS (UPDATE ${s}.outbox_event SET status = $3, lease_until = NULL, last_error = $4,
                           next_attempt_at = now() + ($5::int * interval '1 millisecond') WHERE event_id = $1)
         INSERT INTO ${s}.event_delivery_attempt (event_id, attempt, outcome, error) VALUES ($1, $2, 'failed', $4)`,
        [event.event_id, attempt, dead ? 'dead' : 'pending', message.slice(0, 500), this.options.backoffMs(attempt)],
      );
    };
    for (const row of claimed) {
      const event: DomainEvent = {
        event_id: row.event_id as string,
        type: row.type as string,
        tenant_id: row.tenant_id as string,
        occurred_at: (row.occurred_at as Date).toISOString(),
        actor_id: (row.actor_id as string | null) ?? null,
        request_id: (row.request_id as string | null) ?? null,
        payload: row.payload as Record<string, unknown>,
      };
      const attempt = row.attempts as number;
      try {
        for (const sink of [...this.sinks]) await withTimeout(sink(event), this.options.sinkTimeoutMs);
        passed.push([event, attempt]);
      } catch (error) {
        await failed(event, attempt, error);
      }
    }
    let delivered = passed;
    let unrouted = new Set(this.sinks.length ? [] : passed.map(([event]) => event.event_id));
    const { publisher } = this.options;
    if (publisher && passed.length) {
      try {
        const nobody = await withTimeout(publisher(passed.map(([event]) => event)), this.options.sinkTimeoutMs);
        // Taken by an in-process sink, an event is delivered even when no queue takes it.
        unrouted = new Set([...nobody].filter((id) => unrouted.has(id)));
      } catch (error) {
        for (const [event, attempt] of passed) await failed(event, attempt, error);
        delivered = [];
      }
    }
    // The batch's outcomes in one statement: under load, one write per event would fall behind.
    if (delivered.length) {
      await pool.query(
        `WITH done AS (UPDATE ${s}.outbox_event o SET status = d.status, delivered_at = now(), lease_until = NULL, last_error = NULL
                       FROM unnest($1::text[], $3::text[]) AS d(id, status) WHERE o.event_id = d.id)
         INSERT INTO ${s}.event_delivery_attempt (event_id, attempt, outcome)
         SELECT id, n, status FROM unnest($1::text[], $2::int[], $3::text[]) AS d(id, n, status)`,
        [delivered.map(([e]) => e.event_id), delivered.map(([, n]) => n), delivered.map(([e]) => (unrouted.has(e.event_id) ? 'unrouted' : 'delivered'))],
      );
    }
    return due;
  }
}

/**
 * The relay's claim: due events in (next_attempt_at, seq) order, up to a batch, leased; one whose
 * every attempt ran out its lease (the process died mid-delivery) is dead instead of claimed.
 * Bitmap scans are off for it (`setting`, local to its transaction): the index holds the entries of
 * events delivered since the last vacuum, which a bitmap scan visits in the heap on every claim,
 * while an ordinary index scan marks them dead once and stops at the batch. The batch size and the
 * attempt cap are numbers of ours, written into the text.
 */
export function claimStatement(schema: string, batchSize: number, maxAttempts: number) {
  const s = `"${schema}"`;
  const max = Math.trunc(maxAttempts);
  return {
    setting: 'SET LOCAL enable_bitmapscan = off',
    text: `WITH due AS (
         SELECT seq, attempts FROM ${s}.outbox_event
         WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at, seq LIMIT ${Math.trunc(batchSize)} FOR UPDATE SKIP LOCKED),
       expired AS (
         UPDATE ${s}.outbox_event o SET status = 'dead', lease_until = NULL, last_error = coalesce(o.last_error, 'delivery never completed')
         FROM due WHERE o.seq = due.seq AND due.attempts >= ${max}),
       claimed AS (
         UPDATE ${s}.outbox_event o SET lease_until = now() + interval '60 seconds', attempts = o.attempts + 1
         FROM due WHERE o.seq = due.seq AND due.attempts < ${max}
         RETURNING o.event_id, o.type, o.tenant_id, o.occurred_at, o.actor_id, o.request_id, o.payload, o.attempts)
       -- One row even when nothing was claimed: how many were due tells whether more are waiting.
       SELECT (SELECT count(*) FROM due)::int AS due, c.* FROM (SELECT 1) AS one LEFT JOIN claimed c ON true`,
  };
}

/** A page of one subgraph's outbox for a tenant, newest first, with each event's delivery state. */
export async function listEvents(
  db: EntityManager,
  schema: string,
  tenantId: string,
  filter: { type?: string; status?: string; limit?: number; page?: number },
) {
  const where = conditions().add`tenant_id = ${tenantId}`;
  if (filter.type) where.add`type = ${filter.type}`;
  if (filter.status) where.add`status = ${filter.status}`;
  const columns = [
    'event_id',
    'type',
    'actor_id',
    'request_id',
    'payload',
    'occurred_at',
    'status',
    'attempts',
    'next_attempt_at',
    'delivered_at',
    'last_error',
  ] as const;
  const page = await sqlOf(db).page<Pick<OutboxEvent, (typeof columns)[number]>>(
    { select: columns.join(', '), from: `"${schema}".outbox_event`, where: where.sql, orderBy: 'seq DESC', params: where.params },
    filter,
  );
  return {
    ...page,
    items: page.items.map((r) => ({
      ...r,
      occurred_at: r.occurred_at.toISOString(),
      next_attempt_at: r.status === 'pending' ? r.next_attempt_at.toISOString() : null,
      delivered_at: r.delivered_at?.toISOString() ?? null,
    })),
  };
}

/** Whose events a consumer or task writes: the tenant, and the actor and request they follow from. */
export interface EventContext {
  tenant_id: string;
  actor_id?: string | null;
  request_id?: string | null;
}

/** Writes events to a subgraph's outbox in the caller's transaction (commands batch theirs with their writes instead). */
export async function writeEvents(
  db: EntityManager,
  schema: string,
  context: EventContext,
  events: readonly { type: string; payload: Record<string, unknown> }[],
): Promise<void> {
  if (!events.length) return;
  await sqlOf(db).run(
    `INSERT INTO "${schema}".outbox_event (event_id, tenant_id, type, payload, actor_id, request_id)
     SELECT e.id, $1, e.type, e.payload, $2, $3 FROM unnest($4::text[], $5::text[], $6::jsonb[]) AS e(id, type, payload)`,
    [
      context.tenant_id,
      context.actor_id ?? null,
      context.request_id ?? null,
      events.map(() => newId('evt')),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.payload)),
    ],
  );
}
