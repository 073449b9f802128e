import { fieldName } from '@backoffice/platform';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { SURFACE_OPERATIONS, surfaceView, type SurfaceOperation } from './subgraphs';

/**
 * What both MCP transports (Streamable HTTP at /mcp, stdio from the CLI) share: the tool list and the
 * server around it, so the two cannot offer different tools or schemas.
 */

/** Tool names: the operation's (`order.mark_paid`), or `order_mark_paid` for clients that refuse dots. */
export type ToolNaming = 'dotted' | 'underscore';

/** MCP_TOOL_NAMES: unset or `dotted`, or `underscore`; anything else is a typo better refused at start. */
export function toolNamingOf(value = process.env.MCP_TOOL_NAMES): ToolNaming {
  if (!value || value === 'dotted') return 'dotted';
  if (value === 'underscore') return 'underscore';
  throw new Error(`MCP_TOOL_NAMES is dotted (the default) or underscore, not ${value}`);
}

/**
 * Operations by either spelling of their tool name: a call is understood whatever the list shows (the
 * stdio server forwards the dotted name to a gateway whose naming it does not know).
 */
const BY_TOOL_NAME = new Map<string, SurfaceOperation>();
for (const surface of SURFACE_OPERATIONS.values()) {
  for (const name of new Set([surface.name, fieldName(surface.name)])) {
    if (BY_TOOL_NAME.has(name)) throw new Error(`two operations answer to the tool name ${name}`);
    BY_TOOL_NAME.set(name, surface);
  }
}

export const surfaceOfTool = (name: string): SurfaceOperation | undefined => BY_TOOL_NAME.get(name);

/**
 * destructiveHint: commands whose verb (the first word of the name's last part: `expire` of
 * `order.expire_unpaid`) takes something away, ends it or replaces a credential. Other commands
 * create, change or move forward what they name.
 */
const DESTRUCTIVE_VERBS = new Set(['revoke', 'delete', 'deactivate', 'archive', 'remove', 'cancel', 'uninstall', 'unpublish', 'release', 'reset', 'logout', 'expire', 'rotate']);

const verbOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).split('_')[0];
// A JSON round trip drops the schema builder's symbol keys.
const json = (schema: unknown) => JSON.parse(JSON.stringify(schema));

function toolOf(surface: SurfaceOperation, naming: ToolNaming): Tool {
  const target = surfaceView(surface);
  const access = target.access === 'public' ? 'Public.' : `Scope: ${target.scope ?? 'any valid API key'}${target.ownerGated ? ', owner key only' : ''}.`;
  // A read with projections answers one of several shapes.
  const projections = Object.values(target.projections);
  const output = json(projections.length ? { type: 'object', anyOf: [target.result, ...projections] } : target.result);
  const words = surface.name.replace(/[._]/g, ' ');
  const title = words[0].toUpperCase() + words.slice(1);
  return {
    name: naming === 'underscore' ? fieldName(surface.name) : surface.name,
    title,
    description: `${target.description} ${access}`,
    inputSchema: json(target.input),
    // MCP wants an object type at the root of an output schema: a tool answering anything else states none.
    ...(output.type === 'object' ? { outputSchema: output } : {}),
    annotations:
      target.kind === 'read'
        ? { title, readOnlyHint: true }
        : { title, readOnlyHint: false, destructiveHint: DESTRUCTIVE_VERBS.has(verbOf(surface.name)), idempotentHint: target.idempotent },
  };
}

/** Every command and REST read as a tool. */
export function toolList(naming: ToolNaming): Tool[] {
  return [...SURFACE_OPERATIONS.values()].map((surface) => toolOf(surface, naming));
}

/**
 * A refusal as a tool error: the REST error body as text. Not as structuredContent: a client checks
 * that against the tool's output schema, which describes successes.
 */
export const refusal = (body: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

/** A success: the REST body as structuredContent, and as text for clients older than it. */
export const answer = (body: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body });

/** An MCP server offering `tools`; `call` runs one (`surface` undefined for a name no operation has). */
export function toolServer(
  tools: Tool[],
  call: (surface: SurfaceOperation | undefined, name: string, args: Record<string, unknown>) => Promise<CallToolResult>,
): Server {
  const server = new Server({ name: 'backoffice', version: '0.3.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => call(surfaceOfTool(request.params.name), request.params.name, request.params.arguments ?? {}));
  return server;
}
