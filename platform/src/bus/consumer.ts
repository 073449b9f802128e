import type { DataSource, EntityManager } from 'typeorm';
import { eventDraft, type EventDeclaration, type EventDraft, type EventPayload } from '../event';
import { writeEvents, type DomainEvent } from '../outbox';
import { taskCollector, type Enqueue, type QueuedJob, type TaskDefinition } from './task';
import { sqlOf } from '../db/sql';

/** What a consumer's handler gets: the event, its own subgraph's transaction, and ways to emit and queue. */
export interface ConsumerCall<T = Record<string, unknown>, P extends object = Record<never, never>> {
  event: DomainEvent & { payload: T };
  /** Which delivery of the event this is, from 1 (the bus retries a failed one with backoff). */
  attempt: number;
  /** The consumer's subgraph's transaction: its writes commit with the record that it handled the event. */
  db: EntityManager;
  /** Records one of the consumer's declared events, written in the same transaction. */
  emit<E extends EventDeclaration>(event: E, payload: EventPayload<E>): void;
  /** Queues one of its subgraph's tasks in the same transaction. */
  enqueue: Enqueue;
  ports: Readonly<P>;
  log(line: string): void;
}

/** A reaction of one subgraph to events of any subgraph. */
export interface ConsumerDefinition<P extends object = Record<never, never>> {
  /** Unique within its subgraph; the queue is `<subgraph>.<name>`. */
  name: string;
  /** The event types it takes. */
  events: readonly string[];
  /**
   * When the types it takes are data (what merchants subscribed webhooks to) rather than code: read
   * when the subgraph starts; a command changing them calls `routeConsumer` in its transaction.
   */
  routes?(db: EntityManager, ports: Readonly<P>): Promise<readonly string[]>;
  /** Events the handler may emit. */
  emits?: readonly EventDeclaration[];
  handler(call: ConsumerCall<Record<string, unknown>, P>): Promise<void>;
}

/**
 * Declares a consumer of events of any subgraph, by their declarations (the payload is typed):
 * `on(orderPaid, 'send-receipt', handler)`.
 */
export function on<E extends EventDeclaration, P extends object = Record<never, never>>(
  events: E | readonly E[],
  name: string,
  handler: (call: ConsumerCall<EventPayload<E>, P>) => Promise<void>,
  options: { emits?: readonly EventDeclaration[] } = {},
): ConsumerDefinition<P> {
  const list: readonly E[] = Array.isArray(events) ? events : [events as E];
  return { name, events: list.map((e) => e.name), emits: options.emits, handler: handler as ConsumerDefinition<P>['handler'] };
}

/** Declares a consumer whose event types are data: `routes` reads them (see ConsumerDefinition.routes). */
export function routedConsumer<P extends object = Record<never, never>>(
  name: string,
  routes: (db: EntityManager, ports: Readonly<P>) => Promise<readonly string[]>,
  handler: ConsumerDefinition<P>['handler'],
  options: { emits?: readonly EventDeclaration[] } = {},
): ConsumerDefinition<P> {
  return { name, events: [], routes, emits: options.emits, handler };
}

export const consumerQueue = (subgraph: string, consumer: string) => `${subgraph}.${consumer}`;

/** Where a consumer runs: its subgraph's database, ports and tasks, and the bus's way to queue them. */
export interface ConsumerHost<P extends object = Record<never, never>> {
  dataSource: DataSource;
  schema: string;
  ports: Readonly<P>;
  tasks: readonly TaskDefinition<never, never>[];
  /** Writes queued tasks in the given transaction. */
  queue(jobs: readonly QueuedJob[], db: EntityManager): Promise<void>;
  log(line: string): void;
}

/** One delivery of an event to a consumer; `attempt` counts from 1. */
export interface Delivery {
  event: DomainEvent;
  attempt: number;
}

/** What became of one delivery: handled now, handled before (a repeat), or failed with this error. */
export type DeliveryOutcome = 'handled' | 'duplicate' | Error;

/**
 * Runs a consumer on a batch of deliveries, each at most once in effect: a delivery's handler
 * writes, events and queued tasks commit together with the row saying the consumer handled its
 * event; a delivery of an event already handled (a retry after a lost acknowledgement, a
 * republished event) finds that row and does nothing.
 *
 * The batch is tried in one transaction (one commit and one statement of trail rows for all: what
 * lets a consumer keep up with the commands producing its events); if any delivery fails, that
 * transaction rolls back and the batch runs again in one transaction with a savepoint around each
 * delivery, so a failing one fails by itself and the others still commit together (rather than a
 * transaction each: a batch of 25 with one failure cost 26 commits).
 * Failures are recorded in the trail; the caller fails them on the bus, which retries each alone.
 */
