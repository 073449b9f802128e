import type { EntityManager } from 'typeorm';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Actor } from './actor';
import { AppError, validationFailed, type ErrorKind } from './errors';
import type { EventDeclaration, EventPayload } from './event';
import type { PortDeclarations } from './ports';
import type { Enqueue } from './bus/task';
import type { Sql } from './db/sql';
import type { ConnectionPage, NodesAsSelected } from './connection';

export type { EventDraft } from './event';

/** Who may call an operation: `public` needs no credential, `internal` a tenant credential. */
export type Access = 'public' | 'internal';

/**
 * What a handler gets: validated input, the actor, a database handle (a transaction for commands),
 * and its subgraph's ports `P`. `E` is the union of the events the operation declares. `A` is its
 * access: the executor admits an internal call only with a credential, so its handler gets an actor.
 */
export interface OperationCall<I, P extends object = Record<never, never>, E extends EventDeclaration = EventDeclaration, A extends Access = Access> {
  input: I;
  // Bracketed so the union (an operation whose access is not known) stays `Actor | null`.
  actor: [A] extends ['internal'] ? Actor : Actor | null;
  request_id: string;
  db: EntityManager;
  /** Typed queries over `db` (same connection, same transaction): rows, one row, a page with its total. */
  sql: Sql;
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
  /**
   * Whether the caller asks the result's field at `path` (names joined by dots: `totalCount`,
   * `edges.node.items`): over GraphQL, what the request selects (fragments included); over REST, MCP
   * and the CLI, which answer the whole result, always. A read skips work nobody asked for with it.
   */
  selects(path: string): boolean;
  /** The client's network address as the gateway saw it (null when unknown): per-address limits of public operations. */
  client_address?: string | null;
  /**
   * A public command names whom it acted for once it knows (an operator logging in): its audit row
   * and events are recorded in that tenant under that actor. Without it a public command records
   * no audit row and may emit no event.
   */
  attribute?(subject: { tenant_id: string; actor_id: string; actor_name: string }): void;
}

/**
 * The one declaration of an operation. The GraphQL field, input validation, REST route, OpenAPI entry
 * and audit all come from it.
 */
export interface Operation<
  I extends TObject = TObject,
  R extends TSchema = TSchema,
  P extends object = Record<never, never>,
  E extends EventDeclaration = EventDeclaration,
  A extends Access = Access,
