import { DataSource, type EntitySchema, type MigrationInterface } from 'typeorm';
import { Client, type Pool } from 'pg';
import { platformEntities } from './platform-entities';
import { platformConsumerMigration, platformMigration, platformOutboxDueMigration, platformOutboxFeedMigration } from './platform-migration';

export interface SubgraphStore {
  schema: string;
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
}

/** How long a query waits for a pooled connection before failing (documented in docs/limits.md). */
export const POOL_WAIT_MS = 10_000;

/** One subgraph's DataSource: its own schema, its own pool, its own migrations. */

export function createDataSource(url: string, store: SubgraphStore, poolSize = Number(process.env.DB_POOL_SIZE) || 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    schema: store.schema,
    entities: [...platformEntities, ...store.entities],
    migrations: [
      platformMigration(store.schema),
      ...store.migrations,
      platformOutboxDueMigration(store.schema),
      platformConsumerMigration(store.schema),
      platformOutboxFeedMigration(store.schema),
    ],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'all',
    synchronize: false,
    // Extensions are created by the migrations that need them (ltree), not by TypeORM at every connect.
    installExtensions: false,
    logging: false,
    // Short OLTP statements: JIT compilation costs more than it saves once big tables make the
    // planner's estimates cross jit_above_cost (docs/decisions/prepared-statements.md).
    // A request waits at most POOL_WAIT_MS for a connection: an exhausted pool answers an error, never a hang.
    extra: { max: poolSize, application_name: `backoffice-${store.schema}`, options: '-c jit=off', connectionTimeoutMillis: POOL_WAIT_MS },
  });
}

/**
 * Creates the schema and runs pending migrations. Idempotent, and safe when several processes start
 * at once: an advisory lock per schema lets one migrate while the others wait.
 */
export async function migrate(url: string, dataSource: DataSource): Promise<void> {
  const schema = (dataSource.options as { schema: string }).schema;
  const lock = new Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`backoffice.migrate.${schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
    await lock.end();
  }
}

/** The DataSource's pg pool, for hot paths that want named statements or plain row results. */
export function poolOf(dataSource: DataSource): Pool {
  // Sound: every DataSource here is PostgreSQL, whose driver (typed as any driver) keeps its pg pool as `master`.
  return (dataSource.driver as unknown as { master: Pool }).master;
}
