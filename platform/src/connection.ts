import { validationFailed } from './errors';
import { Type } from '@sinclair/typebox';
import { jsonProblem } from './json-guard';
import { ID_MAX_LENGTH, t, type TObject, type TSchema } from './schema';
import { type SortKeyType, sortKeyFits } from './sort-key';
import { conditions, sqlText } from './db/where';

/**
 * Admin lists as Relay connections (https://relay.dev/graphql/connections.htm): keyset paging over
 * (sort key, id), so a cursor stays right while rows are inserted before or after it, unlike an offset.
 */

/** At most this many edges per page; 24 when neither `first` nor `last` is given. */
export const CONNECTION_MAX_PAGE = 100;
export const CONNECTION_DEFAULT_PAGE = 24;
/** A cursor is short (a sort key and an id, base64url): anything longer is not one of ours. */
export const CURSOR_MAX_LENGTH = 600;

export const ORDER_DIRECTIONS = ['ASC', 'DESC'] as const;
export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];

const named = <S extends TSchema>(schema: S, name: string): S => Object.assign(schema, { 'x-graphql-name': name });
const namedInput = <S extends TSchema>(schema: S, name: string): S => Object.assign(schema, { 'x-graphql-input-name': name });

const pageSize = (edge: string) => t.optional(t.integer({ minimum: 1, maximum: CONNECTION_MAX_PAGE, description: `at most ${CONNECTION_MAX_PAGE} ${edge}` }));
const cursor = (side: string) => t.optional(t.string({ minLength: 1, maxLength: CURSOR_MAX_LENGTH, description: `an opaque cursor: edges ${side} it` }));

/**
 * A connection's arguments: `first`/`after`, `last`/`before`, a typed `filter` and `orderBy` over
 * the given sort fields (values as on the wire, e.g. `created_at`). `node` names the GraphQL types.
 */
export function connectionArgs<F extends TObject, const K extends readonly [string, ...string[]]>(node: string, orderFields: K, filter?: F) {
  return t.object({
    first: pageSize('edges from the start (after `after`)'),
    after: cursor('after'),
    last: pageSize('edges from the end (before `before`)'),
    before: cursor('before'),
    ...(filter ? { filter: t.optional(namedInput(filter, `${node}Filter`)) } : {}),
    orderBy: t.optional(
      namedInput(
        t.object({
          field: t.enum(orderFields, { name: `${node}OrderField` }),
          // One enum for every list (identical in each subgraph, as federation wants a shared enum).
          direction: t.optional(t.enum(ORDER_DIRECTIONS, { default: 'DESC', name: 'OrderDirection' })),
        }),
        `${node}Order`,
      ),
    ),
  });
}

const pageInfo = Object.assign(
  t.object({
    hasNextPage: t.boolean(),
    hasPreviousPage: t.boolean(),
    startCursor: t.nullable(t.string()),
    endCursor: t.nullable(t.string()),
  }),
  { 'x-graphql-name': 'PageInfo', 'x-graphql-shareable': true },
);

/** A connection whose nodes may hold only the fields their page selects (`selectedConnectionOf`); types only. */
declare const nodesAsSelected: unique symbol;
export interface NodesAsSelected {
  readonly [nodesAsSelected]: true;
}

/** `edges { cursor node }`, `pageInfo`, `totalCount` (null when not counted); its edge type named when `name` is given. */
function connectionShape<N extends TSchema>(node: N, name?: string) {
  const edge = t.object({ cursor: t.string(), node });
  return t.object({
    edges: t.array(name ? named(edge, `${name}Edge`) : edge, { maxItems: CONNECTION_MAX_PAGE }),
    pageInfo,
    totalCount: t.nullable(t.integer({ minimum: 0, description: 'every node the filter matches' })),
  });
}

/** The result of a connection of `node` (an entity): its shape above, its types named after `name`. */
export function connectionOf<S extends TObject>(node: S, name: string) {
  return named(connectionShape(node, name), `${name}Connection`);
}

/** Each selected connection's result schema, as its handler's answer is checked (`answerSchema`). */
const answers = new WeakMap<TSchema, TSchema>();

/**
 * A connection whose handler reads only what its page selects (a connection is GraphQL's alone), so
 * its nodes may lack the other fields: its answer is checked with node fields optional, each one
 * present still checked; GraphQL's completion refuses a selected non-null field a node lacks.
 */
export function selectedConnectionOf<S extends TObject>(node: S, name: string) {
  const result = connectionOf(node, name);
  answers.set(result, connectionShape(Type.Partial(node)));
  return result as typeof result & NodesAsSelected;
}

export const answerSchema = (result: TSchema): TSchema => answers.get(result) ?? result;

/** What a connection's handler receives (its validated input). */
export interface ConnectionInput {
  first?: number;
  after?: string;
  last?: number;
  before?: string;
  orderBy?: { field: string; direction?: OrderDirection };
}

/** A sort field: the SQL expression (never null) and the type its cursor value is read back as. */
export interface SortKey {
  sql: string;
  type: SortKeyType;
}

/** A connection's statement in parts; the keyset condition, order and limit are added. */
export interface ConnectionQuery {
  select: string;
  from: string;
  where: string;
  params: readonly unknown[];
  /** The sort fields by name (those `connectionArgs` was given). */
  sorts: Record<string, SortKey>;
  /** The default order when `orderBy` is absent. */
  defaultOrder: { field: string; direction: OrderDirection };
  /** A unique, never-null expression: the tie-break after the sort key (e.g. `o.id`). */
  id: string;
  /** Count the matching rows for `totalCount` (false where that is not cheap: it answers null). */
  count?: boolean;
}

