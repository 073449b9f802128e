import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPERATIONS } from '../gateway/src/subgraphs';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

/** A real MCP client over Streamable HTTP, with the key as on every surface. */
async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: 'backoffice-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers } }));
  return client;
}

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
      const kindOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.isError ? (result.structuredContent as { error: { kind: string } }).error.kind : 'ok');
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
