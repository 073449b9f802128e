import type { DataSource } from 'typeorm';
import type { Operation } from '../operation';
import type { TObject, TSchema } from '@sinclair/typebox';

/** What a scheduled job's handler gets: its subgraph's database, the log, and its operations. */
export interface JobCall {
  dataSource: DataSource;
  log(line: string): void;
  /**
   * Runs one of the subgraph's operations in a tenant as the job itself (actor `job:<name>`, with
   * just the operation's scope): the same checks, transaction, events and audit row as a call by hand.
   */
  runAs(tenantId: string, operation: Operation<TObject, TSchema, never>, input: Record<string, unknown>): Promise<unknown>;
}

/** Work a subgraph runs on a schedule, one run at a time across every process. */
export interface JobDefinition {
  /** Unique within its subgraph; the queue is `<subgraph>.job.<name>`. */
  name: string;
  /** `1 minute`, `5 minutes`, `1 hour`, `6 hours`, `1 day`. */
  every: string;
  handler(call: JobCall): Promise<void>;
}

/** What became of one run, for the log and the metrics. */
export interface JobRun {
  job: string;
  outcome: 'ok' | 'failed';
  seconds: number;
  finishedAt: Date;
}

const UNITS: Record<string, (n: number) => string> = {
  minute: (n) => (n === 1 ? '* * * * *' : `*/${n} * * * *`),
  hour: (n) => (n === 1 ? '0 * * * *' : `0 */${n} * * *`),
  day: (n) => (n === 1 ? '0 0 * * *' : `0 0 */${n} * *`),
};

/** `every` as a cron expression; a spelling it does not know is a bug in the declaration. */
export function cronOf(every: string): string {
  const match = /^(\d+) (minute|hour|day)s?$/.exec(every.trim());
  const n = match ? Number(match[1]) : 0;
  if (!match || n < 1 || (match[2] === 'minute' && n > 59) || (match[2] === 'hour' && n > 23)) {
    throw new Error(`cannot schedule "every ${every}": use e.g. "1 minute", "5 minutes", "1 hour", "1 day"`);
  }
  return UNITS[match[2]](n);
}

/** Declares a job: `job('order.expire_unpaid', { every: '1 minute' }, handler)`. */
export function job(name: string, options: { every: string }, handler: JobDefinition['handler']): JobDefinition {
  cronOf(options.every);
  return { name, every: options.every, handler };
}

/** Runs one job: its outcome and duration are reported whatever happens; a failure is logged, not thrown further than the bus. */
export async function runJob(definition: JobDefinition, call: JobCall, report: (run: JobRun) => void): Promise<void> {
  const started = process.hrtime.bigint();
  let outcome: JobRun['outcome'] = 'ok';
  try {
    await definition.handler(call);
  } catch (error) {
    outcome = 'failed';
    call.log(`job ${definition.name} failed (the next tick runs it again): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    report({ job: definition.name, outcome, seconds: Number(process.hrtime.bigint() - started) / 1e9, finishedAt: new Date() });
  }
}
