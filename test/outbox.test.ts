import { randomBytes } from 'node:crypto';
import { Client, DatabaseError } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AppError, conflict, defineEvent, defineOperation, SubgraphRuntime, t as s, type Actor, type DomainEvent } from '@backoffice/platform';
import { rolledBack } from '../platform/src/command-batcher';
import { claimStatement } from '../platform/src/outbox';
import { freshDatabase, eventually } from './helpers';

/** A throwaway subgraph exercising the platform's command transaction, outbox and relay. */
class Things1763800000100 implements MigrationInterface {
  name = 'Things1763800000100';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE testkit.thing (id text PRIMARY KEY, tenant_id text NOT NULL, n integer NOT NULL DEFAULT 0)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE testkit.thing');
  }
}

const thingCreated = defineEvent('testkit.thing.created', s.object({ id: s.string() }));

const createThing = defineOperation({
  name: 'testkit.thing.create',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary: 'test',
  input: s.object({ id: s.id(), fail: s.optional(s.enum(['conflict', 'crash'] as const)) }),
  result: s.object({ id: s.string() }),
  events: [thingCreated],
  async handler({ input, actor, db, emit }) {
    await db.query('INSERT INTO testkit.thing (id, tenant_id) VALUES ($1, $2)', [input.id, actor!.tenant_id]);
    emit(thingCreated, { id: input.id });
    if (input.fail === 'conflict') throw conflict('refused after writing', { reason: 'not_applicable' });
    if (input.fail === 'crash') throw new Error('password=hunter2 at /secret/file.ts:12');
    return { id: input.id };
  },
});

const stageThing = defineOperation({
  name: 'testkit.thing.stage',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary: 'test',
  input: s.object({ id: s.id() }),
  result: s.object({ id: s.string() }),
  events: [thingCreated],
  async handler({ input, actor, stage, emit }) {
    stage('INSERT INTO testkit.thing (id, tenant_id) VALUES ($1, $2)', [input.id, actor!.tenant_id]);
    emit(thingCreated, { id: input.id });
    return { id: input.id };
  },
});

const bumpThing = defineOperation({
  name: 'testkit.thing.bump',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary: 'test',
  input: s.object({ id: s.id() }),
  result: s.object({ id: s.string() }),
  events: [],
  async handler({ input, actor, stage }) {
    stage('UPDATE testkit.thing SET n = n + 1 WHERE id = $1 AND tenant_id = $2', [input.id, actor!.tenant_id]);
    return { id: input.id };
  },
});

/** Bumps two rows with a pause between: two of these in opposite orders deadlock. */
const crossThings = defineOperation({
  name: 'testkit.thing.cross',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary: 'test',
  input: s.object({ first: s.id(), second: s.id(), apart: s.optional(s.boolean()) }),
  result: s.object({ id: s.string() }),
  events: [thingCreated],
  async handler({ input, actor, db, emit, separately }) {
    if (input.apart) await separately((tx) => tx.query('SELECT 1'));
    const bump = (id: string) => db.query('UPDATE testkit.thing SET n = n + 1 WHERE id = $1 AND tenant_id = $2', [id, actor!.tenant_id]);
    await bump(input.first);
    await db.query('SELECT pg_sleep(0.3)');
    await bump(input.second);
    emit(thingCreated, { id: input.first });
    return { id: input.first };
  },
});

const actor: Actor = { tenant_id: 'ten_a', api_key_id: 'key_a', credential_id: 'cred_a', name: 'tester', scopes: ['order.write'], is_owner: false };
let db: Awaited<ReturnType<typeof freshDatabase>>;
let runtime: SubgraphRuntime;
const delivered: DomainEvent[] = [];
const logs: string[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  runtime = await new SubgraphRuntime(
    {
      name: 'testkit',
      summary: 'a test subgraph',
      defaultPort: 0,
      schemaFile: '',
      operations: [createThing, stageThing, bumpThing, crossThings],
      events: [thingCreated],
      entities: [],
      migrations: [Things1763800000100],
    },
    { url: db.url, contextSecret: randomBytes(32).toString('hex'), relay: { backoffMs: () => 30, maxAttempts: 3, pollMs: 50 }, log: (l) => logs.push(l) },
  ).start();
});
afterAll(async () => {
  await runtime.stop();
  await db.drop();
});

