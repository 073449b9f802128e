import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mcpClient, startTestSystem, toolErrorBody, type TestSystem } from './helpers';

const ROOT = join(__dirname, '..');

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

/**
 * `backoffice mcp` launched as a desktop agent launches it, with a real SDK client on its stdin and
 * stdout. `errors` collects what the client could not read: anything on stdout but the protocol.
 */
async function launch(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // As `npm run backoffice -- mcp` runs it (compiled when dist/ is fresh).
    args: ['scripts/run.mjs', 'gateway/src/cli', 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'backoffice-stdio-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, errors, stderr: () => stderr };
}

/** A refusal's error kind, from the REST error body its text carries ('ok' for a success). */
const kindOf = (result: Partial<CallToolResult>) => (result.isError ? toolErrorBody(result).error.kind : 'ok');

describe('MCP over stdio (backoffice mcp)', () => {
  it('offers the HTTP endpoint’s tools and runs them on the running system with BACKOFFICE_TOKEN', async () => {
    const { client, errors, stderr } = await launch({ BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token, MCP_TOOL_NAMES: '' });
    const http = await mcpClient(t.url, t.tenant.token);
    try {
      // The same list, schemas and annotations as over HTTP.
      const { tools } = await client.listTools();
      expect(tools).toEqual((await http.listTools()).tools);
      expect(tools.find((tool) => tool.name === 'read.internal.whoami')?.annotations?.readOnlyHint).toBe(true);

      const who = await client.callTool({ name: 'read.internal.whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(who.structuredContent).toEqual((await t.read('/internal/whoami')).body);

      // A command's effect is the running system's: the key it makes works there.
      const created = await client.callTool({ name: 'iam.api_key.create', arguments: { name: 'stdio-agent', scopes: ['audit.read'] } });
      const key = created.structuredContent as { name: string; token: string };
      expect(key.name).toBe('stdio-agent');
      expect((await t.read('/internal/whoami', {}, key.token)).body).toMatchObject({ name: 'stdio-agent', scopes: ['audit.read'] });

      // A refusal is a tool error carrying the REST error body.
      const refused = await client.callTool({ name: 'iam.api_key.revoke', arguments: { api_key_id: 'key_missing' } });
      expect(refused.isError).toBe(true);
      expect(kindOf(refused)).toBe('conflict');
      expect(kindOf(await client.callTool({ name: 'iam.api_key.rotate', arguments: { api_key_id: 'k', overlap_hours: -1 } }))).toBe('validation_failed');
      expect(kindOf(await client.callTool({ name: 'no.such.tool', arguments: {} }))).toBe('not_found');

      // Nothing but protocol reached stdout; the log line went to stderr.
      expect(errors).toEqual([]);
      expect(stderr()).toContain(`backoffice MCP on stdio, calling ${t.url}/mcp`);
    } finally {
      await Promise.all([client.close(), http.close()]);
    }
  });

  it('names tools with underscores under MCP_TOOL_NAMES=underscore, and passes on the gateway’s refusal of a bad token', async () => {
    const underscored = await launch({ BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token, MCP_TOOL_NAMES: 'underscore' });
    const badToken = await launch({ BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: 'bok_nope' });
    const unreachable = await launch({ BACKOFFICE_URL: 'http://127.0.0.1:1', BACKOFFICE_TOKEN: t.tenant.token });
    try {
      const names = (await underscored.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('order_mark_paid');
      expect(names).not.toContain('order.mark_paid');
      // The gateway (dotted names) runs it all the same.
      const who = await underscored.client.callTool({ name: 'read_internal_whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ tenant_id: t.tenant.tenant_id });

      // The gateway refuses the credential before any tool runs (HTTP 401): still a tool error with its body.
      expect(kindOf(await badToken.client.callTool({ name: 'read.internal.whoami', arguments: {} }))).toBe('unauthorized');
      const down = await unreachable.client.callTool({ name: 'read.internal.whoami', arguments: {} });
      expect(kindOf(down)).toBe('unreachable');
      expect((down.content as Array<{ text: string }>)[0].text).toContain('no answer from http://127.0.0.1:1/mcp');
    } finally {
      await Promise.all([underscored.client.close(), badToken.client.close(), unreachable.client.close()]);
    }
  });

  it('answers a line that is not JSON with a JSON-RPC Parse error (id null), and goes on', async () => {
    const child = spawn(process.execPath, ['scripts/run.mjs', 'gateway/src/cli', 'mcp'], {
      cwd: ROOT,
      env: { ...process.env, BACKOFFICE_URL: t.url, BACKOFFICE_TOKEN: t.tenant.token },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const next = async () => JSON.parse(((await lines.next()).value as string) ?? 'null');
    try {
      child.stdin!.write('this is not json\n');
      expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      child.stdin!.write('{"jsonrpc":"2.0","id":7}\n');
      expect(await next()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
      child.stdin!.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
      expect(await next()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'backoffice' } } });
    } finally {
      child.kill();
    }
  });
});
