import type { DataSource, EntityManager } from 'typeorm';
import { eventDraft, type EventDeclaration, type EventPayload } from '../event';
import { writeEvents, type EventContext } from '../outbox';

/** How a task's failed runs are retried by the bus (pg-boss): `delaySeconds` doubling with jitter when `backoff`. */
export interface TaskRetry {
  /** Retries after the first attempt. */
  limit: number;
  delaySeconds: number;
  backoff: boolean;
}

/** Records one of a task's declared events; it is written in the transaction it was emitted in. */
export type TaskEmit = <E extends EventDeclaration>(event: E, payload: EventPayload<E>) => void;

/** What a task's handler gets. */
export interface TaskCall<D, P extends object = Record<never, never>> {
  data: D;
  /** 1 for the first run, then 2, 3 … */
  attempt: number;
  /** No retry follows this run if it fails. */
  lastAttempt: boolean;
  dataSource: DataSource;
  ports: Readonly<P>;
  log(line: string): void;
  /**
   * Runs `work` in one transaction of the task's subgraph; the events it emits are written to the
   * outbox in the same transaction, under `context`'s tenant.
   */
  transaction<T>(context: EventContext, work: (db: EntityManager, emit: TaskEmit) => Promise<T>): Promise<T>;
}

/**
 * One piece of background work with retries (a webhook delivery), queued by a command or a consumer
 * in its own transaction (`call.enqueue`), so it exists exactly when their change commits. Throwing
 * makes the bus run it again after its retry delay.
 */
export interface TaskDefinition<D = unknown, P extends object = Record<never, never>> {
  /** Unique within its subgraph; the queue is `<subgraph>.task.<name>`. */
  name: string;
  /** Fixed, or read from the subgraph's ports when the deployment sets it (method-typed: definitions with ports stay assignable). */
  retry: TaskRetry | { of(ports: P): TaskRetry }['of'];
  /** Events the handler may emit. */
  emits?: readonly EventDeclaration[];
  handler(call: TaskCall<D, P>): Promise<void>;
}

/** Declares a task: `task<{ delivery_id: string }>('webhook.deliver', retry, handler)`. */
export function task<D, P extends object = Record<never, never>>(
  name: string,
  retry: TaskDefinition<D, P>['retry'],
  handler: TaskDefinition<D, P>['handler'],
  options: { emits?: readonly EventDeclaration[] } = {},
): TaskDefinition<D, P> {
  return { name, retry, handler, emits: options.emits };
}

export const taskQueue = (subgraph: string, name: string) => `${subgraph}.task.${name}`;

/** Queues a run of one of the subgraph's declared tasks, with the transaction it is called in. */
export type Enqueue = <D>(task: TaskDefinition<D, never>, data: D, options?: { startAfter?: Date }) => void;

/** A job for the bus: the queue and data pg-boss stores. */
export interface QueuedJob {
  name: string;
  data: unknown;
  startAfter?: Date;
}

/** Collects the tasks a transaction queues; they are written in that transaction before it commits. */
export function taskCollector(subgraph: string, declared: readonly TaskDefinition<never, never>[], caller: string): { enqueue: Enqueue; jobs: QueuedJob[] } {
  const jobs: QueuedJob[] = [];
  const enqueue: Enqueue = (definition, data, options = {}) => {
    if (!declared.includes(definition as TaskDefinition<never, never>))
      throw new Error(`${caller} may not queue ${definition.name}: ${subgraph} does not declare it`);
    jobs.push({ name: taskQueue(subgraph, definition.name), data, startAfter: options.startAfter });
  };
  return { enqueue, jobs };
}

/** The task call's `transaction`: the work and its events commit together. */
export function taskTransaction(
  dataSource: DataSource,
  schema: string,
  caller: string,
  emits: readonly EventDeclaration[],
  committed: () => void,
): TaskCall<unknown>['transaction'] {
  return async (context, work) => {
    const events: ReturnType<typeof eventDraft>[] = [];
    const result = await dataSource.transaction(async (db) => {
      events.length = 0;
      const value = await work(db, (event, payload) => events.push(eventDraft(caller, emits, event, payload)));
      await writeEvents(db, schema, context, events);
      return value;
    });
    if (events.length) committed();
    return result;
  };
}
