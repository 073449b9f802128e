import { randomInt } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { CallContext } from './actor';
import { auditInsertSql, auditParams, type AuditLog, type AuditRow } from './audit';
import { CommandBatcher, rolledBack, shapeOf, shifted, statementOf, type CommandPart, type CommandWrite } from './command-batcher';
import { poolOf } from './db/data-source';
import { sqlOf } from './db/sql';
import { AppError, asAppError, conflict, forbidden, unauthorized } from './errors';
import { newId } from './ids';
import { eventDraft, type EventDraft } from './event';
import { errorKinds, ownerOnly, type Operation } from './operation';
import { answerSchema } from './connection';
import { resultProblem, validate } from './validation';
import { taskCollector, type QueuedJob, type TaskDefinition } from './bus/task';
import { PreparedJson } from './prepared';
import type { DerivedCopies } from './subgraph';

/** Every field of a result is asked (REST, MCP, the CLI, jobs). */
const all = () => true;

/** A subgraph's declared tasks, and where queued ones are written (the bus), if anywhere. */
export interface TaskHost {
  tasks: readonly TaskDefinition<never, never>[];
  queue: { queue(jobs: readonly QueuedJob[], db: EntityManager): Promise<void>; wake(...queues: string[]): void } | null;
}

/**
 * Runs operations for one subgraph. The order is fixed: credential, scope, input schema, then the
 * handler. A command is atomic: its state change, its events and its audit row commit together.
 */
