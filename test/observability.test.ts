import { randomBytes } from 'node:crypto';
import { lineLog, metrics } from '@backoffice/platform';
import { createLogger } from '../platform/src/observability/logger';
import { serveSubgraph } from '../platform/src/serve-subgraph';
import { eventually, mcpClient, startTestSystem, type TestSystem } from './helpers';

/** What the gateway logged, one parsed JSON object per line. */
const written: string[] = [];
const destination = { write: (chunk: string) => void written.push(chunk) };
const entries = () => written.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, any>);
const lineOf = (requestId: string) => eventually(async () => entries().find((e) => e.msg === 'request' && e.request_id === requestId));

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ logger: createLogger({ level: 'info', destination }) });
});
afterAll(() => t.stop());

/** POSTs JSON with a request id and the tenant's token; the answer's body (read whole: an unread body holds its connection open). */
const post = async (path: string, requestId: string, body: unknown) =>
  (
    await fetch(`${t.url}${path}`, { method: 'POST', headers: { ...withId(requestId), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  ).json();

const withId = (requestId: string, token: string | null = t.tenant.token, more: Record<string, string> = {}) => ({
  'x-request-id': requestId,
  ...(token ? { authorization: `Bearer ${token}` } : {}),
  ...more,
});

describe('the line of each request', () => {
  it('has the request id, surface, operation, outcome, status, duration and actor, and no token', async () => {
    const rest = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: withId('obs-rest-1') });
    expect(rest.status).toBe(200);
    await rest.text();
    const line = await lineOf('obs-rest-1');
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      request_id: 'obs-rest-1',
      surface: 'rest',
      operation: 'read.internal.whoami',
      outcome: 'ok',
      status: 200,
      method: 'GET',
      path: '/v1/read/internal/whoami',
      actor_id: t.tenant.api_key_id,
      actor_name: expect.any(String),
      tenant_id: t.tenant.tenant_id,
    });
    expect(line.duration_ms).toEqual(expect.any(Number));
    expect(typeof line.time).toBe('string');

    // A command whose answer carries a new token, and a refused token: neither reaches the log.
    const newToken = ((await post('/v1/commands/iam.api_key.create', 'obs-rest-2', { name: 'logged', scopes: [] })) as { token: string }).token;
    expect((await lineOf('obs-rest-2')).operation).toBe('iam.api_key.create');
    const wrong = `${t.tenant.token.slice(0, -6)}abcdef`;
    const refused = await fetch(`${t.url}/v1/read/internal/whoami`, { headers: withId('obs-rest-3', wrong) });
    expect(refused.status).toBe(401);
    await refused.text();
    expect(await lineOf('obs-rest-3')).toMatchObject({ outcome: 'unauthorized', status: 401, actor_id: null, operation: 'read.internal.whoami' });

    const all = written.join('');
    for (const secret of [t.tenant.token, newToken, wrong, t.tenant.token.split('_').slice(2).join('_')]) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/authorization/i);
  });

  it('names the operation of a GraphQL document and of an MCP tool call', async () => {
    await post('/graphql', 'obs-gql-1', { query: '{ read_internal_whoami { actor_id } }' });
    expect(await lineOf('obs-gql-1')).toMatchObject({ surface: 'graphql', operation: 'read.internal.whoami', outcome: 'ok', actor_id: t.tenant.api_key_id });

    await post('/graphql', 'obs-gql-2', { query: 'mutation { iam_api_key_revoke(input: { api_key_id: "key_nothing" }) { api_key_id } }' });
    expect(await lineOf('obs-gql-2')).toMatchObject({ surface: 'graphql', operation: 'iam.api_key.revoke', outcome: 'conflict', status: 200 });

    await post('/graphql', 'obs-gql-3', { query: '{ a: read_internal_whoami { actor_id } b: identity_audit(input: { limit: 1 }) { total } }' });
    expect(await lineOf('obs-gql-3')).toMatchObject({ operation: 'multiple', outcome: 'ok' });

    const client = await mcpClient(t.url, t.tenant.token);
    try {
      await client.callTool({ name: 'read.internal.whoami', arguments: {} });
    } finally {
      await client.close();
    }
    await eventually(async () => entries().find((e) => e.surface === 'mcp' && e.operation === 'read.internal.whoami' && e.actor_id === t.tenant.api_key_id));
  });

  it('logs a 5xx at error with its request id, and its cause under the same id', async () => {
    // The identity's audit table goes away for a moment: its part of the merged audit read fails.
    await t.sql('ALTER TABLE identity.audit_entry RENAME TO audit_entry_away');
    try {
      const res = await fetch(`${t.url}/v1/read/internal/audit`, { headers: withId('obs-500') });
      expect(res.status).toBe(500);
      expect(((await res.json()) as any).error).toEqual({ kind: 'internal', message: 'internal error (request obs-500)' });
    } finally {
      await t.sql('ALTER TABLE identity.audit_entry_away RENAME TO audit_entry');
    }
    expect(await lineOf('obs-500')).toMatchObject({ level: 'error', status: 500, outcome: 'internal', operation: 'read.internal.audit' });
    // The test system collects the platform's lines itself; the cause names the request.
    expect(t.logs.some((line) => line.startsWith('[obs-500] internal error:') && line.includes('audit_entry'))).toBe(true);
  });

  it('writes the platform lines through pino: internal errors at error with request_id, secrets redacted', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (chunk: string) => void lines.push(chunk) } });
    const log = lineLog(logger);
    log('[req_42] internal error: Error: boom\n    at somewhere');
    log('rate limits: Redis at redis://127.0.0.1:6379 lost (ECONNRESET); limiting per process meanwhile');
    logger.info(
      { headers: { authorization: 'Bearer bok_abc_def' }, token: 'tok-1', nested: { secret: 'sec-1', password: 'pw-1' } },
      'called with Bearer bok_xyz',
    );
    const [internal, redis, redacted] = lines.map((line) => JSON.parse(line));
    expect(internal).toMatchObject({ level: 'error', request_id: 'req_42', msg: expect.stringContaining('boom') });
    expect(redis.level).toBe('warn');
    expect(redacted).toMatchObject({
      headers: { authorization: '[redacted]' },
      token: '[redacted]',
      nested: { secret: '[redacted]', password: '[redacted]' },
      msg: 'called with Bearer [redacted]',
    });
    expect(lines.join('')).not.toMatch(/bok_|tok-1|sec-1|pw-1/);
  });
});

