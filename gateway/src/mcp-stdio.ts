import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpError, type CallToolResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { refusal, toolList, toolNamingOf, toolServer } from './mcp-tools';
import { readSurfaceViews } from './surface-views';

/**
 * The MCP tools over stdio, for agents that launch a local process: each call is forwarded to a
 * running gateway's POST /mcp with the token, so this process holds no system of its own and answers
 * exactly what the HTTP endpoint answers.
 */
/** A tool call the gateway has not answered by then is given up (a command may still have run). */
const CALL_TIMEOUT_MS = 120_000;

export async function serveMcpStdio(options: { url: string; token?: string }): Promise<void> {
  // stdout carries the protocol alone: whatever a library prints goes to stderr.
  console.log = console.info = console.debug = console.error;
  const endpoint = `${options.url.replace(/\/+$/, '')}/mcp`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  // The tools from surfaces.json: this process loads no subgraph.
  const server = toolServer(toolList(readSurfaceViews(), toolNamingOf()), async (name, args): Promise<CallToolResult> => {
    // The endpoint is stateless: one tools/call message needs no session. It understands either
    // spelling of a tool name, whatever its own MCP_TOOL_NAMES.
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
    let response: Response;
    let body: { result?: CallToolResult; error?: { code: number; message: string; data?: unknown } };
    try {
      response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (error) {
      // fetch says only "fetch failed"; its cause names the reason (e.g. ECONNREFUSED). The SDK and CLI say `unreachable` too.
      const reason = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      return refusal({ error: { kind: 'unreachable', message: `no answer from ${endpoint}: ${reason}` } });
    }
    try {
      body = (await response.json()) as typeof body;
    } catch {
      // Something answered, but not the gateway (a wrong BACKOFFICE_URL, a proxy's page).
      return refusal({ error: { kind: 'internal', message: `${endpoint} answered ${response.status} without the gateway's JSON` } });
    }
    // Refused before the message ran (credential, rate): the body is the documented error body.
    if (!response.ok) return refusal(body);
    if (body.error) throw new McpError(body.error.code, body.error.message, body.error.data);
    return body.result as CallToolResult;
  });
  const transport = new StdioServerTransport();
  // The SDK drops a line it cannot read; JSON-RPC answers it (id null), and the session goes on.
  transport.onerror = (error) => {
    const invalid =
      error instanceof SyntaxError ? { code: -32700, message: 'Parse error' } : error.name === 'ZodError' ? { code: -32600, message: 'Invalid Request' } : null;
    // Sound: a JSON-RPC error answer with a null id, which the SDK's message union leaves out though the spec allows it.
    if (invalid) void transport.send({ jsonrpc: '2.0', id: null, error: invalid } as unknown as JSONRPCMessage);
  };
  await server.connect(transport);
  console.error(`backoffice MCP on stdio, calling ${endpoint}`);
}
