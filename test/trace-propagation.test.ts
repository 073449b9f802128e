import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tracingEnabled } from '../platform/src/observability/tracing';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { SUBGRAPHS } from '../gateway/src/subgraphs';
import { startSystem, type System } from '../gateway/src/system';

/**
 * Tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT): no spans, but a caller's `traceparent` still reaches
 * the subgraphs in other processes as it came, so their traces continue the caller's. The subgraph
 * here is a stand-in that records what it is sent.
 */
const actor = { tenant_id: 'ten_1', api_key_id: 'key_1', credential_id: 'cred_1', name: 'stand-in', scopes: [], is_owner: false };
const seen: IncomingHttpHeaders[] = [];
let subgraph: Server;
let gateway: System;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  subgraph = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/internal/authenticate') return res.end(JSON.stringify({ actor }));
      if (req.url === '/graphql') {
        seen.push(req.headers);
        return res.end(
          JSON.stringify({ data: { read_internal_whoami: { actor_id: 'key_1', name: 'stand-in', tenant_id: 'ten_1', credential_id: 'cred_1', scopes: [] } } }),
        );
      }
      res.end('{}');
    });
  });
  await new Promise<void>((ok) => subgraph.listen(0, '127.0.0.1', ok));
  const { port } = subgraph.address() as { port: number };
  for (const { name } of SUBGRAPHS) {
    const variable = `${name.toUpperCase()}_URL`;
    saved[variable] = process.env[variable];
    process.env[variable] = `http://127.0.0.1:${port}`;
  }
  gateway = await startSystem({
    remoteSubgraphs: true,
    port: 0,
    contextSecret: randomBytes(32).toString('base64url'),
    limiter: new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
    log: () => undefined,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await new Promise((ok) => subgraph.close(ok));
  for (const [variable, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[variable];
    else process.env[variable] = value;
  }
});

const traceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

it('passes the caller’s traceparent and tracestate on, over REST and GraphQL', async () => {
  expect(tracingEnabled()).toBe(false);
  const rest = traceparent();
  seen.length = 0;
  const res = await fetch(`${gateway.url}/v1/read/internal/whoami`, {
    headers: { authorization: 'Bearer anything', traceparent: rest, tracestate: 'vendor=1' },
  });
  expect(res.status).toBe(200);
  await res.text();
  expect(seen.map((h) => [h.traceparent, h.tracestate])).toEqual([[rest, 'vendor=1']]);

  const graphql = traceparent();
  seen.length = 0;
  const gql = await fetch(`${gateway.url}/graphql`, {
    method: 'POST',
    headers: { authorization: 'Bearer anything', 'content-type': 'application/json', traceparent: graphql },
    body: JSON.stringify({ query: '{ read_internal_whoami { actor_id } }' }),
  });
  expect(((await gql.json()) as any).data.read_internal_whoami.actor_id).toBe('key_1');
  expect(seen.map((h) => [h.traceparent, h.tracestate])).toEqual([[graphql, undefined]]);
});

it('sends none when the caller sent none, or a malformed one', async () => {
  const variants: Array<Record<string, string>> = [{}, { traceparent: 'not-a-trace' }, { traceparent: `00-${'0'.repeat(31)}-${'1'.repeat(16)}-01x` }];
  for (const headers of variants) {
    seen.length = 0;
    const res = await fetch(`${gateway.url}/v1/read/internal/whoami`, { headers: { authorization: 'Bearer anything', ...headers } });
    expect(res.status).toBe(200);
    await res.text();
    expect(seen).toHaveLength(1);
    expect(seen[0].traceparent).toBeUndefined();
  }
});
