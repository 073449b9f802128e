import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { AppError, conflict, defineOperation, SubgraphRuntime, t as s, type Actor, type DomainEvent } from '@backoffice/platform';
import { freshDatabase, eventually } from './helpers';

/** A throwaway subgraph exercising the platform's command transaction, outbox and relay. */
class Things1763800000100 implements MigrationInterface {
  name = 'Things1763800000100';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE testkit.thing (id text PRIMARY KEY, tenant_id text NOT NULL)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE testkit.thing');
  }
}

const createThing = defineOperation({
  name: 'testkit.thing.create',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary: 'test',
  input: s.object({ id: s.id(), fail: s.optional(s.enum(['conflict', 'crash'] as const)) }),
  result: s.object({ id: s.string() }),
  events: ['testkit.thing.created'],
  async handler({ input, actor, db, emit }) {
    await db.query('INSERT INTO testkit.thing (id, tenant_id) VALUES ($1, $2)', [input.id, actor!.tenant_id]);
    emit('testkit.thing.created', { id: input.id });
    if (input.fail === 'conflict') throw conflict('refused after writing');
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
  events: ['testkit.thing.created'],
  async handler({ input, actor, stage, emit }) {
    stage('INSERT INTO testkit.thing (id, tenant_id) VALUES ($1, $2)', [input.id, actor!.tenant_id]);
    emit('testkit.thing.created', { id: input.id });
    return { id: input.id };
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
    { name: 'testkit', defaultPort: 0, schemaFile: '', operations: [createThing, stageThing], entities: [], migrations: [Things1763800000100] },
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
      const trail = await runtime.dataSource.query(`SELECT attempt, outcome, error FROM testkit.event_delivery_attempt WHERE event_id = $1 ORDER BY attempt`, [flaky.event_id]);
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
});
