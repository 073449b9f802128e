import { OPERATIONS } from '../gateway/src/subgraphs';
import { mcpClient, startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const connect = (token: string | null) => mcpClient(t.url, token);

describe('MCP tools', () => {
  it('lists every operation as a tool of the same name, with its input schema', async () => {
    const client = await connect(t.tenant.token);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const { operation } of OPERATIONS.values()) {
        if (operation.kind === 'command' || operation.restPath) expect(names).toContain(operation.name);
      }
      expect(names).toEqual(expect.arrayContaining(['read.internal.audit', 'read.internal.events']));
      const rotate = tools.find((tool) => tool.name === 'iam.api_key.rotate')!;
      expect(rotate.inputSchema).toMatchObject({ type: 'object', required: ['api_key_id'], properties: { overlap_hours: { minimum: 0, maximum: 8760, default: 24 } } });
    } finally {
      await client.close();
    }
  });

  it('calls operations with the caller’s key and answers the REST body', async () => {
    const client = await connect(t.tenant.token);
    try {
      const who = await client.callTool({ name: 'read.internal.whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(who.structuredContent).toEqual((await t.read('/internal/whoami')).body);
      const created = await client.callTool({ name: 'iam.api_key.create', arguments: { name: 'agent', scopes: ['audit.read'] } });
      expect((created.structuredContent as { name: string }).name).toBe('agent');
      const product = await client.callTool({ name: 'catalog.product.create', arguments: { title: 'Tool-made', handle: 'tool-made', status: 'active' } });
      expect((product.structuredContent as { product_id: string }).product_id).toMatch(/^prd_/);
    } finally {
      await client.close();
    }
  });

  it('refuses with the reference kinds: schema, scope, credential, unknown tool', async () => {
    const client = await connect(t.tenant.token);
    const weakKey = await t.command('iam.api_key.create', { name: 'weak-agent', scopes: [] });
    const weak = await connect(weakKey.body.token);
    const anonymous = await connect(null);
    try {
      const kindOf = (result: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['callTool']>>) => (result.isError ? (result.structuredContent as { error: { kind: string } }).error.kind : 'ok');
      expect(kindOf(await client.callTool({ name: 'iam.api_key.rotate', arguments: { api_key_id: 'k', overlap_hours: -1 } }))).toBe('validation_failed');
      expect(kindOf(await client.callTool({ name: 'iam.api_key.revoke', arguments: { api_key_id: 'key_missing' } }))).toBe('conflict');
      expect(kindOf(await weak.callTool({ name: 'iam.api_key.create', arguments: { name: 'x', scopes: [] } }))).toBe('forbidden');
      expect(kindOf(await anonymous.callTool({ name: 'read.internal.whoami', arguments: {} }))).toBe('unauthorized');
      expect(kindOf(await anonymous.callTool({ name: 'read.products', arguments: { store: t.tenant.store_id, limit: 5 } }))).toBe('ok');
      expect(kindOf(await client.callTool({ name: 'no.such.tool', arguments: {} }))).toBe('not_found');
    } finally {
      await Promise.all([client.close(), weak.close(), anonymous.close()]);
    }
  });
});

describe('MCP messages spend the caller’s rate like any request', () => {
  const rpc = (token: string, body: unknown) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const remaining = (res: Response) => Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
  const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  it('charges initialize and tools/list, one token per message of a batch', async () => {
    const { MemoryRateLimiter } = await import('../gateway/src/rate-limit');
    const { startTestSystem: start } = await import('./helpers');
    const limited = await start({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.001, burst: 30 }) });
    try {
      const send = (body: unknown) =>
        fetch(`${limited.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${limited.tenant.token}` },
          body: JSON.stringify(body),
        });
      const init = await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      expect(init.status).toBe(200);
      const first = remaining(init);
      const one = await send(list(2));
      expect(remaining(one)).toBe(first - 1);
      // The header shows the bucket before the batch's other messages were charged.
      const batch = await send([list(3), list(4), list(5), list(6), list(7)]);
      expect(batch.status).toBe(200);
      const after = await send(list(8));
      expect(remaining(after)).toBe(remaining(batch) - 5);
      // Spent down, the next message is refused with 429 and the documented body.
      let refused: Response | undefined;
      for (let i = 0; i < 40 && !refused; i++) {
        const res = await send(list(100 + i));
        if (res.status === 429) refused = res;
      }
      expect(refused).toBeDefined();
      expect(((await refused!.json()) as { error: { kind: string } }).error.kind).toBe('rate_limited');
    } finally {
      await limited.stop();
    }
  });

  it('bounds a JSON-RPC batch at 10 messages', async () => {
    const ten = await rpc(t.tenant.token, Array.from({ length: 10 }, (_, i) => list(i)));
    expect(ten.status).toBe(200);
    expect(((await ten.json()) as unknown[]).length).toBe(10);
    const eleven = await rpc(t.tenant.token, Array.from({ length: 11 }, (_, i) => list(i)));
    expect(eleven.status).toBe(400);
    expect(await eleven.json()).toEqual({ error: { kind: 'validation_failed', message: 'a JSON-RPC batch holds 1 to 10 messages, not 11' } });
  });

  it('refuses a bad credential before any message is handled', async () => {
    const res = await rpc('bok_nope', list(1));
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toMatch(/remaining=/);
  });
});
