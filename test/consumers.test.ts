import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  conflict,
  defineEvent,
  defineOperation,
  EventBus,
  job,
  on,
  SubgraphRuntime,
  t as s,
  type Actor,
  type DomainEvent,
  type SubgraphDefinition,
} from '@backoffice/platform';
import { handleDeliveries } from '../platform/src/bus/consumer';
import type { JobRun } from '../platform/src/bus/job';
import { eventually, freshDatabase } from './helpers';

/**
 * Two throwaway subgraphs on the real bus: `producer` emits events from a command, `reactor` reacts
 * to them in its own tables (run as two instances, like two processes) and runs a scheduled job.
 */
class Produced1763800000200 implements MigrationInterface {
  name = 'Produced1763800000200';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE producer.thing (id text PRIMARY KEY)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE producer.thing');
  }
}
class Reactions1763800000201 implements MigrationInterface {
  name = 'Reactions1763800000201';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE reactor.seen (thing_id text NOT NULL, instance text NOT NULL, n integer NOT NULL DEFAULT 1)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE reactor.seen');
  }
}

const thingMade = defineEvent('producer.thing.made', s.object({ id: s.string() }));
const thingIgnored = defineEvent('producer.thing.ignored', s.object({ id: s.string() }));

const make = defineOperation({
  name: 'producer.thing.make',
  kind: 'command',
  access: 'internal',
  scope: null,
  summary: 'test',
  input: s.object({ id: s.id(), fail_after_emit: s.optional(s.boolean()) }),
  result: s.object({ id: s.string() }),
  events: [thingMade, thingIgnored],
  async handler({ input, db, emit }) {
    await db.query('INSERT INTO producer.thing (id) VALUES ($1)', [input.id]);
    emit(thingMade, { id: input.id });
    if (input.fail_after_emit) throw conflict('rolled back after emitting', { reason: 'not_applicable' });
    return { id: input.id };
  },
});
const ignore = defineOperation({
  ...make,
  name: 'producer.thing.ignore',
  async handler({ input, emit }) {
    emit(thingIgnored, { id: String(input.id) });
    return { id: input.id };
  },
});

const actor: Actor = { tenant_id: 'ten_a', api_key_id: 'key_a', credential_id: 'crd_a', name: 'tester', scopes: [], is_owner: true };
/** The reactor's consumer fails its first attempt for ids starting with `flaky`. */
const failedOnce = new Set<string>();
const jobRuns: Array<{ instance: string; start: number; end: number }> = [];

function reactor(instance: string): SubgraphDefinition {
  return {
    name: 'reactor',
    summary: 'a test consumer',
    defaultPort: 0,
    schemaFile: '',
    operations: [],
    events: [],
    entities: [],
    migrations: [Reactions1763800000201],
    consumers: [
      on(thingMade, 'count-things', async ({ event, db }) => {
        const id = String(event.payload.id);
        await db.query('INSERT INTO reactor.seen (thing_id, instance) VALUES ($1, $2)', [id, instance]);
        if (id.startsWith('flaky') && !failedOnce.has(id)) {
          failedOnce.add(id);
          throw new Error('downstream unavailable');
        }
      }),
    ],
    jobs: [
      job('tick', { every: '1 minute' }, async () => {
        const start = Date.now();
        await new Promise((ok) => setTimeout(ok, 150));
        jobRuns.push({ instance, start, end: Date.now() });
      }),
    ],
  };
}

let db: Awaited<ReturnType<typeof freshDatabase>>;
const buses: EventBus[] = [];
let producer: SubgraphRuntime;
const reactors: SubgraphRuntime[] = [];
const runs: JobRun[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  const secret = randomBytes(32).toString('hex');
  const bus = () =>
    new EventBus({ url: db.url, log: () => undefined }).start().then((b) => {
      buses.push(b);
      return b;
    });
  producer = await new SubgraphRuntime(
    {
      name: 'producer',
      summary: 'a test producer',
      defaultPort: 0,
      schemaFile: '',
      operations: [make, ignore],
      events: [thingMade, thingIgnored],
      entities: [],
      migrations: [Produced1763800000200],
    },
    { url: db.url, contextSecret: secret, bus: await bus(), relay: { pollMs: 100 }, log: () => undefined },
  ).start();
  // Two instances of the reactor, each with a bus of its own: as two processes would be.
  for (const instance of ['one', 'two']) {
    reactors.push(
      await new SubgraphRuntime(reactor(instance), {
        url: db.url,
        contextSecret: secret,
        bus: await bus(),
        jobRun: (run) => runs.push(run),
        log: () => undefined,
      }).start(),
    );
  }
}, 60_000);
afterAll(async () => {
  for (const bus of buses) await bus.stop();
  for (const runtime of [producer, ...reactors]) await runtime.stop();
  await db.drop();
});

