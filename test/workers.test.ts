import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { EventBus, type SubgraphRuntime } from '@backoffice/platform';
import { createTenant } from '@backoffice/identity';
import { startSubgraphs } from '../gateway/src/start-subgraphs';
import { startWorker, type Worker } from '../gateway/src/worker';
import { eventually, freshDatabase } from './helpers';

/**
 * Workers apart (docs/deployment.md): a process started with CONSUMERS=off (and JOBS=off) still
 * hands its events to the queues, but works none of them; a worker on the same database does.
 */
let db: Awaited<ReturnType<typeof freshDatabase>>;
let sql: Client;
let requests: { bus: EventBus; runtimes: Map<string, SubgraphRuntime> } | null = null;
let worker: Worker | null = null;
const log = () => undefined;

beforeAll(async () => {
  db = await freshDatabase();
  sql = new Client({ connectionString: db.url });
  await sql.connect();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await requests?.bus.stop();
  for (const runtime of requests?.runtimes.values() ?? []) await runtime.stop();
  await sql.end();
  await db.drop();
});

/** The bus built as a process's environment says, with the environment given. */
async function busWith(env: Record<string, string>): Promise<EventBus> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await new EventBus({ url: db.url, log }).start();
  } finally {
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

const tenantSetupJob = async (tenantId: string) =>
  (await sql.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE name = 'orders.tenant-setup' AND data->>'tenant_id' = $1`, [tenantId])).rows[0];
const warehouses = async (tenantId: string) => (await sql.query(`SELECT code FROM orders.warehouse WHERE tenant_id = $1`, [tenantId])).rows;

it('a process with CONSUMERS=off routes its events to the queues and consumes none; a worker consumes them', async () => {
  const bus = await busWith({ CONSUMERS: 'off', JOBS: 'off' });
  requests = { bus, runtimes: await startSubgraphs({ url: db.url, contextSecret: randomBytes(32).toString('hex'), log, bus }) };
  // No queue of a consumer, a task or a job is worked here.
  expect(bus.working()).toEqual([]);

  const tenant = await createTenant(requests.runtimes.get('identity')!.dataSource, { name: 'Apart', store: 'apart' });
  // Its relay handed tenant.created to orders' queue, where it waits: nobody here takes it.
  expect((await eventually(() => tenantSetupJob(tenant.tenant_id), 15_000)).state).toBe('created');
  expect(await warehouses(tenant.tenant_id)).toEqual([]);

  worker = await startWorker({ url: db.url, log, port: 0, host: '127.0.0.1' });
  expect(worker.bus.working()).toEqual(
    expect.arrayContaining([
      'orders.tenant-setup',
      'content.notifications',
      'identity.webhooks',
      'content.task.notification.send',
      'orders.job.order.expire_unpaid',
    ]),
  );
  // The worker sets the tenant up.
  await eventually(async () => ((await warehouses(tenant.tenant_id)).length ? true : undefined), 30_000);
  expect(await warehouses(tenant.tenant_id)).toEqual([{ code: 'default' }]);
  expect((await tenantSetupJob(tenant.tenant_id)).state).toBe('completed');
  expect((await fetch(`${worker.url}/readyz`)).status).toBe(200);
}, 120_000);