const run = (input: Record<string, unknown>) => runtime.executor.execute(createThing, input, { actor, request_id: `req_${input.id}` });
const count = async (sql: string, params: unknown[] = []) => Number((await runtime.dataSource.query(sql, params))[0].n);

describe('command transaction and outbox', () => {
  it('delivers an event only after its command committed', async () => {
    const outside = new Client({ connectionString: db.url });
    await outside.connect();
    const seenCommitted: boolean[] = [];
    const unsubscribe = runtime.relay.subscribe(async (event) => {
      // Another connection sees the state change: the relay runs strictly after commit.
      const { rowCount } = await outside.query('SELECT 1 FROM testkit.thing WHERE id = $1', [event.payload.id]);
      seenCommitted.push(rowCount === 1);
      delivered.push(event);
    });
    try {
      await run({ id: 'one' });
      const event = await eventually(async () => delivered.find((e) => e.payload.id === 'one'));
      expect(event).toMatchObject({ type: 'testkit.thing.created', tenant_id: 'ten_a', actor_id: 'key_a', request_id: 'req_one' });
      expect(seenCommitted).toEqual([true]);
    } finally {
      unsubscribe();
      await outside.end();
    }
  });

  it.each(['conflict', 'crash'])('writes nothing, emits nothing when the handler fails after writing (%s)', async (fail) => {
    const id = `failing-${fail}`;
    await expect(run({ id, fail })).rejects.toBeInstanceOf(AppError);
    expect(await count('SELECT count(*) AS n FROM testkit.thing WHERE id = $1', [id])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE payload->>'id' = $1`, [id])).toBe(0);
    await runtime.audit.flush();
    const outcome = await runtime.dataSource.query(`SELECT outcome FROM testkit.audit_entry WHERE request_id = $1`, [`req_${id}`]);
    expect(outcome).toEqual([{ outcome: fail === 'crash' ? 'internal' : 'conflict' }]);
  });

  it('commits staged writes, events and audit in one statement, or none of them', async () => {
    const stage = (id: string) => runtime.executor.execute(stageThing, { id }, { actor, request_id: `req_stage_${id}` });
    await expect(stage('staged')).resolves.toEqual({ id: 'staged' });
    expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE payload->>'id' = 'staged'`)).toBe(1);
    // The same id again breaks the primary key inside the one statement: no event, no ok audit row,
    // and the caller is told it conflicts with what exists.
    await expect(stage('staged')).rejects.toMatchObject({ kind: 'conflict' });
    expect(await count(`SELECT count(*) AS n FROM testkit.thing WHERE id = 'staged'`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE payload->>'id' = 'staged'`)).toBe(1);
    await runtime.audit.flush();
    const outcomes = await runtime.dataSource.query(`SELECT outcome FROM testkit.audit_entry WHERE request_id = 'req_stage_staged' ORDER BY seq`);
    expect(outcomes).toEqual([{ outcome: 'ok' }, { outcome: 'conflict' }]);
  });

  describe('commands arriving together', () => {
    const stage = (id: string) => runtime.executor.execute(stageThing, { id }, { actor, request_id: `req_together_${id}` });
    /** Rows written by one transaction share its id (xmin): how many transactions wrote these things. */
    const transactions = async (ids: string[]) => count(`SELECT count(DISTINCT xmin::text) AS n FROM testkit.thing WHERE id = ANY($1)`, [ids]);

    it('commit in one statement, each with its own event and audit row', async () => {
      const ids = Array.from({ length: 8 }, (_, i) => `together-${i}`);
      await expect(Promise.all(ids.map(stage))).resolves.toEqual(ids.map((id) => ({ id })));
      expect(await transactions(ids)).toBe(1);
      expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE payload->>'id' = ANY($1)`, [ids])).toBe(8);
      expect(
        await count(`SELECT count(*) AS n FROM testkit.audit_entry WHERE request_id = ANY($1) AND outcome = 'ok'`, [ids.map((id) => `req_together_${id}`)]),
      ).toBe(8);
    });

    it('fail one at a time: a duplicate among them fails only itself', async () => {
      await stage('taken');
      const ids = ['free-1', 'free-2', 'taken', 'free-3'];
      const outcomes = await Promise.allSettled(ids.map(stage));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
      expect(await count(`SELECT count(*) AS n FROM testkit.thing WHERE id = ANY($1)`, [['free-1', 'free-2', 'free-3']])).toBe(3);
      expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE payload->>'id' = 'taken'`)).toBe(1);
    });

    it('run again alone only after an error that certainly rolled back', () => {
      const reported = (code: string) => Object.assign(new DatabaseError('refused', 0, 'error'), { code });
      expect(rolledBack(reported('23505'))).toBe(true);
      expect(rolledBack(reported('40P01'))).toBe(true);
      // The connection broke: the statement may have committed, so nothing runs twice.
      expect(rolledBack(reported('08006'))).toBe(false);
      expect(rolledBack(reported('57P01'))).toBe(false);
      expect(rolledBack(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(false);
    });

    it('never join changes to existing rows: two bumps of one row both count', async () => {
      await stage('bumped');
      const bump = () => runtime.executor.execute(bumpThing, { id: 'bumped' }, { actor, request_id: 'req_bump' });
      await Promise.all([bump(), bump(), bump()]);
      expect(await count(`SELECT n FROM testkit.thing WHERE id = 'bumped'`)).toBe(3);
    });
  });

  describe('a deadlock', () => {
    const stage = (id: string) => runtime.executor.execute(stageThing, { id }, { actor, request_id: `req_deadlock_${id}` });
    const cross = (first: string, second: string, apart = false) =>
      runtime.executor.execute(crossThings, { first, second, apart }, { actor, request_id: `req_cross_${first}_${apart}` });
    const deadlocks = async () => count(`SELECT deadlocks AS n FROM pg_stat_database WHERE datname = current_database()`);
    const bumps = (ids: string[]) => count(`SELECT sum(n) AS n FROM testkit.thing WHERE id = ANY($1)`, [ids]);

    it('runs the victim again whole: both commands succeed, each with one event and one audit row', async () => {
      await Promise.all([stage('left'), stage('right')]);
      const before = await deadlocks();
      await expect(Promise.all([cross('left', 'right'), cross('right', 'left')])).resolves.toEqual([{ id: 'left' }, { id: 'right' }]);
      // PostgreSQL did choose a victim. Its statistics arrive later: a backend that flushed them in
      // the last second holds new ones until it is next idle, up to 10 s (PGSTAT_IDLE_INTERVAL).
      await eventually(async () => ((await deadlocks()) > before ? true : undefined), 15_000);
      expect(await bumps(['left', 'right'])).toBe(4);
      expect(await count(`SELECT count(*) AS n FROM testkit.outbox_event WHERE request_id LIKE 'req_cross_%_false'`)).toBe(2);
      await runtime.audit.flush();
      const audited = await runtime.dataSource.query(
        `SELECT request_id, outcome FROM testkit.audit_entry WHERE request_id LIKE 'req_cross_%_false' ORDER BY request_id`,
      );
      expect(audited).toEqual([
        { request_id: 'req_cross_left_false', outcome: 'ok' },
        { request_id: 'req_cross_right_false', outcome: 'ok' },
      ]);
    });

    it('does not run again a command whose work apart already committed', async () => {
      await Promise.all([stage('up'), stage('down')]);
      const outcomes = await Promise.allSettled([cross('up', 'down', true), cross('down', 'up', true)]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ kind: 'internal' });
      expect(await bumps(['up', 'down'])).toBe(2);
    });
  });

  it('hides an unexpected error behind internal with the request id', async () => {
    const error = (await run({ id: 'boom', fail: 'crash' }).catch((e) => e)) as AppError;
    expect(error.kind).toBe('internal');
    expect(error.message).toBe('internal error (request req_boom)');
    expect(error.message).not.toContain('hunter2');
    expect(logs.join('\n')).toContain('req_boom');
  });

  it('refuses before the handler: no actor, missing scope, bad input', async () => {
    await expect(runtime.executor.execute(createThing, { id: 'x' }, null)).rejects.toMatchObject({ kind: 'unauthorized' });
    await expect(runtime.executor.execute(createThing, { id: 'x' }, { actor: null, request_id: 'r' })).rejects.toMatchObject({ kind: 'unauthorized' });
    await expect(runtime.executor.execute(createThing, { id: 'x' }, { actor: { ...actor, scopes: [] }, request_id: 'r' })).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'missing scope order.write',
    });
    await expect(run({ id: '' })).rejects.toMatchObject({ kind: 'validation_failed' });
    expect(await count(`SELECT count(*) AS n FROM testkit.thing WHERE id = 'x'`)).toBe(0);
  });

  it('retries a failing delivery with backoff, keeps the trail, and gives up after the last attempt', async () => {
    let failures = 0;
    const unsubscribe = runtime.relay.subscribe(async (event) => {
      if (event.payload.id === 'flaky' && failures < 1) {
        failures++;
        throw new Error('subscriber down');
      }
      if (event.payload.id === 'doomed') throw new Error('always down');
    });
    try {
      await run({ id: 'flaky' });
      await run({ id: 'doomed' });
      const flaky = await eventually(async () => {
        const rows = await runtime.dataSource.query(`SELECT * FROM testkit.outbox_event WHERE payload->>'id' = 'flaky' AND status = 'delivered'`);
        return rows[0];
      });
      expect(flaky.attempts).toBe(2);
      const trail = await runtime.dataSource.query(`SELECT attempt, outcome, error FROM testkit.event_delivery_attempt WHERE event_id = $1 ORDER BY attempt`, [
        flaky.event_id,
      ]);
      expect(trail).toEqual([
        { attempt: 1, outcome: 'failed', error: 'subscriber down' },
        { attempt: 2, outcome: 'delivered', error: null },
      ]);
      const doomed = await eventually(async () => {
        const rows = await runtime.dataSource.query(`SELECT * FROM testkit.outbox_event WHERE payload->>'id' = 'doomed' AND status = 'dead'`);
        return rows[0];
      });
      expect(doomed).toMatchObject({ attempts: 3, last_error: 'always down' });
    } finally {
      unsubscribe();
    }
  });

  it('declares dead an event whose last attempt never finished (its lease ran out)', async () => {
    await run({ id: 'orphan' });
    const [row] = await eventually(async () => {
      // Nobody subscribes here: the event is recorded as unrouted, not as delivered.
      const rows = await runtime.dataSource.query(`SELECT event_id FROM testkit.outbox_event WHERE payload->>'id' = 'orphan' AND status = 'unrouted'`);
      return rows.length ? rows : undefined;
    });
    // As if a relay claimed its third attempt and died: pending, attempts used up, lease over.
    await runtime.dataSource.query(
      `UPDATE testkit.outbox_event SET status = 'pending', attempts = 3, lease_until = now() - interval '1 second', next_attempt_at = now() - interval '1 minute' WHERE event_id = $1`,
      [row.event_id],
    );
    await runtime.relay.kick();
    const [after] = await runtime.dataSource.query(`SELECT status, attempts, last_error FROM testkit.outbox_event WHERE event_id = $1`, [row.event_id]);
    expect(after).toEqual({ status: 'dead', attempts: 3, last_error: 'delivery never completed' });
  });

  it('claims due events with an index scan that stops at the batch, past every delivered event', async () => {
    // Thousands of delivered events since the last vacuum, a few pending ones: what a busy outbox
    // looks like between vacuums. The claim must not visit the delivered ones in the heap each time.
    await runtime.dataSource.query(
      `INSERT INTO testkit.outbox_event (event_id, tenant_id, type, payload)
       SELECT 'evt_backlog_' || n, 'ten_a', 'testkit.thing.created', '{}' FROM generate_series(1, 3000) AS n`,
    );
    await runtime.dataSource.query(`UPDATE testkit.outbox_event SET status = 'delivered', delivered_at = now() WHERE event_id LIKE 'evt_backlog_%'`);
    const claim = claimStatement('testkit', 200, 3);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query(claim.setting);
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${claim.text}`);
      const plan = JSON.stringify(rows[0]['QUERY PLAN']);
      expect(plan).toContain('"Index Name":"outbox_event_due"');
      expect(plan).not.toMatch(/"Node Type":"(Bitmap[^"]*|[^"]*Sort)"/);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });
});
