/**
 * "No state change": the row count of every table of the subgraph schemas, in one statement. The
 * audit trail is left out (it records refusals by design); the outbox is in (it must not grow).
 */
type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

export type Counts = Map<string, number>;

export async function rowCounter(sql: Query): Promise<() => Promise<Counts>> {
  const tables = await sql(
    `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('identity', 'catalog', 'orders', 'content') AND table_type = 'BASE TABLE' AND table_name <> 'audit_entry'
      ORDER BY 1`,
  );
  const statement = tables.map(({ name }) => `SELECT '${name}' AS name, count(*)::int AS n FROM ${name}`).join(' UNION ALL ');
  return async () => new Map((await sql(statement)).map((row) => [row.name as string, row.n as number]));
}

/** The tables whose counts differ, as `catalog.product +1`. */
export function differences(before: Counts, after: Counts): string[] {
  return [...after]
    .filter(([name, n]) => before.get(name) !== n)
    .map(([name, n]) => `${name} ${n - (before.get(name) ?? 0) >= 0 ? '+' : ''}${n - (before.get(name) ?? 0)}`);
}

/** Counts once the system is quiet: no change over `quietMs` (relay deliveries of earlier commits land first). */
export async function settled(count: () => Promise<Counts>, quietMs = 300, maxMs = 10_000): Promise<Counts> {
  const until = Date.now() + maxMs;
  let last = await count();
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    const next = await count();
    if (!differences(last, next).length || Date.now() > until) return next;
    last = next;
  }
}
