import { createHash } from 'node:crypto';
import { DatabaseError, type Pool } from 'pg';

/** One part of a command's final statement: `name AS (sql)`, its parameters numbered from $1. */
export interface CommandPart {
  name: string;
  sql: string;
}

/** A named (prepared) statement: planning the CTEs on every call would cost more than running them. */
interface Prepared {
  name: string;
  text: string;
}

const prepared = (text: string): Prepared => ({ name: `cmd_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text });

/** Shifts `$n` placeholders by `offset`, so several parts can share one parameter list. */
function renumber(sql: string, offset: number): string {
  return offset ? sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`) : sql;
}

const shifts = new Map<string, Map<number, string>>();

/**
 * `renumber`, giving back the same string for the same (text, offset): shapes are found by their
 * parts' texts, and a fresh string per command would be hashed again each time.
 */
export function shifted(sql: string, offset: number): string {
  let byOffset = shifts.get(sql);
  if (!byOffset) {
    byOffset = new Map();
    shifts.set(sql, byOffset);
  }
  let text = byOffset.get(offset);
  if (text === undefined) {
    text = renumber(sql, offset);
    byOffset.set(offset, text);
  }
  return text;
}

/** `WITH a AS (…), b AS (…) SELECT 1`: the parts of one or more commands as one statement. */
function render(parts: CommandPart[]): string {
  return `WITH ${parts.map((p) => `${p.name} AS (${p.sql})`).join(',\n')}\nSELECT 1`;
}

/**
 * The statement of every command with the same parts and parameter count, built once: commands
 * come back with the same few shapes, and their texts are long.
 */
export class CommandShape {
  readonly single: Prepared;
  /** Does it only add rows? Then, joined with others, it cannot touch a row they touch. */
  readonly onlyInserts: boolean;
  private readonly joints = new Map<number, Prepared>();

  constructor(
    readonly parts: CommandPart[],
    readonly width: number,
  ) {
    this.single = prepared(render(parts));
    // An upsert (ON CONFLICT … DO UPDATE) may touch a row another command of the batch touches: it is not joined.
    this.onlyInserts = parts.every((p) => /^\s*INSERT\s/i.test(p.sql) && !/\bON\s+CONFLICT\b[\s\S]*\bDO\s+UPDATE\b/i.test(p.sql));
  }

  /** `count` commands of this shape as one statement, each with its own CTE names and parameters. */
  joint(count: number): Prepared {
    let statement = this.joints.get(count);
    if (!statement) {
      const parts = Array.from({ length: count }, (_, i) => this.parts.map((p) => ({ name: `c${i}_${p.name}`, sql: renumber(p.sql, i * this.width) })));
      statement = prepared(render(parts.flat()));
      this.joints.set(count, statement);
    }
    return statement;
  }
}

interface ShapeNode {
  next: Map<string, ShapeNode>;
  byWidth: Map<number, CommandShape>;
}
const shapes: ShapeNode = { next: new Map(), byWidth: new Map() };

/**
 * The shape of a command's parts, found by their SQL texts one by one (the same string objects
 * every time, so no long key is built per command). Names follow from the texts' positions.
 */
export function shapeOf(parts: CommandPart[], width: number): CommandShape {
  let node = shapes;
  for (const part of parts) {
    let next = node.next.get(part.sql);
    if (!next) {
      next = { next: new Map(), byWidth: new Map() };
      node.next.set(part.sql, next);
    }
    node = next;
  }
  let shape = node.byWidth.get(width);
  if (!shape) {
    shape = new CommandShape(parts, width);
    node.byWidth.set(width, shape);
  }
  return shape;
}

/** A command's final statement: its staged writes, its events and its audit row. */
export interface CommandWrite {
  shape: CommandShape;
  params: unknown[];
}

export const statementOf = (write: CommandWrite) => ({ ...write.shape.single, values: write.params });

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

  /** `pool` is asked on each send: the DataSource opens its pool after the executor exists. */
  constructor(private readonly pool: () => Pool) {}

  run(write: CommandWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, done: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const byShape = new Map<CommandShape, Waiting[]>();
    for (const item of this.waiting) {
      const group = byShape.get(item.write.shape);
      if (group) group.push(item);
      else byShape.set(item.write.shape, [item]);
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
      const statement =
        batch.length === 1 ? statementOf(batch[0].write) : { ...batch[0].write.shape.joint(batch.length), values: batch.flatMap((item) => item.write.params) };
      await this.pool().query(statement);
      for (const item of batch) item.done();
    } catch (error) {
      if (batch.length === 1 || !rolledBack(error)) {
        for (const item of batch) item.done(error);
        return;
      }
      await Promise.all(batch.map((item) => this.send([item])));
    }
  }
}