const makeThing = (input: Record<string, unknown>) => producer.executor.execute(make, input, { actor, request_id: `req_${String(input.id)}` });
const seen = (id: string) =>
  reactors[0].dataSource.query('SELECT instance FROM reactor.seen WHERE thing_id = $1', [id]) as Promise<Array<{ instance: string }>>;
const outboxStatus = async (id: string) =>
  ((await producer.dataSource.query(`SELECT status FROM producer.outbox_event WHERE payload->>'id' = $1`, [id])) as Array<{ status: string }>)[0]?.status;

describe('consumers', () => {
  it('deliver each event once per consumer, whichever instance takes it, after commit', async () => {
    for (let i = 0; i < 20; i++) await makeThing({ id: `many-${i}` });
    const rows = await eventually(async () => {
      const all = (await reactors[0].dataSource.query(`SELECT thing_id, instance FROM reactor.seen WHERE thing_id LIKE 'many-%'`)) as Array<{
        thing_id: string;
      }>;
      return all.length >= 20 ? all : undefined;
    }, 15_000);
    await new Promise((ok) => setTimeout(ok, 1000)); // a duplicate would show up by now
    const again = (await reactors[0].dataSource.query(`SELECT thing_id FROM reactor.seen WHERE thing_id LIKE 'many-%'`)) as unknown[];
    expect(again.length).toBe(20);
    expect(new Set(rows.map((r) => r.thing_id)).size).toBe(20);
    expect(await outboxStatus('many-0')).toBe('delivered');
  });

  it('receive nothing of a command that rolled back', async () => {
    await expect(makeThing({ id: 'rolled-back', fail_after_emit: true })).rejects.toMatchObject({ kind: 'conflict' });
    await makeThing({ id: 'after-rollback' });
    await eventually(async () => ((await seen('after-rollback')).length ? true : undefined), 15_000);
    expect(await seen('rolled-back')).toEqual([]);
  });

  it('retry a failed delivery with backoff, keeping a trail, and apply its effect once', async () => {
    await makeThing({ id: 'flaky-1' });
    const trail = await eventually(async () => {
      const rows = (await reactors[0].dataSource.query(
        `SELECT attempt, outcome, error FROM reactor.consumer_delivery WHERE event_type = 'producer.thing.made' AND event_id =
           (SELECT event_id FROM producer.outbox_event WHERE payload->>'id' = 'flaky-1') ORDER BY id`,
      )) as Array<{ attempt: number; outcome: string; error: string | null }>;
      return rows.some((r) => r.outcome === 'handled') ? rows : undefined;
    }, 20_000);
    expect(trail).toEqual([
      { attempt: 1, outcome: 'failed', error: 'downstream unavailable' },
      { attempt: 2, outcome: 'handled', error: null },
    ]);
    // The failed attempt's own write rolled back with it: one effect.
    expect((await seen('flaky-1')).length).toBe(1);
  });

  it('ignore a second delivery of an event already handled (a republished event)', async () => {
    await makeThing({ id: 'twice' });
    await eventually(async () => ((await seen('twice')).length ? true : undefined), 15_000);
    const [row] = (await producer.dataSource.query(
      `SELECT event_id, type, tenant_id, occurred_at, actor_id, request_id, payload FROM producer.outbox_event WHERE payload->>'id' = 'twice'`,
    )) as Array<DomainEvent & { occurred_at: Date }>;
    await buses[0].publish([{ ...row, occurred_at: row.occurred_at.toISOString() }]);
    await new Promise((ok) => setTimeout(ok, 1500));
    expect((await seen('twice')).length).toBe(1);
  });

  it('handle a batch in one transaction where a failing delivery rolls back alone', async () => {
    const host = { dataSource: reactors[0].dataSource, schema: 'reactor', ports: {}, tasks: [], queue: async () => undefined, log: () => undefined };
    const consumer = on(thingMade, 'batch-probe', async ({ event, db }) => {
      await db.query('INSERT INTO reactor.seen (thing_id, instance) VALUES ($1, $2)', [event.payload.id, 'batch']);
      if (event.payload.id === 'batch-bad') throw new Error('this one fails');
    });
    const delivery = (id: string) => ({
      event: {
        event_id: `evt_${id}`,
        type: thingMade.name,
        tenant_id: 'ten_a',
        occurred_at: new Date().toISOString(),
        actor_id: null,
        request_id: null,
        payload: { id },
      } as DomainEvent,
      attempt: 1,
    });
    const batch = ['batch-1', 'batch-bad', 'batch-2'].map(delivery);
    const first = await handleDeliveries(host, consumer, batch);
    expect(first.outcomes.map((o) => (o instanceof Error ? o.message : o))).toEqual(['handled', 'this one fails', 'handled']);
    const rows = (await reactors[0].dataSource.query(`SELECT thing_id FROM reactor.seen WHERE instance = 'batch' ORDER BY thing_id`)) as Array<{
      thing_id: string;
    }>;
    expect(rows.map((r) => r.thing_id)).toEqual(['batch-1', 'batch-2']);
    const trail = (await reactors[0].dataSource.query(
      `SELECT event_id, outcome, error FROM reactor.consumer_delivery WHERE consumer = 'batch-probe' ORDER BY event_id, outcome`,
    )) as unknown[];
    expect(trail).toEqual([
      { event_id: 'evt_batch-1', outcome: 'handled', error: null },
      { event_id: 'evt_batch-2', outcome: 'handled', error: null },
      { event_id: 'evt_batch-bad', outcome: 'failed', error: 'this one fails' },
    ]);
    // Delivered again (a retry of the batch): the handled ones are repeats, nothing applies twice.
    const again = await handleDeliveries(host, consumer, [delivery('batch-1'), delivery('batch-2')]);
    expect(again.outcomes).toEqual(['duplicate', 'duplicate']);
    expect(((await reactors[0].dataSource.query(`SELECT count(*)::int AS n FROM reactor.seen WHERE instance = 'batch'`)) as Array<{ n: number }>)[0].n).toBe(2);
  });

  it('leave an event no consumer takes recorded as unrouted, not delivered', async () => {
    await producer.executor.execute(ignore, { id: 'nobody' }, { actor, request_id: 'req_nobody' });
    expect(await eventually(async () => ((await outboxStatus('nobody')) === 'pending' ? undefined : outboxStatus('nobody')), 10_000)).toBe('unrouted');
  });
});

