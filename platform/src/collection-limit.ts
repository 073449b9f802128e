import type { EntityManager } from 'typeorm';
import { sqlOf } from './db/sql';
import { conflict } from './errors';

/** A collection that holds at most `max` members: what a result's list of them declares as its `maxItems`. */
export interface CollectionLimit {
  /** The collection in a merchant's words, for the refusal: `SKUs per product`. */
  what: string;
  max: number;
}

/** Refuses (409 conflict, reason `limit_reached`) a collection of `n` members growing by `adding` past its maximum. */
export function assertBelow(limit: CollectionLimit, n: number, adding = 1): void {
  if (n + adding > limit.max) throw conflict(`at most ${limit.max} ${limit.what}`, { reason: 'limit_reached' });
}

/** Orders the writers of one collection until the transaction ends (an advisory lock on its name). */
export async function lockCollection(db: EntityManager, name: string): Promise<void> {
  await sqlOf(db).rows(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [name]);
}

/**
 * `assertBelow` with the count read here: `count` counts the members now (`SELECT count(*)::int AS n
 * …`). The caller already holds the lock that orders the collection's writers (its parent row, locked
 * FOR UPDATE, or `lockCollection`), or names one in `lock`, taken here first, so two writers cannot
 * both pass the count. `adding: 0` checks a member already written in this transaction.
 */
export async function assertRoom(
  db: EntityManager,
  limit: CollectionLimit,
  count: { sql: string; params: readonly unknown[]; adding?: number; lock?: string },
): Promise<void> {
  if (count.lock !== undefined) await lockCollection(db, count.lock);
  const [{ n }] = await sqlOf(db).rows<{ n: number }>(count.sql, count.params);
  assertBelow(limit, n, count.adding);
}
