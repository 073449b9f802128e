import { randomBytes } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { authenticatorOf } from '@backoffice/identity';
import { startTracing, stopTracing } from '@backoffice/platform';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { serveSubgraph, type InternalRoutes } from '../platform/src/serve-subgraph';
import { SUBGRAPHS } from '../gateway/src/subgraphs';
import { startSystem, type System } from '../gateway/src/system';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * With tracing on (here an in-memory exporter; in production OTEL_EXPORTER_OTLP_ENDPOINT), a request
 * carrying a `traceparent` yields a request span, a subgraph fetch span and SQL spans, all in the
 * caller's trace under its span — in one process, and across HTTP to a subgraph served alone.
 */
const exporter = new InMemorySpanExporter();
let t: TestSystem;

beforeAll(async () => {
  startTracing({ exporter });
  t = await startTestSystem();
});
afterAll(async () => {
  await t.stop();
  await stopTracing();
});

function caller() {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, traceparent: `00-${traceId}-${parentId}-01` };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** Whether `ancestor` is above `span` in the trace. */
function descends(span: ReadableSpan, ancestor: ReadableSpan, spans: ReadableSpan[]): boolean {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  for (let at: ReadableSpan | undefined = span; at; at = byId.get(parentOf(at) ?? '')) {
    if (parentOf(at) === ancestor.spanContext().spanId) return true;
  }
  return false;
}

/** The spans of a trace once its spans of every kind are in (spans end after the answer is sent). */
async function traceOf(traceId: string, done: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  return eventually(async () => {
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    return done(spans) ? spans : undefined;
  });
}

const isSql = (s: ReadableSpan) => s.attributes['db.system.name'] === 'postgresql';

describe('in one process', () => {
  it('a REST command: request span under the caller, subgraph span under it, its SQL under that', async () => {
    const { traceId, parentId, traceparent } = caller();
    const res = await fetch(`${t.url}/v1/commands/iam.api_key.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tenant.token}`, 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ name: 'traced', scopes: [] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const spans = await traceOf(traceId, (s) => s.some((x) => x.kind === SpanKind.SERVER) && s.some(isSql));
    const request = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(parentOf(request)).toBe(parentId);
    expect(request.name).toBe('POST /v1/commands/:name');
    expect(request.attributes).toMatchObject({ 'backoffice.operation': 'iam.api_key.create', 'backoffice.surface': 'rest', 'http.response.status_code': 200 });
    const fetchSpan = spans.find((s) => s.name === 'subgraph identity')!;
    expect(descends(fetchSpan, request, spans)).toBe(true);
    // Every statement is the request's: the credential lookup before the fetch, the command's own under it.
    const sql = spans.filter(isSql);
    for (const statement of sql) {
      expect(descends(statement, request, spans)).toBe(true);
      expect(statement.attributes['db.namespace']).toBe('identity');
      expect(String(statement.attributes['db.query.text'])).not.toContain(t.tenant.token);
    }
    const command = sql.filter((s) => /outbox_event/.test(String(s.attributes['db.query.text'])));
    expect(command.length).toBeGreaterThan(0);
    for (const statement of command) expect(descends(statement, fetchSpan, spans)).toBe(true);
  });

  /** A traced GraphQL read of the identity and catalog audits: its spans once the catalog's and a statement are in, and the request's. */
  async function twoSubgraphs(query: string) {
    const { traceId, parentId, traceparent } = caller();
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tenant.token}`, 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const spans = await traceOf(traceId, (s) => s.some((x) => x.kind === SpanKind.SERVER) && s.some((x) => x.name === 'subgraph catalog') && s.some(isSql));
    return { spans, parentId, request: spans.find((s) => s.kind === SpanKind.SERVER)! };
  }

  it('a GraphQL read of two subgraphs on the gateway’s path: its own spans between the request and each subgraph', async () => {
    // A directive: the lane leaves the document to Apollo.
    const { spans, parentId, request } = await twoSubgraphs(
      '{ identity_audit(input: { limit: 1 }) { total @include(if: true) } catalog_audit(input: { limit: 1 }) { total } }',
    );
    expect(parentOf(request)).toBe(parentId);
    expect(request.name).toBe('POST /graphql');
    const fetches = new Set(spans.filter((s) => s.name === 'gateway.fetch').map((s) => s.spanContext().spanId));
    for (const name of ['subgraph identity', 'subgraph catalog']) {
      const fetchSpan = spans.find((s) => s.name === name)!;
      expect(descends(fetchSpan, request, spans)).toBe(true);
      expect(fetches.has(parentOf(fetchSpan)!)).toBe(true);
    }
    const sql = spans.filter(isSql);
    for (const statement of sql) expect(descends(statement, request, spans)).toBe(true);
  });

  it('a GraphQL read of two subgraphs the lane runs: each subgraph’s span right under the request', async () => {
    const { spans, request } = await twoSubgraphs('{ identity_audit(input: { limit: 1 }) { total } catalog_audit(input: { limit: 1 }) { total } }');
    for (const name of ['subgraph identity', 'subgraph catalog']) expect(parentOf(spans.find((s) => s.name === name)!)).toBe(request.spanContext().spanId);
    expect(spans.some((s) => s.name.startsWith('gateway.'))).toBe(false);
  });

  it('a GraphQL read the lane answers: the subgraph’s span right under the request, its SQL under it', async () => {
    const { traceId, traceparent } = caller();
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tenant.token}`, 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ query: '{ identity_audit(input: { limit: 1 }) { total } }' }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const spans = await traceOf(traceId, (s) => s.some((x) => x.kind === SpanKind.SERVER) && s.some(isSql));
    const request = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const fetchSpan = spans.find((s) => s.name === 'subgraph identity')!;
    expect(parentOf(fetchSpan)).toBe(request.spanContext().spanId);
    expect(spans.some((s) => s.name.startsWith('gateway.'))).toBe(false);
    const sql = spans.filter(isSql);
    expect(sql.some((s) => /audit_entry/.test(String(s.attributes['db.query.text'])) && descends(s, fetchSpan, spans))).toBe(true);
  });

  it('no traceparent: a trace of its own; background work (the relay, scrapes) makes no SQL spans', async () => {
    exporter.reset();
    await t.read('/internal/whoami');
    await (await fetch(`${t.url}/metrics`)).text();
    await new Promise((r) => setTimeout(r, 1200)); // a relay poll
    const spans = exporter.getFinishedSpans();
    const requests = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) expect(parentOf(request)).toBeUndefined();
    const roots = new Set(requests.map((s) => s.spanContext().traceId));
    for (const statement of spans.filter(isSql)) expect(roots.has(statement.spanContext().traceId)).toBe(true);
  });
});

