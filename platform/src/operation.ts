import type { EntityManager } from 'typeorm';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Actor } from './actor';
import type { ErrorKind } from './errors';
import type { EventDeclaration, EventPayload } from './event';
import type { PortDeclarations } from './ports';
import type { Enqueue } from './bus/task';

export type { EventDraft } from './event';

/**
 * What a handler gets: validated input, the actor, a database handle (a transaction for commands),
 * and its subgraph's ports `P`. `E` is the union of the events the operation declares.
 */
export interface OperationCall<I, P extends object = {}, E extends EventDeclaration = EventDeclaration> {
  input: I;
  actor: Actor | null;
  request_id: string;
  db: EntityManager;
  /**
   * Records one of the operation's declared events; it is written with the command's transaction and
   * delivered after commit. A payload outside the event's schema throws (internal, rolled back).
   */
  emit<V extends E>(event: V, payload: EventPayload<V>): void;
  /**
   * A write whose result the handler does not need (a plain INSERT, UPDATE or DELETE with `$n`
   * parameters, without a WITH clause of its own: it becomes one). Staged
   * writes go to the database in one statement with the events and the audit row; a command that
   * only stages needs a single round trip and no explicit transaction.
   */
  stage(sql: string, params: unknown[]): void;
  /** Queues one of the subgraph's tasks (e.g. a webhook delivery) with the command's transaction. */
  enqueue: Enqueue;
  /**
   * Runs `work` in a transaction of its own that commits before the command goes on: for a step the
   * contract needs visible at once, before slower work (a payment marked as being confirmed while
   * its app verifies it). It records no events; the command's own transaction does.
   */
  separately<T>(work: (db: EntityManager) => Promise<T>): Promise<T>;
  /** How this subgraph reaches what others own (e.g. the catalog's store directory): given at start. */
  ports: Readonly<P>;
}

/**
 * The one declaration of an operation. The GraphQL field, input validation, REST route, OpenAPI entry
 * and audit all come from it.
 */
export interface Operation<I extends TObject = TObject, R extends TSchema = TSchema, P extends object = {}, E extends EventDeclaration = EventDeclaration> {
  /** The reference's name, e.g. `iam.api_key.rotate`. */
  name: string;
  kind: 'command' | 'read';
  /** `public`: no actor, the tenant comes from the input. `internal`: a tenant credential is required. */
  access: 'public' | 'internal';
  /** The scope the credential must carry; null when any valid credential (or none, if public) will do. */
  scope: string | null;
  summary: string;
  input: I;
  result: R;
  /** The declarations of the events the command may emit (section 6); `emit` takes only these. */
  events: readonly E[];
  /** REST path of a read, below /v1/read (commands are always /v1/commands/<name>); none: GraphQL only. */
  restPath?: string;
  deprecated?: boolean;
  /** The error kinds it may answer with, when they differ from the defaults of its kind (see `errorKinds`). */
  errors?: readonly ErrorKind[];
  /**
   * A read's query string as its input, for parameters that do not map one to one onto input fields
   * (e.g. `option.color=red`). Unmapped parameters are dropped. Default: the query as it is.
   */
  fromQuery?(query: Record<string, string | string[]>): Record<string, unknown>;
  /**
   * Named REST projections of the result: the shim selects the named schema's fields instead of the
   * whole result. The input field `projection` picks one; absent means `full` (the result itself).
   */
  projections?: Record<string, TSchema>;
  handler(call: OperationCall<Static<I>, P, E>): Promise<Static<R>>;
}

/**
 * `defineOperation` for a subgraph with ports: its handlers get `call.ports` typed as declared.
 * `export const defineCatalogOperation = operationDefiner(catalogPorts);`
 */
export function operationDefiner<P extends object>(_ports: PortDeclarations<P>) {
  // Input, result and events are inferred from the declaration, then erased: every surface and the
  // executor handle operations alike.
  return <I extends TObject, R extends TSchema, E extends EventDeclaration = never>(operation: Operation<I, R, P, E>): Operation<TObject, TSchema, P> =>
    operation as unknown as Operation<TObject, TSchema, P>;
}

/** Declares an operation (of a subgraph without ports) with its input, result and event types inferred. */
export function defineOperation<I extends TObject, R extends TSchema, E extends EventDeclaration = never>(operation: Operation<I, R, {}, E>): Operation {
  return operation as unknown as Operation;
}

/** `iam.api_key.rotate` → `iam_api_key_rotate`: the GraphQL field of an operation. */
export function fieldName(operationName: string): string {
  return operationName.replace(/\./g, '_');
}

/** `iam.api_key.rotate` → `IamApiKeyRotate`: the stem of its GraphQL type names. */
export function typeStem(operationName: string): string {
  return operationName
    .split(/[._]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

const COMMAND_ERRORS: readonly ErrorKind[] = ['validation_failed', 'unauthorized', 'forbidden', 'conflict', 'internal'];
const INTERNAL_READ_ERRORS: readonly ErrorKind[] = ['validation_failed', 'unauthorized', 'forbidden', 'internal'];
const PUBLIC_READ_ERRORS: readonly ErrorKind[] = ['validation_failed', 'not_found', 'internal'];

/**
 * The kinds an operation may answer with: its own list, or the reference's list for its kind.
 * `rate_limited` is added on every surface by the gateway.
 */
export function errorKinds(op: Pick<Operation, 'kind' | 'access' | 'errors'>): readonly ErrorKind[] {
  if (op.errors) return op.errors;
  if (op.kind === 'command') return COMMAND_ERRORS;
  return op.access === 'public' ? PUBLIC_READ_ERRORS : INTERNAL_READ_ERRORS;
}
