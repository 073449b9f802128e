import type { EntityManager } from 'typeorm';
import { consumerQueue } from './consumer';
import { sqlOf } from '../db/sql';

/**
 * The statement that makes a consumer's queue take exactly `types` (pg-boss's subscription table, in
 * the platform's `pgboss` schema). Nothing is subscribed while the queue does not exist yet: the
 * consumer's start subscribes it.
 */
export function routeSql(queue: string, types: readonly string[]): { text: string; values: unknown[] } {
  return {
    text: `WITH gone AS (DELETE FROM pgboss.subscription WHERE name = $1 AND NOT (event = ANY($2::text[])))
           INSERT INTO pgboss.subscription (event, name) SELECT t, $1 FROM unnest($2::text[]) AS t
           WHERE EXISTS (SELECT 1 FROM pgboss.queue WHERE name = $1) ON CONFLICT DO NOTHING`,
    values: [queue, [...new Set(types)]],
  };
}

/**
 * Changes the event types a routed consumer takes, in the caller's transaction: a webhook
 * subscription and the routing of its events commit together. Does nothing where no bus ever ran.
 */
export async function routeConsumer(db: EntityManager, subgraph: string, consumer: string, types: readonly string[]): Promise<void> {
  const [{ bus }] = await sqlOf(db).rows<{ bus: boolean }>(`SELECT to_regclass('pgboss.subscription') IS NOT NULL AS bus`);
  if (!bus) return;
  const route = routeSql(consumerQueue(subgraph, consumer), types);
  await sqlOf(db).run(route.text, route.values);
}
