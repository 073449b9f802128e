import { createHash } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { poolOf } from './data-source';
import { conditions } from './where';
import { type ConnectionInput, type ConnectionPage, type ConnectionQuery, runConnection } from '../connection';

/** A page of a list read, as every paged read answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  total: number;
}

/** A paged read's statement in parts: the rows `SELECT select FROM from WHERE where ORDER BY orderBy`, counted over `from` and `where`. */
export interface PageQuery {
  select: string;
  /** The table and its alias, e.g. `orders.shipping_method m`. */
  from: string;
  where: string;
  orderBy: string;
  params: readonly unknown[];
  /**
   * When a row needs more than the page's select (a join on the page's ids): the statement around
   * the paged one, which it receives as text (e.g. `WITH page AS (${paged}) SELECT … FROM page JOIN …`).
   */
  around?: (paged: string) => string;
}

/**
 * What a handler queries with: plain SQL, each statement's row type named once where it is asked.
 * The type is the caller's claim about its own SELECT list; row types of tables come from the
 * entity declarations (`src/entities.ts`), which the drift test holds to the migrated schema.
 */
export interface Sql {
  rows<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * A statement's rows; one with a name (see `preparedName`) runs as that prepared statement on a
   * pooled connection (outside a transaction): PostgreSQL parses and plans it once per connection.
   */
  statement<T>(statement: NamedStatement): Promise<T[]>;
  /**
   * A read whose text is one of a small fixed set (an entity loader's, a list's shape with its
   * filters as parameters): named by its text and kept prepared, as `statement` runs a named one.
   */
  prepared<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined when there is none. */
  one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** What an UPDATE or DELETE … RETURNING gave back (TypeORM answers those with their rows and a count). */
  returning<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** A statement run for its effect (an INSERT, UPDATE or DELETE without RETURNING, a row lock): nothing is read back. */
  run(sql: string, params?: readonly unknown[]): Promise<void>;
  /** One page of `limit` rows (24 unless given) from page `page` (1 unless given), with the total count. */
  page<T>(query: PageQuery, paging: { limit?: number; page?: number }): Promise<Page<T>>;
  /** One page of a Relay connection (keyset: `connection.ts`), its rows as the nodes. */
  connection<T>(query: ConnectionQuery, input: ConnectionInput): Promise<ConnectionPage<T>>;
}

/** A statement and its parameters; named, it is kept prepared (`Sql.statement`). */
export interface NamedStatement {
  text: string;
  values: readonly unknown[];
  name?: string;
}

/**
 * The name of a statement to keep prepared: one per text. Only for texts from a small fixed set of
 * shapes, since every pooled connection keeps each name it has run.
 */
export const preparedName = (text: string): string => `p_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;

/**
 * Names for statements whose texts depend on what a request asks (a document narrowed to a
 * selection): the first `most` texts are kept prepared, any other runs unnamed, so the statements
 * each pooled connection keeps stay bounded whatever clients send.
 */
export class PreparedTexts {
  private readonly names = new Map<string, string>();

  constructor(private readonly most: number) {}

  /** The text's name, or undefined once `most` other texts are named. */
  name(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.most) {
      name = preparedName(text);
      this.names.set(text, name);
    }
    return name;
  }
}

/** The typed handle over what runs queries: a manager (a command's transaction, or the pool for reads), a DataSource, a query runner. */
/**
 * `list`: the connection an operation answers (its GraphQL field, `Operation.connection`), which its
 * cursors carry so that another list's cursor is refused; the executor gives it to a connection's handler.
 */
export function sqlOf(db: DataSource | (Pick<EntityManager, 'query'> & Partial<Pick<EntityManager, 'connection' | 'queryRunner'>>), list?: string): Sql {
  const rows = <T>(sql: string, params?: readonly unknown[]): Promise<T[]> => db.query(sql, params as unknown[] | undefined);
  const statement = async <T>({ text, values, name }: NamedStatement): Promise<T[]> => {
    // Unnamed, in a transaction (a query runner of its own) or on a handle without a pool: as any statement.
    const source = db instanceof DataSource ? db : db.queryRunner ? undefined : db.connection;
    if (!name || !source) return rows<T>(text, values);
    return (await poolOf(source).query({ name, text, values: values as unknown[] })).rows as T[];
  };
  const prepared = <T>(text: string, params: readonly unknown[] = []) => statement<T>({ name: preparedName(text), text, values: params });
  return {
    rows,
    statement,
    prepared,
    one: async <T>(sql: string, params?: readonly unknown[]) => (await rows<T>(sql, params))[0],
    returning: async <T>(sql: string, params?: readonly unknown[]) => ((await db.query(sql, params as unknown[] | undefined)) as [T[], number])[0],
    run: async (sql: string, params?: readonly unknown[]) => {
      await db.query(sql, params as unknown[] | undefined);
    },
    async page<T>(query: PageQuery, paging: { limit?: number; page?: number }): Promise<Page<T>> {
      const limit = paging.limit ?? 24;
      const page = paging.page ?? 1;
      const values = conditions(query.params);
      const paged = `SELECT ${query.select} FROM ${query.from} WHERE ${query.where} ORDER BY ${query.orderBy} LIMIT ${values.param(limit)} OFFSET ${values.param((page - 1) * limit)}`;
      // The rows and the count are independent: a read asks both at once (two pooled connections).
      const [items, [{ total }]] = await Promise.all([
        rows<T>(query.around ? query.around(paged) : paged, values.params),
        rows<{ total: number }>(`SELECT count(*)::int AS total FROM ${query.from} WHERE ${query.where}`, query.params),
      ]);
      return { items, page, limit, total };
    },
    // A list's statements differ only by which filters, sort and cursors are given: a few shapes each.
    connection: <T>(query: ConnectionQuery, input: ConnectionInput) => {
      if (list === undefined) throw new Error('a connection runs in the handler of an operation declaring `connection`');
      return runConnection<T>(prepared, list, query, input);
    },
  };
}