/** Prometheus text → samples of one metric: labels and value. */
async function scrape(url: string, token?: string) {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const text = await res.text();
  return {
    text,
    samples(name: string) {
      return text
        .split('\n')
        .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
        .map((line) => {
          const match = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line)!;
          const labels = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
          return { labels, value: Number(match[2]) };
        });
    },
  };
}

describe('/metrics', () => {
  it('counts requests by surface, operation and outcome with durations; shows pools and outboxes', async () => {
    // A pending event of content's outbox, due 90 s ago and leased for an hour so the relay leaves it.
    const eventId = `evt_obs_${randomBytes(4).toString('hex')}`;
    await t.sql(
      `INSERT INTO content.outbox_event (event_id, tenant_id, type, payload, next_attempt_at, lease_until)
       VALUES ($1, $2, 'content.test', '{}', now() - interval '90 seconds', now() + interval '1 hour')`,
      [eventId, t.tenant.tenant_id],
    );
    for (let i = 0; i < 3; i++) expect((await t.read('/internal/whoami')).status).toBe(200);
    await t.command('no.such.command', {});
    const odd = `/v1/read/odd-${randomBytes(6).toString('hex')}`;
    await (await fetch(`${t.url}${odd}`)).text();
    await (await fetch(`${t.url}/nowhere-${randomBytes(6).toString('hex')}`)).text();
    await t.graphql('{ read_internal_whoami { actor_id } }');

    const first = await scrape(t.url);
    const count = (labels: Record<string, string>) =>
      first.samples('backoffice_requests_total').find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;
    expect(count({ surface: 'rest', operation: 'read.internal.whoami', outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    expect(count({ surface: 'rest', operation: 'unknown', outcome: 'not_found' })).toBeGreaterThanOrEqual(2);
    expect(count({ surface: 'other', operation: 'unknown', outcome: 'not_found' })).toBeGreaterThanOrEqual(1);
    expect(count({ surface: 'graphql', operation: 'read.internal.whoami', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    const buckets = first
      .samples('backoffice_request_duration_seconds_bucket')
      .filter((s) => s.labels.operation === 'read.internal.whoami' && s.labels.surface === 'rest');
    expect(buckets.find((s) => s.labels.le === '+Inf')!.value).toBeGreaterThanOrEqual(3);
    expect(first.samples('backoffice_request_duration_seconds_count').length).toBeGreaterThan(0);
    // Label values are bounded: no raw path ever becomes one.
    expect(first.text).not.toContain(odd);
    expect(first.text).not.toContain('nowhere-');
    expect(first.text).not.toContain('no.such.command');
    // Operations as the subgraphs ran them.
    expect(
      first
        .samples('backoffice_subgraph_operation_duration_seconds_count')
        .find((s) => s.labels.subgraph === 'identity' && s.labels.operation === 'read.internal.whoami')?.value,
    ).toBeGreaterThanOrEqual(3);

    for (const subgraph of ['identity', 'catalog', 'orders', 'content']) {
      const of = (name: string) => first.samples(name).find((s) => s.labels.subgraph === subgraph)?.value;
      expect(of('backoffice_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(of('backoffice_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
      expect(of('backoffice_db_pool_waiting_requests')).toBe(0);
      expect(of('backoffice_db_pool_max_connections')).toBeGreaterThanOrEqual(1);
      expect(of('backoffice_outbox_pending_events')).toEqual(expect.any(Number));
    }
    const outbox = (name: string) => first.samples(name).find((s) => s.labels.subgraph === 'content')!.value;
    expect(outbox('backoffice_outbox_pending_events')).toBeGreaterThanOrEqual(1);
    expect(outbox('backoffice_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(89);
    expect(first.samples('nodejs_eventloop_lag_seconds').length).toBe(1);

    // Scrapes within a few seconds reuse the outbox query's answer: a scrape storm costs the database nothing.
    await t.sql('DELETE FROM content.outbox_event WHERE event_id = $1', [eventId]);
    const again = await scrape(t.url);
    expect(again.samples('backoffice_outbox_pending_events').find((s) => s.labels.subgraph === 'content')!.value).toBe(
      outbox('backoffice_outbox_pending_events'),
    );
  });

  it('exposes what consumers, webhooks and jobs report through the metrics API', async () => {
    metrics.consumerDelivery({ subgraph: 'orders', consumer: 'send-receipt', outcome: 'handled', seconds: 0.02 });
    metrics.consumerDelivery({ subgraph: 'orders', consumer: 'send-receipt', outcome: 'failed' });
    metrics.webhookDelivery({ subscription: 'whs_1', outcome: 'delivered', seconds: 0.3 });
    metrics.webhookDelivery({ subscription: 'whs_2', outcome: 'failed', seconds: 5 });
    metrics.jobRun({ subgraph: 'orders', job: 'expire_unpaid', outcome: 'ok', seconds: 1.5, finishedAt: new Date(1_800_000_000_000) });
    metrics.jobRun({ subgraph: 'orders', job: 'expire_unpaid', outcome: 'failed', seconds: 0.1, finishedAt: new Date(1_800_000_060_000) });
    metrics.forgetWebhookSubscription('whs_2');
    const { samples } = await scrape(t.url);
    const value = (name: string, labels: Record<string, string>) =>
      samples(name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('backoffice_consumer_deliveries_total', { consumer: 'send-receipt', outcome: 'handled', subgraph: 'orders' })).toBe(1);
    expect(value('backoffice_consumer_deliveries_total', { consumer: 'send-receipt', outcome: 'failed' })).toBe(1);
    expect(value('backoffice_consumer_delivery_duration_seconds_count', { consumer: 'send-receipt', outcome: 'handled' })).toBe(1);
    expect(value('backoffice_webhook_deliveries_total', { subscription: 'whs_1', outcome: 'delivered' })).toBe(1);
    expect(value('backoffice_webhook_deliveries_total', { subscription: 'whs_2' })).toBeUndefined();
    expect(value('backoffice_job_runs_total', { job: 'expire_unpaid', outcome: 'ok' })).toBe(1);
    expect(value('backoffice_job_run_duration_seconds_sum', { job: 'expire_unpaid', outcome: 'ok' })).toBe(1.5);
    expect(value('backoffice_job_last_run_timestamp_seconds', { subgraph: 'orders', job: 'expire_unpaid' })).toBe(1_800_000_060);
    expect(value('backoffice_job_last_success_timestamp_seconds', { subgraph: 'orders', job: 'expire_unpaid' })).toBe(1_800_000_000);
  });

  it('takes the bearer METRICS_TOKEN when it is set, on the gateway and on a subgraph served alone', async () => {
    const server = await serveSubgraph(t.system.runtimes.get('catalog')!, 0);
    const subgraphBase = server.url.replace(/\/graphql$/, '');
    const token = `metrics-${randomBytes(12).toString('hex')}`;
    process.env.METRICS_TOKEN = token;
    try {
      for (const base of [t.url, subgraphBase]) {
        for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token, `Basic ${token}`]) {
          const res = await fetch(`${base}/metrics`, { headers: authorization ? { authorization } : {} });
          expect(res.status).toBe(401);
          const body = (await res.json()) as { error: { kind: string; message: string } };
          expect(body).toEqual({ error: { kind: 'unauthorized', message: expect.any(String) } });
        }
        const ok = await scrape(base, token);
        expect(ok.samples('backoffice_db_pool_connections').length).toBeGreaterThan(0);
      }
    } finally {
      delete process.env.METRICS_TOKEN;
      await server.close();
    }
    const open = await fetch(`${t.url}/metrics`);
    expect(open.status).toBe(200);
    await open.text();
  });
});
