import { fieldName } from '@backoffice/platform/src/field-name';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SurfaceView } from './surface-views';

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
 * destructiveHint: commands whose verb (the first word of the name's last part: `expire` of
 * `order.expire_unpaid`) takes something away, ends it or replaces a credential. Other commands
 * create, change or move forward what they name.
 */
const DESTRUCTIVE_VERBS = new Set([
  'revoke',
  'delete',
  'deactivate',
  'archive',
  'remove',
  'cancel',
  'uninstall',
  'unpublish',
  'release',
  'reset',
  'logout',
  'expire',
  'rotate',
]);

const verbOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).split('_')[0];

function toolOf(target: SurfaceView, naming: ToolNaming): Tool {
  const access = target.access === 'public' ? 'Public.' : `Scope: ${target.scope ?? 'any valid API key'}${target.ownerGated ? ', owner key only' : ''}.`;
  // A read with projections answers one of several shapes.
  const projections = Object.values(target.projections);
  // The views are plain JSON already (surfaceViews, surfaces.json): no schema builder's symbol keys.
  const output = (projections.length ? { type: 'object', anyOf: [target.result, ...projections] } : target.result) as Tool['outputSchema'] & { type?: string };
  const words = target.name.replace(/[._]/g, ' ');
  const title = words[0].toUpperCase() + words.slice(1);
  return {
    name: naming === 'underscore' ? fieldName(target.name) : target.name,
    title,
    description: `${target.description} ${access}`,
    inputSchema: target.input as Tool['inputSchema'],
    // MCP wants an object type at the root of an output schema: a tool answering anything else states none.
    ...(output.type === 'object' ? { outputSchema: output } : {}),
    annotations:
      target.kind === 'read'
        ? { title, readOnlyHint: true }
        : { title, readOnlyHint: false, destructiveHint: DESTRUCTIVE_VERBS.has(verbOf(target.name)), idempotentHint: target.idempotent },
  };
}

/** Every command and REST read as a tool (the HTTP endpoint's views from the declarations, stdio's from surfaces.json). */
export function toolList(views: SurfaceView[], naming: ToolNaming): Tool[] {
  return views.map((view) => toolOf(view, naming));
}

/**
 * A refusal as a tool error: the REST error body as text. Not as structuredContent: a client checks
 * that against the tool's output schema, which describes successes.
 */
export const refusal = (body: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] });

/** A success: the REST body as structuredContent, and as text for clients older than it. */
export const answer = (body: Record<string, unknown>): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body });

/** An MCP server offering `tools`; `call` runs the one named (or refuses a name no tool has). */
export function toolServer(tools: Tool[], call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>): Server {
  const server = new Server({ name: 'backoffice', version: '0.3.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => call(request.params.name, request.params.arguments ?? {}));
  return server;
}
