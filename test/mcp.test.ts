import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolNamingOf } from '../gateway/src/mcp-tools';
import { OPERATIONS } from '../gateway/src/subgraphs';
import { mcpClient, startTestSystem, toolErrorBody, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const connect = (token: string | null) => mcpClient(t.url, token);
/** A refusal's error kind, from the REST error body its text carries ('ok' for a success). */
const kindOf = (result: Partial<CallToolResult>) => (result.isError ? toolErrorBody(result).error.kind : 'ok');

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
      expect(rotate.inputSchema).toMatchObject({
        type: 'object',
        required: ['api_key_id'],
        properties: { overlap_hours: { minimum: 0, maximum: 8760, default: 24 } },
      });
    } finally {
      await client.close();
    }
  });

  it('calls operations with the caller’s key and answers the REST body', async () => {
    const client = await connect(t.tenant.token);
    try {
      // Once it has the list, the SDK client refuses (throws) a structuredContent its tool's outputSchema does not describe.
      await client.listTools();
      const who = await client.callTool({ name: 'read.internal.whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(who.structuredContent).toEqual((await t.read('/internal/whoami')).body);
      // The same body as text, for clients older than structuredContent.
      expect(JSON.parse((who.content as Array<{ type: string; text: string }>)[0].text)).toEqual(who.structuredContent);
      const created = await client.callTool({ name: 'iam.api_key.create', arguments: { name: 'agent', scopes: ['audit.read'] } });
      expect((created.structuredContent as { name: string }).name).toBe('agent');
      const product = await client.callTool({ name: 'catalog.product.create', arguments: { title: 'Tool-made', handle: 'tool-made', status: 'active' } });
      expect((product.structuredContent as { product_id: string }).product_id).toMatch(/^prd_/);
      // Results of other shapes: a merged read, and a read's projection beside its full result.
      await t.command('catalog.product.publish', { product_id: (product.structuredContent as { product_id: string }).product_id, store_id: t.tenant.store_id });
      expect((await client.callTool({ name: 'read.internal.audit', arguments: { limit: 5 } })).structuredContent).toMatchObject({ page: 1, limit: 5 });
      for (const projection of ['full', 'feed']) {
        const page = await client.callTool({ name: 'read.products', arguments: { store: t.tenant.store_id, projection } });
        expect(page.structuredContent).toEqual((await t.read('/products', { store: t.tenant.store_id, projection })).body);
        expect((page.structuredContent as { items: unknown[] }).items).toHaveLength(1);
      }
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
      // With the list (and so the output schemas) known, a refusal must still come back as a tool error, not a throw.
      await Promise.all([client.listTools(), weak.listTools(), anonymous.listTools()]);
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

describe('MCP tool metadata', () => {
  it('annotates reads read-only, and commands with the destructive and idempotent hints the rule gives', async () => {
    const client = await connect(t.tenant.token);
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      // Every tool says whether it writes, as its declaration's kind does (a merged read is a read).
      for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(OPERATIONS.get(tool.name)?.operation.kind !== 'command');
      expect(byName.get('read.internal.whoami')).toMatchObject({
        title: 'Read internal whoami',
        annotations: { title: 'Read internal whoami', readOnlyHint: true },
      });
      // Taking away is destructive; the summary saying a repeat changes nothing makes it idempotent.
      expect(byName.get('iam.api_key.revoke')!.annotations).toEqual({
        title: 'Iam api key revoke',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(byName.get('order.cancel')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
      expect(byName.get('order.expire_unpaid')!.annotations).toMatchObject({ destructiveHint: true });
      expect(byName.get('webhook.subscription.delete')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
      expect(byName.get('order.mark_paid')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
      expect(byName.get('iam.api_key.create')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
      expect(byName.get('content.page.unarchive')!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    } finally {
      await client.close();
    }
  });

  it('states each tool’s result as an object outputSchema', async () => {
    const client = await connect(t.tenant.token);
    try {
      const { tools } = await client.listTools();
      // Every result declared so far is an object, so every tool has one.
      for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
      expect(tools.find((tool) => tool.name === 'read.internal.whoami')!.outputSchema).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['actor_id', 'tenant_id', 'scopes']),
        properties: { scopes: { type: 'array' } },
      });
      // A read with projections answers either shape.
      expect(tools.find((tool) => tool.name === 'read.products')!.outputSchema!.anyOf).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe('MCP_TOOL_NAMES=underscore', () => {
  it('refuses a value it does not know', () => {
    expect(toolNamingOf(undefined)).toBe('dotted');
    expect(() => toolNamingOf('underscores')).toThrow('MCP_TOOL_NAMES is dotted (the default) or underscore, not underscores');
  });

  it('names the tools without dots, and calls them by that name', async () => {
    process.env.MCP_TOOL_NAMES = 'underscore';
    const underscored = await startTestSystem().finally(() => delete process.env.MCP_TOOL_NAMES);
    const client = await mcpClient(underscored.url, underscored.tenant.token);
    const dotted = await connect(t.tenant.token);
    try {
      const [{ tools }, { tools: dottedTools }] = await Promise.all([client.listTools(), dotted.listTools()]);
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('order_mark_paid');
      expect(names).not.toContain('order.mark_paid');
      // The name rule of the clients that refuse dots.
      for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      // Only the names differ.
      expect(tools.map(({ name: _name, ...rest }) => rest)).toEqual(dottedTools.map(({ name: _name, ...rest }) => rest));
      const who = await client.callTool({ name: 'read_internal_whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ tenant_id: underscored.tenant.tenant_id });
      const key = await client.callTool({ name: 'iam_api_key_create', arguments: { name: 'underscored', scopes: [] } });
      expect(key.structuredContent).toMatchObject({ name: 'underscored' });
      // The dotted name still works (the stdio server forwards it whatever the gateway's naming).
      expect(kindOf(await client.callTool({ name: 'read.internal.whoami', arguments: {} }))).toBe('ok');
      expect(kindOf(await client.callTool({ name: 'read_internal_nope', arguments: {} }))).toBe('not_found');
    } finally {
      await Promise.all([client.close(), dotted.close()]);
      await underscored.stop();
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
    const { MemoryRateLimiter } = await import('../platform/src/rate-limit');
    const { startTestSystem: start } = await import('./helpers');
    const limited = await start({ limiter: new MemoryRateLimiter({ ratePerSecond: 0.001, burst: 30 }) });
    try {
      const send = (body: unknown) =>
        fetch(`${limited.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${limited.tenant.token}` },
          body: JSON.stringify(body),
        });
      const init = await send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      expect(init.status).toBe(200);
      const first = remaining(init);
      const one = await send(list(2));
      expect(remaining(one)).toBe(first - 1);
      // The header shows the bucket after all the batch's messages were charged.
      const batch = await send([list(3), list(4), list(5), list(6), list(7)]);
      expect(batch.status).toBe(200);
      expect(remaining(batch)).toBe(remaining(one) - 5);
      const after = await send(list(8));
      expect(remaining(after)).toBe(remaining(batch) - 1);
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
    const ten = await rpc(
      t.tenant.token,
      Array.from({ length: 10 }, (_, i) => list(i)),
    );
    expect(ten.status).toBe(200);
    expect(((await ten.json()) as unknown[]).length).toBe(10);
    const eleven = await rpc(
      t.tenant.token,
      Array.from({ length: 11 }, (_, i) => list(i)),
    );
    expect(eleven.status).toBe(400);
    expect(await eleven.json()).toEqual({ error: { kind: 'validation_failed', message: 'a JSON-RPC batch holds 1 to 10 messages, not 11' } });
  });

  it('refuses a bad credential before any message is handled', async () => {
    const res = await rpc('bok_nope', list(1));
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit')).toMatch(/remaining=/);
  });
});
