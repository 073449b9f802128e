import { createHash } from 'node:crypto';
import { DatabaseError, type Pool } from 'pg';

/** One part of a command's final statement: `name AS (sql)`, its parameters numbered from $1. */
export interface CommandPart {
  name: string;
  sql: string;
}

/** A command's final statement: its staged writes, its events and its audit row, as WITH parts. */
export interface CommandWrite {
  parts: CommandPart[];
  params: unknown[];
}

/** Shifts `$n` placeholders by `offset`, so several parts can share one parameter list. */
export function renumber(sql: string, offset: number): string {
  return offset ? sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : sql;
}

/** `WITH a AS (…), b AS (…) SELECT 1`: the parts of one or more commands as one statement. */
function render(parts: CommandPart[]): string {
  return `WITH ${parts.map((p) => `${p.name} AS (${p.sql})`).join(',\n')}\nSELECT 1`;
}

const named = new Map<string, string>();

/**
 * A statement as a named (prepared) one: the same few texts come back on every call, and planning
 * the CTEs each time costs more than running them.
 */
export function preparedStatement(text: string, values: unknown[]) {
  let name = named.get(text);
  if (!name) {
    name = `cmd_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    named.set(text, name);
  }
  return { name, text, values };
}

export function statementOf(write: CommandWrite) {
  return preparedStatement(render(write.parts), write.params);
}

/** Does this statement only add rows? Then, joined with others, it cannot touch a row they touch. */
export const onlyInserts = (parts: CommandPart[]) => parts.every((p) => /^\s*INSERT\s/i.test(p.sql));

/**
 * Did the statement certainly not commit? An error the server reported about the statement, yes;
 * a broken connection (a socket error, or SQLSTATE class 08 / 57P) leaves the outcome unknown, and
 * running the commands again could apply them twice.
 */
export function rolledBack(error: unknown): boolean {
  return error instanceof DatabaseError && typeof error.code === 'string' && !/^(08|57P)/.test(error.code);
}

interface Waiting {
  write: CommandWrite;
  shape: string;
  done: (error?: unknown) => void;
}

const MAX_BATCH = 32;

/**
 * Commands whose final statement only inserts, arriving in the same turn of the event loop, go to
 * the database together: one statement, one commit. Each command's rows, events and audit row are
 * all in it, so each still commits whole or not at all. If the joint statement fails, each command
 * runs again alone and meets its own fate (a duplicate fails only the duplicate). Updates are never
 * joined: two changes to one row in one statement would silently keep only one.
 *
 * Only commands of the same shape are joined, in groups of 1, 2, 4 … 32, so every joint statement is
 * one of a few prepared texts.
 */
export class CommandBatcher {
  private waiting: Waiting[] = [];
  private scheduled = false;
  private readonly batches = new Map<string, string>();

  /** `pool` is asked on each send: the DataSource opens its pool after the executor exists. */
  constructor(private readonly pool: () => Pool) {}

  run(write: CommandWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      const shape = `${write.params.length}\n${write.parts.map((p) => `${p.name}:${p.sql}`).join('\n')}`;
      this.waiting.push({ write, shape, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const byShape = new Map<string, Waiting[]>();
    for (const item of this.waiting) {
      const group = byShape.get(item.shape);
      if (group) group.push(item);
      else byShape.set(item.shape, [item]);
    }
    this.waiting = [];
    for (const group of byShape.values()) {
      for (let at = 0; at < group.length; ) {
        let size = 1;
        while (size * 2 <= Math.min(group.length - at, MAX_BATCH)) size *= 2;
        void this.send(group.slice(at, at + size));
        at += size;
      }
    }
  }

  private async send(batch: Waiting[]): Promise<void> {
    try {
      await this.pool().query(batch.length === 1 ? statementOf(batch[0].write) : this.joint(batch));
      for (const item of batch) item.done();
    } catch (error) {
      if (batch.length === 1 || !rolledBack(error)) {
        for (const item of batch) item.done(error);
        return;
      }
      await Promise.all(batch.map((item) => this.send([item])));
    }
  }

  private joint(batch: Waiting[]) {
    const [first] = batch;
    const width = first.write.params.length;
    const key = `${batch.length}\n${first.shape}`;
    let text = this.batches.get(key);
    if (!text) {
      text = render(batch.flatMap((_, i) => first.write.parts.map((p) => ({ name: `c${i}_${p.name}`, sql: renumber(p.sql, i * width) }))));
      this.batches.set(key, text);
    }
    return preparedStatement(text, batch.flatMap((item) => item.write.params));
  }
}