describe('claims', () => {
  it('take a queue’s next jobs from the front of its backlog in claim order, not by sorting all of it', async () => {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      // A queue made after the index: its partition has it too.
      await client.query(`SELECT pgboss.create_queue('claim.order.test', '{"policy":"standard"}'::json)`);
      await client.query(
        `INSERT INTO pgboss.job (name, data, priority) SELECT 'claim.order.test', json_build_object('n', g), g % 3 FROM generate_series(1, 20000) g`,
      );
      await client.query('ANALYZE pgboss.job');
      // pg-boss's own claim (src/plans.js fetchNextJob): the order it takes jobs in.
      const claim = `SELECT id FROM pgboss.job WHERE name = $1 AND state < 'active' AND start_after < now()
        ORDER BY priority desc, created_on, id LIMIT 25 FOR UPDATE SKIP LOCKED`;
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${claim}`, ['claim.order.test']);
      type Node = { 'Node Type': string; 'Index Name'?: string; 'Actual Rows': number; Plans?: Node[] };
      const nodes = (node: Node): Node[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
      const plan = nodes(rows[0]['QUERY PLAN'][0].Plan as Node);
      expect(plan.some((n) => n['Node Type'] === 'Sort')).toBe(false);
      // Read in order: the first 25 of the highest priority, without visiting the other 19,975.
      const scan = plan.find((n) => n['Index Name']?.endsWith('name_priority_created_on_id_idx'));
      expect(scan?.['Actual Rows']).toBeLessThanOrEqual(25);
    } finally {
      await client.query(`DELETE FROM pgboss.job WHERE name = 'claim.order.test'`);
      await client.end();
    }
  });
});

describe('scheduled jobs', () => {
  it('are scheduled once by cron, whatever the number of instances', async () => {
    const schedules = (await reactors[0].dataSource.query(`SELECT name, cron FROM pgboss.schedule WHERE name = 'reactor.job.tick'`)) as unknown[];
    expect(schedules).toEqual([{ name: 'reactor.job.tick', cron: '* * * * *' }]);
  });

  it('run one at a time across instances, and report each run', async () => {
    jobRuns.length = 0;
    await Promise.all([reactors[0].runJobNow('tick'), reactors[1].runJobNow('tick'), reactors[0].runJobNow('tick')]);
    await eventually(async () => (jobRuns.length >= 3 ? true : undefined), 15_000);
    const sorted = [...jobRuns].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i].start).toBeGreaterThanOrEqual(sorted[i - 1].end);
    expect(runs.filter((r) => r.job === 'tick' && r.outcome === 'ok').length).toBeGreaterThanOrEqual(3);
  });
});

describe('stopping the bus', () => {
  it('lets go of a handler that never answers after the grace, naming its queue, so the process ends on its own', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'bus-stop.ts'), db.url], {
      cwd: join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      // 'close': its output read to the end.
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    expect(output).toContain('bus: stopped while batches were still running, let go of: fixture.task.hangs (1 batch)');
    // It waited the grace (10 s) before letting go.
    expect(Number(/stopped after (\d+) ms/.exec(output)?.[1])).toBeGreaterThanOrEqual(9_500);
    const [job] = (await reactors[0].dataSource.query(`SELECT state FROM pgboss.job WHERE name = 'fixture.task.hangs'`)) as Array<{ state: string }>;
    expect(job.state).toBe('retry');
  }, 40_000);
});