export interface ConnectionPage<R> {
  edges: { cursor: string; node: R }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number | null;
}

/** The list and order a cursor is of, and the type its sort key is read back as. */
export interface CursorOrder {
  list: string;
  field: string;
  direction: OrderDirection;
  type: SortKeyType;
}

/** A cursor names its list and order (a cursor of another would land anywhere), the row's sort value and id. */
export function encodeCursor(order: Pick<CursorOrder, 'list' | 'field' | 'direction'>, key: string, id: string): string {
  return Buffer.from(JSON.stringify([order.list, order.field, order.direction, key, id])).toString('base64url');
}

/** A cursor's five texts, or null when it is none of ours. */
function cursorParts(cursor: string): string[] | null {
  // Node's base64url decoder skips what is not of its alphabet: such text is no cursor, whatever it decodes to.
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const texts = Array.isArray(parsed) && parsed.length === 5 && parsed.every((part) => typeof part === 'string');
  // No cursor of ours holds what PostgreSQL cannot store (U+0000, a lone surrogate).
  return texts && jsonProblem(parsed) === null ? (parsed as string[]) : null;
}

/**
 * The sort key and id of a cursor of this list and order, checked as the list's statement reads them
 * back (a key of the sort's type and range, an id of at most ID_MAX_LENGTH), before any statement
 * runs: anything else is validation_failed naming the argument. A cursor without its list's name
 * (the earlier form) is refused as well.
 */
export function decodeCursor(cursor: string, order: CursorOrder, argument: 'after' | 'before'): { key: string; id: string } {
  const refused = (why: string) => validationFailed(`${argument} ${why}`, { field: argument });
  const parts = cursorParts(cursor);
  if (parts?.[0] !== order.list) throw refused('is not a cursor of this list');
  const [, field, direction, key, id] = parts;
  if (field !== order.field || direction !== order.direction) throw refused(`is a cursor of another order, not of ${order.field} ${order.direction}`);
  if (!sortKeyFits(order.type, key) || id.length < 1 || id.length > ID_MAX_LENGTH) throw refused('is not a cursor of this list');
  return { key, id };
}

interface KeyedRow {
  _cursor_key: string;
  _cursor_id: string;
}

/**
 * Runs a connection: `first` pages forward from `after`, `last` backward from `before` (both bounds
 * may be given); one statement fetches one row more than asked to tell whether more follow.
 * `hasPreviousPage` with `first` (and `hasNextPage` with `last`) says whether a cursor was given, as
 * the Relay specification allows, rather than paying for another query.
 */
export async function runConnection<R>(
  rows: <T>(sql: string, params: readonly unknown[]) => Promise<T[]>,
  list: string,
  query: ConnectionQuery,
  input: ConnectionInput,
): Promise<ConnectionPage<R>> {
  if (input.first !== undefined && input.last !== undefined) throw validationFailed('give first or last, not both');
  const field = input.orderBy?.field ?? query.defaultOrder.field;
  const direction = input.orderBy?.direction ?? (input.orderBy ? 'DESC' : query.defaultOrder.direction);
  const sort = query.sorts[field];
  if (!sort) throw validationFailed(`orderBy.field ${field} is not a sort of this list`);
  const order: CursorOrder = { list, field, direction, type: sort.type };
  const backward = input.last !== undefined;
  const size = input.last ?? input.first ?? CONNECTION_DEFAULT_PAGE;
  const where = conditions(query.params).add`${sqlText(query.where)}`;
  const keyset = sqlText(`(${sort.sql}, ${query.id})`);
  const bound = (cursor: string, argument: 'after' | 'before', beyond: boolean) => {
    const { key, id } = decodeCursor(cursor, order, argument);
    // Rows past the cursor in the list's order: greater when ascending, unless looking before it.
    const greater = (direction === 'ASC') === beyond;
    where.add`${keyset} ${sqlText(greater ? '>' : '<')} (${key}::${sqlText(sort.type)}, ${id})`;
  };
  if (input.after !== undefined) bound(input.after, 'after', true);
  if (input.before !== undefined) bound(input.before, 'before', false);
  const scan = (direction === 'DESC') !== backward ? 'DESC' : 'ASC';
  const statement =
    `SELECT ${query.select}, (${sort.sql})::text AS _cursor_key, (${query.id})::text AS _cursor_id FROM ${query.from} ` +
    `WHERE ${where.sql} ORDER BY ${sort.sql} ${scan}, ${query.id} ${scan} LIMIT ${where.param(size + 1)}`;
  const [found, counted] = await Promise.all([
    rows<R & KeyedRow>(statement, where.params),
    query.count === false ? null : rows<{ total: number }>(`SELECT count(*)::int AS total FROM ${query.from} WHERE ${query.where}`, query.params),
  ]);
  const more = found.length > size;
  const page = found.slice(0, size);
  if (backward) page.reverse();
  const edges = page.map((row) => {
    const { _cursor_key, _cursor_id, ...node } = row;
    return { cursor: encodeCursor(order, _cursor_key, _cursor_id), node: node as R };
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: backward ? input.before !== undefined : more,
      hasPreviousPage: backward ? more : input.after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: counted ? counted[0].total : null,
  };
}

/** The page with each row turned into the node the list declares. */
export function mapNodes<R, N>(page: ConnectionPage<R>, node: (row: R) => N): ConnectionPage<N> {
  return { ...page, edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: node(edge.node) })) };
}