describe('across HTTP', () => {
  let gateway: System;
  const servers: Array<{ close(): Promise<void> }> = [];
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    // Each subgraph served alone (identity with the internal endpoints the gateway calls), and a gateway fronting them.
    for (const { name } of SUBGRAPHS) {
      const runtime = t.system.runtimes.get(name)!;
      const internal: InternalRoutes =
        name === 'identity'
          ? {
              authenticate: async (body: Record<string, unknown>) => ({ actor: await authenticatorOf(runtime).authenticate(String(body.token ?? '')) }),
              audit: async (body: Record<string, unknown>) => {
                runtime.audit.record(body as never);
                return { recorded: true };
              },
            }
          : {};
      const server = await serveSubgraph(runtime, 0, internal);
      servers.push(server);
      const variable = `${name.toUpperCase()}_URL`;
      saved[variable] = process.env[variable];
      process.env[variable] = server.url.replace(/\/graphql$/, '');
    }
    gateway = await startSystem({
      remoteSubgraphs: true,
      port: 0,
      contextSecret: t.contextSecret,
      limiter: new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
      log: () => undefined,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
    for (const server of servers) await server.close();
    for (const [variable, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[variable];
      else process.env[variable] = value;
    }
  });

  it('the subgraph served alone continues the trace under the gateway’s fetch span', async () => {
    const { traceId, parentId, traceparent } = caller();
    const res = await fetch(`${gateway.url}/v1/commands/iam.api_key.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.tenant.token}`, 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ name: 'traced-remote', scopes: [] }),
    });
    expect(res.status).toBe(200);
    await res.text();
    const spans = await traceOf(traceId, (s) => s.filter((x) => x.kind === SpanKind.SERVER).length === 2 && s.some(isSql));
    const [request, remote] = ['POST /v1/commands/:name', 'POST /graphql'].map((name) => spans.find((s) => s.kind === SpanKind.SERVER && s.name === name)!);
    expect(parentOf(request)).toBe(parentId);
    const fetchSpan = spans.find((s) => s.name === 'subgraph identity' && s.kind === SpanKind.CLIENT)!;
    expect(descends(fetchSpan, request, spans)).toBe(true);
    // The subgraph's server span is the fetch span's child, across the HTTP hop.
    expect(parentOf(remote)).toBe(fetchSpan.spanContext().spanId);
    const sql = spans.filter(isSql);
    expect(sql.length).toBeGreaterThan(0);
    for (const statement of sql) expect(descends(statement, remote, spans)).toBe(true);
  });
});
