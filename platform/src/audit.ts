import type { DataSource, EntityManager } from 'typeorm';
import type { AuditEntry } from './db/platform-entities';
import { sqlOf } from './db/sql';
import { conditions } from './db/where';

/** One line of the audit trail as written: who (the key's name), did what, with which outcome (`ok` or an error kind). */
export type AuditRow = Pick<AuditEntry, 'tenant_id' | 'actor_id' | 'actor_name' | 'operation' | 'outcome' | 'request_id'>;

const COLUMNS = ['tenant_id', 'actor_id', 'actor_name', 'operation', 'outcome', 'request_id'] as const;

/** `unnest` over one array per column: any number of rows in one statement with six parameters. */
export function auditInsertSql(schema: string, firstParam = 1): string {
  const params = COLUMNS.map((_, i) => `$${firstParam + i}::text[]`).join(', ');
  return `INSERT INTO "${schema}".audit_entry (${COLUMNS.join(', ')}) SELECT * FROM unnest(${params})`;
}

export function auditParams(rows: AuditRow[]): string[][] {
  return COLUMNS.map((column) => rows.map((row) => row[column]));
}

/**
 * The audit trail of one subgraph. A command's row is written inside its transaction (by the executor);
 * reads and refusals change no state, so their rows are batched and written a few milliseconds later.
 */
/** Rows buffered before a write is started regardless of the delay. */
const AUDIT_BATCH_MAX = 500;

export class AuditLog {
  private pending: AuditRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private inflight: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
    private readonly log: (line: string) => void = console.error,
    private readonly delayMs = 20,
  ) {}

  record(row: AuditRow): void {
    this.pending.push(row);
    // A burst (say, a flood of rate-limited calls) is written at once rather than held in memory.
    if (this.pending.length >= AUDIT_BATCH_MAX) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Writes what is buffered; resolves once everything recorded so far is in the table. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = this.pending;
    this.pending = [];
    const previous = this.inflight;
    this.inflight = (async () => {
      await previous;
      if (!rows.length || !this.dataSource.isInitialized) return;
      await sqlOf(this.dataSource)
        .run(auditInsertSql(this.schema), auditParams(rows))
        .catch((error: Error) => this.log(`audit: could not write ${rows.length} row(s): ${error.message}`));
    })();
    return this.inflight;
  }
}

/** A page of one subgraph's audit trail for a tenant, newest first. */
export async function listAudit(
  db: EntityManager,
  schema: string,
  tenantId: string,
  filter: { actor?: string; operation?: string; limit?: number; page?: number },
) {
  const where = conditions().add`tenant_id = ${tenantId}`;
  if (filter.actor) {
    const actor = where.param(filter.actor);
    where.add`(actor_name = ${actor} OR actor_id = ${actor})`;
  }
  if (filter.operation) where.add`operation = ${filter.operation}`;
  const page = await sqlOf(db).page<Pick<AuditEntry, 'actor_id' | 'actor_name' | 'operation' | 'outcome' | 'request_id' | 'at'>>(
    {
      select: 'actor_id, actor_name, operation, outcome, request_id, at',
      from: `"${schema}".audit_entry`,
      where: where.sql,
      orderBy: 'seq DESC',
      params: where.params,
    },
    filter,
  );
  return { ...page, items: page.items.map((r) => ({ ...r, at: r.at.toISOString() })) };
}