> {
  /** The reference's name, e.g. `iam.api_key.rotate`. */
  name: string;
  kind: 'command' | 'read';
  /** `public`: no actor, the tenant comes from the input. `internal`: a tenant credential is required. */
  access: A;
  /** The scope the credential must carry; null when any valid credential (or none, if public) will do. */
  scope: string | null;
  summary: string;
  input: I;
  result: R;
  /** The declarations of the events the command may emit (section 6); `emit` takes only these. */
  events: readonly E[];
  /**
   * An admin list as a Relay connection (input from `connectionArgs`, result from `connectionOf`):
   * the GraphQL root field `field` with the input's fields as its arguments. GraphQL only, as every
   * read without a `restPath`: REST, MCP, CLI and SDK keep the reference's paged reads.
   */
  connection?: { field: string };
  /** REST path of a read, below /v1/read (commands are always /v1/commands/<name>); none: GraphQL only. */
  restPath?: string;
  /** Marked deprecated (the reference's versioning rule): every surface says so. */
  deprecated?: boolean;
  /** The operation that replaces a deprecated one: named by every surface (REST's `Link: rel="successor-version"`). */
  successor?: string;
  /**
   * Owner-gated (the reference's word): beyond its scope, only the tenant's owner key (`is_owner`,
   * the key `tenant create` mints) may call it; any other key is refused `forbidden`.
   */
  ownerGated?: boolean;
  /**
   * Answers, success or refusal, no sooner than this many ms after the call began (plus up to a
   * quarter more at random), waiting after its transaction has committed and its connection gone
   * back: for public commands whose time taken must not tell what they found (a login by email).
   */
  minimumAnswerMs?: number;
  /**
   * A repeat with the same input changes nothing and succeeds again (the reference's "idempotent";
   * by state or by key): clients may retry it after a network fault (the SDK does), and MCP says so
   * (`idempotentHint`). Reads always are.
   */
  idempotent?: boolean;
  /** The error kinds it may answer with, when they differ from the defaults of its kind (see `errorKinds`). */
  errors?: readonly ErrorKind[];
  /**
   * Input fields (lists of `{ name, value }`) a read takes in its query string as a family of
   * parameters named by a prefix, never under their own name: `{ options: 'option.' }` reads each
   * `option.color=red` as one item. The REST shim (`queryInput`) and the OpenAPI document follow it.
   */
  queryFamilies?: Record<string, string>;
  /**
   * The item fields a family's parameter fills, when not `name` and `value`: with
   * `{ lines: { name: 'sku_id', value: 'qty' } }`, `line.sku_1=2` is the item `{ sku_id: 'sku_1', qty: 2 }`.
   */
  queryFamilyKeys?: Record<string, FamilyKeys>;
  /**
   * Query parameters it does not declare are accepted and ignored (the reference's read.products:
   * "extra string-valued parameters are accepted"; a storefront link carries `utm_source`). A
   * declared field's own name is still refused when it cannot be read so (`options=color:red`).
   */
  extraQueryAccepted?: boolean;
  /** A last adjustment of the input `queryInput` built from a read's query string (e.g. `facets=all`). */
  fromQuery?(input: Record<string, unknown>): Record<string, unknown>;
  /** Values a list field also takes in the query string, which `fromQuery` turns into its own (`facets: ['all']`): the OpenAPI document lists them. */
  queryValues?: Record<string, readonly string[]>;
  /**
   * Named REST projections of the result: the shim selects the named schema's fields instead of the
   * whole result. The input field `projection` picks one; absent means `full` (the result itself).
   */
  projections?: Record<string, TSchema>;
  /**
   * The read may answer with `PreparedJson` (text rendered at write time): the surfaces of a process
   * that runs its subgraph call it directly, without GraphQL execution, and REST sends the text as is
   * (with its HTTP caching headers). GraphQL callers get the object the text spells.
   */
  prepared?: boolean;
  handler(call: OperationCall<Static<I>, P, E, A>): Promise<Answer<R>>;
}

/** What a handler answers: its result; a `selectedConnectionOf`'s nodes may hold only the fields their page selects. */
type Answer<R extends TSchema> = R extends NodesAsSelected ? (Static<R> extends ConnectionPage<infer N> ? ConnectionPage<Partial<N>> : never) : Static<R>;

/**
 * `defineOperation` for a subgraph with ports: its handlers get `call.ports` typed as declared.
 * `export const defineCatalogOperation = operationDefiner(catalogPorts);`
 */
export function operationDefiner<P extends object>(_ports: PortDeclarations<P>) {
  // Input, result, events and access are inferred from the declaration, then erased: every surface and
  // the executor handle operations alike (the handler's parameter type keeps them apart otherwise).
  return <I extends TObject, R extends TSchema, E extends EventDeclaration = never, A extends Access = Access>(
    operation: Operation<I, R, P, E, A>,
  ): Operation<TObject, TSchema, P> => operation as unknown as Operation<TObject, TSchema, P>;
}

/**
 * Declares an operation (of a subgraph without ports) with its input, result and event types inferred.
 * Erased as `operationDefiner`'s are: sound, since the executor gives the handler only input valid
 * against `input`, and an actor whenever `access` is internal.
 */
export function defineOperation<I extends TObject, R extends TSchema, E extends EventDeclaration = never, A extends Access = Access>(
  operation: Operation<I, R, Record<never, never>, E, A>,
): Operation {
  return operation as unknown as Operation;
}

export { fieldName } from './field-name';

