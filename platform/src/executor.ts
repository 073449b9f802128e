import type { DataSource, EntityManager } from 'typeorm';
import type { CallContext } from './actor';
import { auditInsertSql, auditParams, type AuditLog, type AuditRow } from './audit';
import { AppError, asAppError, forbidden, unauthorized } from './errors';
import { newId } from './ids';
import { errorKinds, type EventDraft, type Operation } from './operation';
import { outboxChannel } from './outbox';
import { resultProblem, validate } from './validation';

/**
 * Runs operations for one subgraph. The order is fixed: credential, scope, input schema, then the
 * handler. A command is one transaction holding its state change, its events and its audit row.
 */
export class OperationExecutor {
  private readonly commitSql: string;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    private readonly audit: AuditLog,
    private readonly log: (line: string) => void = console.error,
  ) {
    const s = `"${schema}"`;
    // Events, audit row and wake-up of the relay in one round trip; pg_notify fires only on commit.
    this.commitSql = `WITH events AS (
        INSERT INTO ${s}.outbox_event (event_id, tenant_id, type, payload, actor_id, request_id)
        SELECT e.id, $7, e.type, e.payload, $11, $12 FROM unnest($8::text[], $9::text[], $10::jsonb[]) AS e(id, type, payload)
        RETURNING 1),
      audit AS (${auditInsertSql(schema)} RETURNING 1)
      SELECT CASE WHEN EXISTS (SELECT 1 FROM events) THEN pg_notify('${outboxChannel(schema)}', '') END AS notified`;
  }

  async execute(operation: Operation, rawInput: unknown, context: CallContext | null): Promise<unknown> {
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
      const input = validate<Record<string, unknown>>(operation.input, rawInput ?? {});
      const result =
        operation.kind === 'command'
          ? await this.dataSource.transaction((db) => this.runCommand(operation, input, context, db, auditRow('ok')))
          : await operation.handler({ input, actor, request_id, db: this.dataSource.manager, emit: noEvents(operation) });
      const problem = resultProblem(operation.result, result);
      if (problem) throw new Error(`${operation.name} produced a result outside its schema: ${problem}`);
      if (operation.kind === 'read') {
        const row = auditRow('ok');
        if (row) this.audit.record(row);
      }
      return result;
    } catch (error) {
      let appError = asAppError(error, request_id, this.log);
      if (!errorKinds(operation).includes(appError.kind)) {
        // An operation answers only with the kinds its contract lists; anything else is our bug.
        appError = asAppError(new Error(`${operation.name} raised ${appError.kind}: ${appError.message}`), request_id, this.log);
      }
      const row = auditRow(appError.kind);
      if (row) this.audit.record(row);
      throw appError;
    }
  }

  private async runCommand(
    operation: Operation,
    input: Record<string, unknown>,
    context: CallContext,
    db: EntityManager,
    audit: AuditRow | null,
  ): Promise<unknown> {
    const events: EventDraft[] = [];
    const result = await operation.handler({
      input,
      actor: context.actor,
      request_id: context.request_id,
      db,
      emit: (type, payload) => {
        if (!operation.events.includes(type)) throw new Error(`${operation.name} may not emit ${type}`);
        events.push({ type, payload });
      },
    });
    if (audit) {
      await db.query(this.commitSql, [
        ...auditParams([audit]),
        audit.tenant_id,
        events.map(() => newId('evt')),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.payload)),
        audit.actor_id,
        audit.request_id,
      ]);
    }
    return result;
  }
}

function noEvents(operation: Operation) {
  return (type: string) => {
    throw new AppError('internal', `${operation.name} is a read and cannot emit ${type}`);
  };
}
