import { asAppError, validationFailed } from '@backoffice/platform';
import { rateHeaders, type Gatekeeper } from './admission';
import { sendError } from './rest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import type { Caller, Invoker } from './invoker';
import { SURFACE_OPERATIONS, type SurfaceOperation } from './subgraphs';

function describe(tool: SurfaceOperation): { name: string; description: string; inputSchema: object } {
  const target = tool.kind === 'operation' ? tool.operation : { ...tool.read, access: 'internal', kind: 'read' };
  const access = target.access === 'public' ? 'Public.' : `Scope: ${target.scope ?? 'any valid API key'}.`;
  // A JSON round trip drops the schema builder's symbol keys.
  return { name: target.name, description: `${target.summary} ${access}`, inputSchema: JSON.parse(JSON.stringify(target.input)) };
}

/** The tool list never changes while the process runs. */
const TOOL_LIST = [...SURFACE_OPERATIONS.values()].map(describe);

function mcpServer(invoker: Invoker, caller: Caller, log: (line: string) => void): Server {
  const server = new Server({ name: 'backoffice', version: '0.3.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = SURFACE_OPERATIONS.get(request.params.name);
    const args = request.params.arguments ?? {};
    const refusal = (kind: string, message: string): CallToolResult => {
      const body = { error: { kind, message } };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    };
    if (!tool) {
      caller.record?.named('unknown');
      caller.record?.failed('not_found');
      return refusal('not_found', `unknown tool ${request.params.name}`);
    }
    try {
      const result = (tool.kind === 'operation' ? await invoker.invoke(tool.operation, args, caller) : await invoker.invokeMerged(tool.read, args, caller)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
    } catch (error) {
      const failure = asAppError(error, caller.requestId, log);
      caller.record?.failed(failure.kind);
      return refusal(failure.kind, failure.message);
    }
  });
  return server;
}

/** Messages one JSON-RPC batch may hold. */
export const MCP_MAX_BATCH = 10;

/**
 * The model-tool surface: MCP over Streamable HTTP at /mcp, stateless (a server per request), with
 * the caller's API key in the Authorization header as on every other surface.
 */
export function registerMcp(app: FastifyInstance, invoker: Invoker, gatekeeper: Gatekeeper, log: (line: string) => void): void {
  app.post('/mcp', async (request, reply) => {
    const requestId = reply.getHeader('x-request-id') as string;
    let caller: Caller;
    try {
      // Every JSON-RPC message is a request like any other: a batch is bounded and pays per message.
      const messages = Array.isArray(request.body) ? request.body.length : 1;
      if (messages < 1 || messages > MCP_MAX_BATCH) throw validationFailed(`a JSON-RPC batch holds 1 to ${MCP_MAX_BATCH} messages, not ${messages}`);
      const admission = await gatekeeper.admit(request.headers.authorization, request.ip, requestId, 'mcp');
      reply.headers(rateHeaders(admission.rate));
      await gatekeeper.charge(admission, messages - 1, 'mcp');
      request.observed?.admitted(admission.call.actor);
      caller = { authorization: request.headers.authorization, ip: request.ip, requestId, admission, record: request.observed };
    } catch (error) {
      return sendError(reply, asAppError(error, requestId, log));
    }
    const server = mcpServer(invoker, caller, log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself: hand it the headers set so far (request id, rate).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  const notAllowed = async (_: unknown, reply: import('fastify').FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ error: { kind: 'validation_failed', message: 'this MCP endpoint is stateless: POST only' } });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
