import { asAppError, fieldName, rateHeaders, validationFailed } from '@backoffice/platform';
import type { Gatekeeper } from './admission';
import { sendError } from './rest';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import type { Caller, Invoker } from './invoker';
import { answer, refusal, toolList, toolNamingOf, toolServer } from './mcp-tools';
import { SURFACE_OPERATIONS, surfaceViews, type SurfaceOperation } from './subgraphs';

/**
 * Operations by either spelling of their tool name: a call is understood whatever the list shows (the
 * stdio server forwards the name its client used to a gateway whose naming it does not know).
 */
const BY_TOOL_NAME = new Map<string, SurfaceOperation>();
for (const surface of SURFACE_OPERATIONS.values()) {
  for (const name of new Set([surface.name, fieldName(surface.name)])) {
    if (BY_TOOL_NAME.has(name)) throw new Error(`two operations answer to the tool name ${name}`);
    BY_TOOL_NAME.set(name, surface);
  }
}

function mcpServer(tools: Tool[], invoker: Invoker, caller: Caller, log: (line: string) => void): Server {
  // The documented error body, as REST sends it: kind, message and the error's own fields.
  const refused = (kind: string, message: string, details: Record<string, unknown> = {}) => {
    const { request_id: _omit, ...own } = details;
    return refusal({ error: { kind, message, ...own } });
  };
  return toolServer(tools, async (name, args) => {
    const tool = BY_TOOL_NAME.get(name);
    if (!tool) {
      caller.record?.named('unknown');
      caller.record?.failed('not_found');
      return refused('not_found', `unknown tool ${name}`);
    }
    try {
      const result = tool.kind === 'operation' ? await invoker.invoke(tool.operation, args, caller) : await invoker.invokeMerged(tool.read, args, caller);
      return answer(result as Record<string, unknown>);
    } catch (error) {
      const failure = asAppError(error, caller.requestId, log);
      caller.record?.failed(failure.kind);
      return refused(failure.kind, failure.message, failure.details);
    }
  });
}

/** Messages one JSON-RPC batch may hold. */
export const MCP_MAX_BATCH = 10;

/**
 * The model-tool surface: MCP over Streamable HTTP at /mcp, stateless (a server per request), with
 * the caller's API key in the Authorization header as on every other surface.
 */
export function registerMcp(app: FastifyInstance, invoker: Invoker, gatekeeper: Gatekeeper, log: (line: string) => void): void {
  // The tool list never changes while the process runs.
  const tools = toolList(surfaceViews(), toolNamingOf());
  app.post('/mcp', async (request, reply) => {
    const requestId = reply.getHeader('x-request-id') as string;
    let caller: Caller;
    try {
      // Every JSON-RPC message is a request like any other: a batch is bounded and pays per message.
      const messages = Array.isArray(request.body) ? request.body.length : 1;
      if (messages < 1 || messages > MCP_MAX_BATCH) throw validationFailed(`a JSON-RPC batch holds 1 to ${MCP_MAX_BATCH} messages, not ${messages}`);
      const admission = await gatekeeper.admit(request.headers.authorization, request.ip, requestId, 'mcp');
      reply.headers(rateHeaders(admission.rate));
      // The header reports the bucket after the whole batch's charge.
      const charged = await gatekeeper.charge(admission, messages - 1, 'mcp');
      if (charged) reply.headers(rateHeaders(charged));
      request.observed?.admitted(admission.call.actor);
      caller = { authorization: request.headers.authorization, ip: request.ip, requestId, admission, record: request.observed };
    } catch (error) {
      return sendError(reply, asAppError(error, requestId, log));
    }
    const server = mcpServer(tools, invoker, caller, log);
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
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ error: { kind: 'validation_failed', message: 'this MCP endpoint is stateless: POST only' } });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
