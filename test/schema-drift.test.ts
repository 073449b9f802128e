import type { DataSource } from 'typeorm';
import { migrate, subgraphDataSource } from '@backoffice/platform';
import { SUBGRAPHS } from '../gateway/src/subgraphs';
import { freshDatabase } from './helpers';

// Each table's shape is declared once, as a TypeORM entity (src/entities.ts, and the platform's
// per-schema tables); the migrations build the database. On a fresh database migrated to the end,
// TypeORM's schema builder must find nothing to change: a migration that drifts from its entity
// (a column's type, nullability or default, a key, an index, a constraint) fails here.
// What TypeORM cannot state is noted beside its declaration: expression indexes carry
// `synchronize: false` (skipped here, exactly those); an index's method (GIN), operator class and
// DESC columns are not compared, its columns are.

describe('schema drift', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const sources: DataSource[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
  });

  afterAll(async () => {
    for (const source of sources) await source.destroy();
    await db.drop();
  });

  test.each(SUBGRAPHS.map((s) => [s.name, s] as const))('%s: the migrated schema is what its entities declare', async (_name, definition) => {
    const source = subgraphDataSource(db.url, definition, 2);
    sources.push(source);
    await source.initialize();
    await migrate(db.url, source);
    const pending = await source.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    // The builder matches indexes and checks by name and columns only: their predicates are compared
    // here, as PostgreSQL prints them.
    const declared = source.entityMetadatas.flatMap((m) => [
      ...m.indices.filter((i) => i.where).map((i) => [`index ${i.name}`, i.where!]),
      ...m.checks.map((c) => [`check ${c.name}`, c.expression!]),
    ]);
    const actual: Array<{ name: string; definition: string }> = await source.query(
      `SELECT 'index ' || c.relname AS name, pg_get_expr(i.indpred, i.indrelid) AS definition FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relnamespace = $1::regnamespace AND i.indpred IS NOT NULL
       UNION ALL
       SELECT 'check ' || conname, substring(pg_get_constraintdef(oid) FROM '^CHECK \\((.*)\\)$') FROM pg_constraint WHERE connamespace = $1::regnamespace AND contype = 'c'`,
      [definition.name],
    );
    const byName = (a: string[], b: string[]) => a[0].localeCompare(b[0]);
    expect(declared.sort(byName)).toEqual(actual.map((r) => [r.name, r.definition]).sort(byName));
  });
});
