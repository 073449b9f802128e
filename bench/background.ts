/**
 * What the database is still busy with when a scenario starts: events the relays have not handed on,
 * jobs the consumers and tasks have not done, and autovacuum at work, with the dead rows it has
 * ahead of it. `npm run bench` reports it at the start of every scenario, so that one scenario's
 * aftermath (an expiry's 150,000 events, the vacuum of the tables it changed) never weighs unseen
 * on the next one's figures; the backlog scenario reads it to follow its drain.
 */
import { Client } from 'pg';

const SUBGRAPHS = ['identity', 'catalog', 'orders', 'content'] as const;
/** The tables with the most dead rows, named in the report. */
const DEAD_TABLES = 5;

export interface Background {
  /** Outbox events not yet handed to the bus, per subgraph (only those with any). */
  outbox_pending: Record<string, number>;
  /** Bus jobs not yet done (created, retry or active), per queue (only those with any). */
  jobs_waiting: Record<string, number>;
  /** Age in seconds of the oldest job not yet done: how far behind the consumers are. */
  oldest_job_s: number | null;
  /** Autovacuum workers at work on this database (the table each names) and on others. */
  autovacuum: { here: string[]; elsewhere: number };
  /** The tables of this database with the most dead rows: dead, live. */
  dead_tuples: Record<string, [number, number]>;
}

/** Outbox events and bus jobs still to go: zero when the background has nothing left to do. */
export const backlogOf = (b: Background) =>
  Object.values(b.outbox_pending).reduce((s, n) => s + n, 0) + Object.values(b.jobs_waiting).reduce((s, n) => s + n, 0);

/**
 * Reads it in one connection (a few catalog and count queries; the outbox counts use the relay's
 * pending index): a connection of its own for a URL, or the given one (a scenario polling it).
 */
export async function backgroundOf(database: string | Client): Promise<Background> {
  const client = typeof database === 'string' ? new Client({ connectionString: database, application_name: 'backoffice-bench' }) : database;
  if (typeof database === 'string') await client.connect();
  try {
    const outbox = await client.query<{ schema: string; n: number }>(
      SUBGRAPHS.map((s) => `SELECT '${s}' AS schema, count(*)::int AS n FROM "${s}".outbox_event WHERE status = 'pending'`).join(' UNION ALL '),
    );
    // The bus's schema exists once a process has started it.
    const { rows: bus } = await client.query<{ present: boolean }>(`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`);
    const jobs = bus[0].present
      ? await client.query<{ name: string; n: number; oldest_s: number | null }>(
          `SELECT name, count(*)::int AS n, extract(epoch FROM now() - min(created_on))::float8 AS oldest_s
           FROM pgboss.job WHERE state IN ('created', 'retry', 'active') GROUP BY name ORDER BY name`,
        )
      : { rows: [] };
    const vacuum = await client.query<{ here: boolean; query: string }>(
      `SELECT datname = current_database() AS here, query FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
    );
    const dead = await client.query<{ name: string; dead: number; live: number }>(
      `SELECT schemaname || '.' || relname AS name, n_dead_tup::int AS dead, n_live_tup::int AS live FROM pg_stat_user_tables
       WHERE n_dead_tup > 0 ORDER BY n_dead_tup DESC LIMIT ${DEAD_TABLES}`,
    );
    const oldest = jobs.rows.map((r) => r.oldest_s ?? 0);
    return {
      outbox_pending: Object.fromEntries(outbox.rows.filter((r) => r.n > 0).map((r) => [r.schema, r.n])),
      jobs_waiting: Object.fromEntries(jobs.rows.map((r) => [r.name, r.n])),
      oldest_job_s: oldest.length ? Math.round(Math.max(...oldest)) : null,
      // "autovacuum: VACUUM ANALYZE orders.outbox_event": the table is what tells.
      autovacuum: {
        here: vacuum.rows.filter((r) => r.here).map((r) => r.query.replace(/^autovacuum:\s*/, '')),
        elsewhere: vacuum.rows.filter((r) => !r.here).length,
      },
      dead_tuples: Object.fromEntries(dead.rows.map((r) => [r.name, [r.dead, r.live]])),
    };
  } finally {
    if (typeof database === 'string') await client.end();
  }
}

/** One line for the log. */
export function describeBackground(b: Background): string {
  const map = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const dead = Object.entries(b.dead_tuples)
    .map(([table, [dead, live]]) => `${table} ${dead}/${live}`)
    .join(', ');
  return (
    `outbox pending: ${map(b.outbox_pending)}; jobs waiting: ${map(b.jobs_waiting)}${b.oldest_job_s === null ? '' : ` (oldest ${b.oldest_job_s} s)`}; ` +
    `autovacuum: ${b.autovacuum.here.length ? b.autovacuum.here.join(', ') : 'none'} here, ${b.autovacuum.elsewhere} elsewhere; dead/live rows: ${dead || 'none'}`
  );
}