/** `iam.api_key.rotate` → `IamApiKeyRotate`: the stem of its GraphQL type names. */
export function typeStem(operationName: string): string {
  return operationName
    .split(/[._]/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

/** What a surface says of a deprecated operation (null when it is not): the reason, naming its successor. */
export function deprecationNotice(op: Pick<Operation, 'deprecated' | 'successor'>): string | null {
  if (!op.deprecated) return null;
  return `Deprecated by the interface reference${op.successor ? `; use ${op.successor} instead` : ''}.`;
}

/** The refusal of an owner-gated operation called by another key: `forbidden`, naming the scope and the gate. */
export function ownerOnly(op: Pick<Operation, 'name' | 'scope'>): AppError {
  return new AppError(
    'forbidden',
    `${op.name} is owner-gated: only the tenant's owner key may call it (scope ${op.scope ?? 'none'} is not enough)`,
    {
      ...(op.scope ? { scope: op.scope } : {}),
      owner_required: true,
    },
    { reason: 'owner_only' },
  );
}

const COMMAND_ERRORS: readonly ErrorKind[] = ['validation_failed', 'unauthorized', 'forbidden', 'conflict', 'internal'];
const INTERNAL_READ_ERRORS: readonly ErrorKind[] = ['validation_failed', 'unauthorized', 'forbidden', 'internal'];
const PUBLIC_READ_ERRORS: readonly ErrorKind[] = ['validation_failed', 'not_found', 'internal'];

/**
 * The kinds an operation may answer with: its own list, or the reference's list for its kind (an
 * internal read that needs no scope cannot be forbidden). `rate_limited` is added on every surface
 * by the gateway.
 */
export function errorKinds(op: Pick<Operation, 'kind' | 'access' | 'scope' | 'errors'>): readonly ErrorKind[] {
  if (op.errors) return op.errors;
  if (op.kind === 'command') return COMMAND_ERRORS;
  if (op.access === 'public') return PUBLIC_READ_ERRORS;
  return op.scope ? INTERNAL_READ_ERRORS : INTERNAL_READ_ERRORS.filter((kind) => kind !== 'forbidden');
}

/** The item fields a family parameter's name and value fill. */
export interface FamilyKeys {
  name: string;
  value: string;
}

/** A family field's item keys: its own, else `name` and `value`. */
export const familyKeys = (op: Pick<Operation, 'queryFamilyKeys'>, field: string): FamilyKeys =>
  op.queryFamilyKeys?.[field] ?? { name: 'name', value: 'value' };

/** `options`, `option`, `cf`, `options[color]`, `custom_fields[material]`: a family spelled another way. */
function familyLookalike(key: string, families: Record<string, string>): boolean {
  return Object.entries(families).some(([field, prefix]) => [field, prefix.replace(/\.$/, '')].some((stem) => key === stem || key.startsWith(`${stem}[`)));
}

/**
 * A read's query string as its input (REST). Each parameter is an input field of that name (a list
 * field takes comma-separated values, and may repeat) or one of a family (`option.color=red`). Any
 * other is refused, naming it (ignored, `options=color:red` would serve an unfiltered page), unless
 * the read accepts extra parameters: then only what looks like a filter it cannot read is refused (a
 * declared field's own name, a family's name without its dot, a bracketed spelling).
 */
export function queryInput(
  op: Pick<Operation, 'input' | 'queryFamilies' | 'queryFamilyKeys' | 'fromQuery' | 'extraQueryAccepted'>,
  query: Record<string, string | string[]>,
): Record<string, unknown> {
  const fields = op.input.properties as Record<string, { type?: string }>;
  const families = op.queryFamilies ?? {};
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    const family = Object.keys(families).find((field) => key.startsWith(families[field]));
    if (family) {
      const keys = familyKeys(op, family);
      const items = values.map((v) => ({ [keys.name]: key.slice(families[family].length), [keys.value]: v }));
      input[family] = [...((input[family] as unknown[] | undefined) ?? []), ...items];
    } else if (Object.hasOwn(fields, key) && !Object.hasOwn(families, key)) {
      input[key] =
        fields[key].type === 'array'
          ? values
              .flatMap((v) => v.split(','))
              .map((v) => v.trim())
              .filter(Boolean)
          : value;
    } else if (op.extraQueryAccepted && !Object.hasOwn(fields, key) && !familyLookalike(key, families)) {
    } else {
      const known = [...Object.keys(fields).filter((f) => !Object.hasOwn(families, f)), ...Object.values(families).map((p) => `${p}<name>`)];
      throw validationFailed(`unknown query parameter ${key}; this read takes ${known.join(', ') || 'none'}`, { reason: 'unknown_field', field: key });
    }
  }
  return op.fromQuery ? op.fromQuery(input) : input;
}