export async function handleDeliveries<P extends object>(
  host: ConsumerHost<P>,
  consumer: ConsumerDefinition<P>,
  deliveries: readonly Delivery[],
): Promise<{ outcomes: DeliveryOutcome[]; events: number; queued: string[] }> {
  try {
    return await host.dataSource.transaction((db) => handleIn(db, host, consumer, deliveries));
  } catch (error) {
    // One of them failed: each apart (one alone has its outcome).
    if (deliveries.length === 1) {
      const outcomes = [error instanceof Error ? error : new Error(String(error))];
      await recordFailures(host, consumer, deliveries, outcomes);
      return { outcomes, events: 0, queued: [] };
    }
  }
  let handled: { outcomes: DeliveryOutcome[]; events: number; queued: string[] };
  try {
    handled = await host.dataSource.transaction((db) => handleApart(db, host, consumer, deliveries));
  } catch (error) {
    // The transaction itself failed (the connection, the commit): none of them is handled.
    const failure = error instanceof Error ? error : new Error(String(error));
    handled = { outcomes: deliveries.map(() => failure), events: 0, queued: [] };
  }
  await recordFailures(host, consumer, deliveries, handled.outcomes);
  return handled;
}

/** Each delivery behind a savepoint of the one transaction: a failure rolls back its own writes, events and tasks only. */
async function handleApart<P extends object>(
  db: EntityManager,
  host: ConsumerHost<P>,
  consumer: ConsumerDefinition<P>,
  deliveries: readonly Delivery[],
): Promise<{ outcomes: DeliveryOutcome[]; events: number; queued: string[] }> {
  const tasks = taskCollector(host.schema, host.tasks, `consumer ${consumer.name}`);
  const outcomes: DeliveryOutcome[] = [];
  let events = 0;
  for (const delivery of deliveries) {
    const queuedBefore = tasks.jobs.length;
    await db.query('SAVEPOINT delivery');
    try {
      const one = await handleIn(db, host, consumer, [delivery], tasks);
      await db.query('RELEASE SAVEPOINT delivery');
      outcomes.push(one.outcomes[0]);
      events += one.events;
    } catch (error) {
      await db.query('ROLLBACK TO SAVEPOINT delivery');
      tasks.jobs.length = queuedBefore;
      outcomes.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  if (tasks.jobs.length) await host.queue(tasks.jobs, db);
  return { outcomes, events, queued: tasks.jobs.map((j) => j.name) };
}

/**
 * The deliveries in the given transaction: all handled, or the first failure is thrown. Tasks go to
 * `tasks` when given (the caller queues them), else are queued here.
 */
async function handleIn<P extends object>(
  db: EntityManager,
  host: ConsumerHost<P>,
  consumer: ConsumerDefinition<P>,
  deliveries: readonly Delivery[],
  given?: ReturnType<typeof taskCollector>,
): Promise<{ outcomes: DeliveryOutcome[]; events: number; queued: string[] }> {
  const fresh = new Set(
    (
      await sqlOf(db).rows<{ event_id: string }>(
        `INSERT INTO "${host.schema}".consumer_delivery (consumer, event_id, event_type, attempt, outcome)
         SELECT $1, d.event_id, d.event_type, d.attempt, 'handled' FROM unnest($2::text[], $3::text[], $4::int[]) AS d(event_id, event_type, attempt)
         ON CONFLICT (consumer, event_id) WHERE outcome = 'handled' DO NOTHING RETURNING event_id`,
        [consumer.name, deliveries.map((d) => d.event.event_id), deliveries.map((d) => d.event.type), deliveries.map((d) => d.attempt)],
      )
    ).map((row) => row.event_id),
  );
  const tasks = given ?? taskCollector(host.schema, host.tasks, `consumer ${consumer.name}`);
  const outcomes: DeliveryOutcome[] = [];
  let events = 0;
  for (const { event, attempt } of deliveries) {
    // A second copy of one event in the batch counts once.
    if (!fresh.delete(event.event_id)) {
      outcomes.push('duplicate');
      continue;
    }
    const drafts: EventDraft[] = [];
    await consumer.handler({
      event,
      attempt,
      db,
      log: host.log,
      ports: host.ports,
      enqueue: tasks.enqueue,
      emit: (declaration, payload) => drafts.push(eventDraft(`consumer ${consumer.name}`, consumer.emits ?? [], declaration, payload)),
    });
    await writeEvents(db, host.schema, event, drafts);
    events += drafts.length;
    outcomes.push('handled');
  }
  if (!given && tasks.jobs.length) await host.queue(tasks.jobs, db);
  return { outcomes, events, queued: tasks.jobs.map((j) => j.name) };
}

async function recordFailures<P extends object>(
  host: ConsumerHost<P>,
  consumer: ConsumerDefinition<P>,
  deliveries: readonly Delivery[],
  outcomes: DeliveryOutcome[],
): Promise<void> {
  const failures = deliveries.flatMap((d, i) => {
    const outcome = outcomes[i];
    return outcome instanceof Error ? [{ ...d, error: outcome }] : [];
  });
  if (!failures.length) return;
  await sqlOf(host.dataSource)
    .run(
      `INSERT INTO "${host.schema}".consumer_delivery (consumer, event_id, event_type, attempt, outcome, error)
       SELECT $1, f.event_id, f.event_type, f.attempt, 'failed', f.error FROM unnest($2::text[], $3::text[], $4::int[], $5::text[]) AS f(event_id, event_type, attempt, error)`,
      [
        consumer.name,
        failures.map((f) => f.event.event_id),
        failures.map((f) => f.event.type),
        failures.map((f) => f.attempt),
        failures.map((f) => f.error.message.slice(0, 500)),
      ],
    )
    .catch((trailError: Error) => host.log(`consumer ${consumer.name}: could not record a failure: ${trailError.message}`));
}