export class OperationExecutor {
  private readonly platformParts: CommandPart[];
  private readonly batcher: CommandBatcher;
  private readonly derivedTypes: Set<string>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly audit: AuditLog,
    private readonly log: (line: string) => void = console.error,
    /**
     * Called with a command's events once they are committed, before its caller hears back: wakes the
     * relay without a database round trip, and lets the subgraph react in process (e.g. drop a cache).
     */
    private readonly committedEvents: (events: readonly EventDraft[]) => void = () => undefined,
    /** The subgraph's ports, handed to every handler as `call.ports`. */
    private readonly ports: object = {},
    /** The subgraph's tasks and the bus that queues them (none: a command that queues one fails). */
    private readonly tasks: TaskHost = { tasks: [], queue: null },
    /** Copies refreshed in a command's transaction after its writes (see DerivedCopies). */
    private readonly derived?: DerivedCopies,
  ) {
    this.derivedTypes = new Set(derived?.events.map((e) => e.name) ?? []);
    const s = `"${schema}"`;
    this.platformParts = [
      {
        name: 'events',
        sql: `INSERT INTO ${s}.outbox_event (event_id, tenant_id, type, payload, actor_id, request_id)
              SELECT e.id, $7, e.type, e.payload, $11, $12 FROM unnest($8::text[], $9::text[], $10::jsonb[]) AS e(id, type, payload)`,
      },
      { name: 'audit', sql: auditInsertSql(schema) },
    ];
    this.batcher = new CommandBatcher(() => poolOf(dataSource));
  }

  /** `selects`: which fields of the result the caller asks (a GraphQL selection); without it, all of them. */
  async execute(operation: Operation, rawInput: unknown, context: CallContext | null, selects: (path: string) => boolean = all): Promise<unknown> {
    if (!operation.minimumAnswerMs) return this.run(operation, rawInput, context, selects);
    const answerAt = Date.now() + operation.minimumAnswerMs + randomInt(0, Math.floor(operation.minimumAnswerMs / 4) + 1);
    const settle = () => new Promise((resolve) => setTimeout(resolve, Math.max(0, answerAt - Date.now())));
    try {
      const result = await this.run(operation, rawInput, context, selects);
      await settle();
      return result;
    } catch (error) {
      await settle();
      throw error;
    }
  }

  private async run(operation: Operation, rawInput: unknown, context: CallContext | null, selects: (path: string) => boolean): Promise<unknown> {
    if (!context) throw unauthorized('the request carries no valid gateway context');
    const { actor, request_id } = context;
    const auditRow = (outcome: string): AuditRow | null =>
      actor && {
        tenant_id: actor.tenant_id,
        actor_id: actor.api_key_id,
        actor_name: actor.name,
        operation: operation.name,
        outcome,
        request_id,
      };
    try {
      if (operation.access === 'internal' && !actor) throw unauthorized();
      if (operation.scope && actor && !actor.scopes.includes(operation.scope)) throw forbidden(operation.scope);
      if (operation.ownerGated && actor && !actor.is_owner) throw ownerOnly(operation);
      const input = validate<Record<string, unknown>>(operation.input, rawInput ?? {});
      const result =
        operation.kind === 'command'
          ? await this.runCommand(operation, input, context, auditRow('ok'))
          : await operation.handler({
              input,
              actor,
              request_id,
              client_address: context.client_address ?? null,
              selects,
              db: this.dataSource.manager,
              sql: sqlOf(this.dataSource.manager, operation.connection?.field),
              emit: readOnly(operation),
              stage: readOnly(operation),
              enqueue: readOnly(operation),
              separately: readOnly(operation),
              ports: this.ports,
            });
      // A prepared answer was checked against its schema when it was written.
      const problem = result instanceof PreparedJson ? null : resultProblem(answerSchema(operation.result), result);
      if (problem) throw new Error(`${operation.name} produced a result outside its schema: ${problem}`);
      if (operation.kind === 'read') {
        const row = auditRow('ok');
        if (row) this.audit.record(row);
      }
      return result;
    } catch (error) {
      let appError = asAppError(uniqueViolation(error) ?? error, request_id, this.log);
      // rate_limited is every surface's (errorKinds leaves it out): a public command limits its callers too (login codes).
      if (appError.kind !== 'rate_limited' && !errorKinds(operation).includes(appError.kind)) {
        // An operation answers only with the kinds its contract lists; anything else is our bug.
        appError = asAppError(new Error(`${operation.name} raised ${appError.kind}: ${appError.message}`), request_id, this.log);
      }
      const row = auditRow(appError.kind);
      if (row) this.audit.record(row);
      throw appError;
    }
  }

  /**
   * A command chosen as a deadlock's victim, or failing serialization, was rolled back whole (its
   * writes, events, audit row and jobs): it runs again after a short random pause, as the caller
   * would have to. Not when work apart (`separately`) already committed: running it twice would
   * repeat that work, so the caller is told instead.
   */
  private async runCommand(operation: Operation, input: Record<string, unknown>, context: CallContext, actorAudit: AuditRow | null): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const apart = { used: false };
      try {
        return await this.attemptCommand(operation, input, context, actorAudit, apart);
      } catch (error) {
        if (attempt >= COMMAND_ATTEMPTS || apart.used || !lostARace(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, randomInt(10, 50 * attempt)));
      }
    }
  }

  private async attemptCommand(
    operation: Operation,
    input: Record<string, unknown>,
    context: CallContext,
    actorAudit: AuditRow | null,
    apart: { used: boolean },
  ): Promise<unknown> {
    // A public command has no actor until it names one (`attribute`): then its row and events go to that tenant.
    let audit = actorAudit;
    // The runner takes a connection and opens the transaction on the handler's first own query: a
    // command that only stages writes is one statement, atomic on its own, sent straight to the pool.
    const runner = this.dataSource.createQueryRunner();
    // Queries issued at once all wait for the one START TRANSACTION (which itself goes through here).
    let inTransaction = false;
    let opening: Promise<void> | null = null;
    // One connection runs one query at a time: those a handler issues at once (Promise.all) are
    // queued here, in order, rather than on the driver (which deprecates that).
    let queue: Promise<unknown> = Promise.resolve();
    const query = runner.query.bind(runner);
    runner.query = (async (...args: Parameters<typeof query>) => {
      if (/^START TRANSACTION/i.test(args[0])) return query(...args);
      if (!inTransaction) {
        opening ??= runner.startTransaction();
        await opening;
        inTransaction = true;
      }
      const turn = queue.then(() => query(...args));
      queue = turn.catch(() => undefined);
      return turn;
    }) as typeof runner.query;
    const events: EventDraft[] = [];
    const staged: Array<{ sql: string; params: unknown[] }> = [];
    const tasks = taskCollector(this.schema, this.tasks.tasks, operation.name);
    try {
      const result = await operation.handler({
        input,
        actor: context.actor,
        request_id: context.request_id,
        db: runner.manager,
        sql: sqlOf(runner.manager),
        // Only the operation's declared events, each payload checked against its schema.
        emit: (event, payload) => events.push(eventDraft(operation.name, operation.events, event, payload)),
        stage: (sql, params) => staged.push({ sql, params }),
        enqueue: tasks.enqueue,
        // Only before the command's own transaction: one request holding two pooled connections
        // at once can, under load, leave every connection waiting for a second (a deadlock).
        separately: (work) => {
          if (opening) throw new Error(`${operation.name} calls separately() after its own queries: it must come first`);
          apart.used = true;
          return this.dataSource.transaction(work);
        },
        ports: this.ports,
        client_address: context.client_address ?? null,
        // A command's result is small and answered whole.
        selects: all,
        attribute: (subject) => {
          if (actorAudit) throw new Error(`${operation.name}: only a public command names whom it acted for`);
          audit = { ...subject, operation: operation.name, outcome: 'ok', request_id: context.request_id };
        },
      });
      if (!audit && events.length) throw new Error(`${operation.name} emits events without naming whom it acted for (attribute)`);
      if (tasks.jobs.length) {
        if (!this.tasks.queue) throw new Error(`${operation.name} queues a task, but ${this.schema} runs without a bus`);
        // Through the runner: the jobs are written in the command's transaction (opening it).
        await this.tasks.queue.queue(tasks.jobs, runner.manager);
      }
      const params: unknown[] = [
        ...auditParams(audit ? [audit] : []),
        audit?.tenant_id ?? null,
        events.map(() => newId('evt')),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.payload)),
        audit?.actor_id ?? null,
        context.request_id,
      ];
      const parts = staged.map((write, i) => {
        const part = { name: `w${i}`, sql: shifted(write.sql, params.length) };
        params.push(...write.params);
        return part;
      });
      const write: CommandWrite = { shape: shapeOf([...parts, ...this.platformParts], params.length), params };
      const derive = audit && this.derived && events.some((e) => this.derivedTypes.has(e.type)) ? this.derived : null;
      let afterCommit: undefined | (() => void);
      if (derive && audit) {
        // The writes first, then the copies derived from them, in one transaction (opened here if need be).
        await runner.query(write.shape.single.text, params);
        afterCommit = await derive.refresh(runner.manager, events, audit.tenant_id);
        await runner.commitTransaction();
      } else if (inTransaction) {
        await query(write.shape.single.text, params);
        await runner.commitTransaction();
      } else if (write.shape.onlyInserts) {
        await this.batcher.run(write);
      } else {
        await poolOf(this.dataSource).query(statementOf(write));
      }
      afterCommit?.();
      if (events.length) this.committedEvents(events);
      if (tasks.jobs.length) this.tasks.queue?.wake(...tasks.jobs.map((j) => j.name));
      return result;
    } catch (error) {
      if (inTransaction && runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }
}

const COMMAND_ATTEMPTS = 3;

/** Deadlock victim (40P01) or serialization failure (40001): the transaction was rolled back whole. */
function lostARace(error: unknown): boolean {
  const driver = (error as { driverError?: unknown }).driverError ?? error;
  return rolledBack(driver) && ['40P01', '40001'].includes((driver as { code: string }).code);
}

/**
 * Two commands racing for the same unique value (a handle, a code): the loser is told it conflicts,
 * as the check before the write would have told it. The key's values are not echoed.
 */
function uniqueViolation(error: unknown): AppError | null {
  const driver = (error as { driverError?: { code?: string; constraint?: string } }).driverError ?? (error as { code?: string; constraint?: string });
  return driver?.code === '23505'
    ? conflict(`the change conflicts with an existing record (${driver.constraint ?? 'unique key'})`, { reason: 'duplicate' })
    : null;
}

function readOnly(operation: Operation) {
  return () => {
    throw new AppError('internal', `${operation.name} is a read: it cannot emit events or write`);
  };
}
