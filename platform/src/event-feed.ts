import type { EntityManager } from 'typeorm';
import type { OutboxEvent } from './db/platform-entities';
import { sqlOf } from './db/sql';
import { conditions, sqlText } from './db/where';
import { t } from './schema';
import { INT8_MAX, withinInt8 } from './sort-key';
import { INT8_KEYWORD } from './validation';

/**
 * A position in one subgraph's outbox, `<tx>.<seq>`: every event of transactions up to `tx` (and of
 * `tx` up to `seq`) was read. Only transactions older than the oldest still running are read (the
 * snapshot's xmin), so no event can later commit behind a position already passed.
 */
export const FEED_POSITION = '^[0-9]{1,19}\\.[0-9]{1,19}$';

/** A position as input: the pattern, and both numbers bigints (the feed's statement casts them so). */
export const feedPositionInput = (description: string) =>
  Object.assign(t.string({ pattern: FEED_POSITION, maxLength: 39, description }), { [INT8_KEYWORD]: true });

const POSITION = new RegExp(FEED_POSITION);

/** Is `text` a position the feed takes (as `feedPositionInput` checks)? */
export const isFeedPosition = (text: string): boolean => POSITION.test(text) && text.split('.').every(withinInt8);

/** The largest bigint: a position at `<tx>.<this>` holds all of transaction `tx`. */
const WHOLE = String(INT8_MAX);

const XMIN = 'txid_snapshot_xmin(txid_current_snapshot())';

type FeedRow = Pick<OutboxEvent, 'event_id' | 'type' | 'actor_id' | 'request_id' | 'payload' | 'occurred_at' | 'tx' | 'seq'>;

/**
 * The tenant's events after `after` in commit-safe order, at most `limit`, and the position reached.
 * Without `after`, none and the position of now: what commits from here on.
 */
export async function feedEvents(db: EntityManager, schema: string, tenantId: string, input: { after?: string; type?: string; limit?: number }) {
  const sql = sqlOf(db);
  if (input.after === undefined) {
    const [{ tx }] = await sql.rows<{ tx: string }>(`SELECT (${XMIN} - 1)::text AS tx`);
    return { items: [], position: `${tx}.${WHOLE}` };
  }
  const [tx, seq] = input.after.split('.');
  const where = conditions().add`tenant_id = ${tenantId}`.add`(tx, seq) > (${tx}::bigint, ${seq}::bigint)`.add`tx < ${sqlText(XMIN)}`;
  if (input.type) where.add`type = ${input.type}`;
  const rows = await sql.rows<FeedRow>(
    `SELECT event_id, type, actor_id, request_id, payload, occurred_at, tx, seq FROM "${schema}".outbox_event
     WHERE ${where.sql}
     ORDER BY tx, seq LIMIT ${where.param(input.limit ?? 100)}`,
    where.params,
  );
  const items = rows.map(({ tx, seq, occurred_at, ...event }) => ({ ...event, occurred_at: occurred_at.toISOString(), position: `${tx}.${seq}` }));
  return { items, position: items.at(-1)?.position ?? input.after };
}
