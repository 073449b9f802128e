import type { DataSource, EntityManager } from 'typeorm';
import { eventDraft, type EventDeclaration, type EventDraft, type EventPayload } from '../event';
import { writeEvents, type DomainEvent } from '../outbox';
import { taskCollector, type Enqueue, type QueuedJob, type TaskDefinition } from './task';

/** What a consumer's handler gets: the event, its own subgraph's transaction, and ways to emit and queue. */
export interface ConsumerCall<T = Record<string, unknown>, P extends object = {}> {
  event: DomainEvent & { payload: T };
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
export interface ConsumerDefinition<P extends object = {}> {
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
export function on<E extends EventDeclaration, P extends object = {}>(
  events: E | readonly E[],
  name: string,
  handler: (call: ConsumerCall<EventPayload<E>, P>) => Promise<void>,
  options: { emits?: readonly EventDeclaration[] } = {},
): ConsumerDefinition<P> {
  const list: readonly E[] = Array.isArray(events) ? events : [events as E];
  return { name, events: list.map((e) => e.name), emits: options.emits, handler: handler as ConsumerDefinition<P>['handler'] };
}

/** Declares a consumer whose event types are data: `routes` reads them (see ConsumerDefinition.routes). */
export function routedConsumer<P extends object = {}>(
  name: string,
  routes: (db: EntityManager, ports: Readonly<P>) => Promise<readonly string[]>,
  handler: ConsumerDefinition<P>['handler'],
  options: { emits?: readonly EventDeclaration[] } = {},
): ConsumerDefinition<P> {
  return { name, events: [], routes, emits: options.emits, handler };
}

export const consumerQueue = (subgraph: string, consumer: string) => `${subgraph}.${consumer}`;

/** Where a consumer runs: its subgraph's database, ports and tasks, and the bus's way to queue them. */
export interface ConsumerHost<P extends object = {}> {
  dataSource: DataSource;
  schema: string;
  ports: Readonly<P>;
  tasks: readonly TaskDefinition<never, never>[];
  /** Writes queued tasks in the given transaction. */
  queue(jobs: readonly QueuedJob[], db: EntityManager): Promise<void>;
  log(line: string): void;
}

/**
 * Runs a consumer on one delivery, at most once in effect: the handler's writes, its events, the
 * tasks it queues and the row saying the consumer handled the event commit together; a delivery of
 * an event already handled (a retry after a lost acknowledgement, a republished event) finds that
 * row and does nothing. A failure is recorded in the trail and thrown, so the bus retries it.
 */
export async function handleDelivery<P extends object>(
  host: ConsumerHost<P>,
  consumer: ConsumerDefinition<P>,
  event: DomainEvent,
  attempt: number,
): Promise<{ handled: boolean; events: EventDraft[]; queued: string[] }> {
  const s = `"${host.schema}"`;
  const events: EventDraft[] = [];
  const queued: string[] = [];
  try {
    const handled = await host.dataSource.transaction(async (db) => {
      const fresh = (await db.query(
        `INSERT INTO ${s}.consumer_delivery (consumer, event_id, event_type, attempt, outcome) VALUES ($1, $2, $3, $4, 'handled')
         ON CONFLICT (consumer, event_id) WHERE outcome = 'handled' DO NOTHING RETURNING event_id`,
        [consumer.name, event.event_id, event.type, attempt],
      )) as unknown[];
      if (!fresh.length) return false;
      const tasks = taskCollector(host.schema, host.tasks, `consumer ${consumer.name}`);
      await consumer.handler({
        event,
        db,
        log: host.log,
        ports: host.ports,
        enqueue: tasks.enqueue,
        emit: (declaration, payload) => events.push(eventDraft(`consumer ${consumer.name}`, consumer.emits ?? [], declaration, payload)),
      });
      await writeEvents(db, host.schema, event, events);
      if (tasks.jobs.length) await host.queue(tasks.jobs, db);
      queued.push(...tasks.jobs.map((j) => j.name));
      return true;
    });
    return { handled, events, queued };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    await host.dataSource
      .query(`INSERT INTO ${s}.consumer_delivery (consumer, event_id, event_type, attempt, outcome, error) VALUES ($1, $2, $3, $4, 'failed', $5)`, [
        consumer.name,
        event.event_id,
        event.type,
        attempt,
        message,
      ])
      .catch((trailError: Error) => host.log(`consumer ${consumer.name}: could not record a failure: ${trailError.message}`));
    throw error;
  }
}
