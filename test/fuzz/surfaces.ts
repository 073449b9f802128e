/**
 * Sending a case and reading what came back, per surface, as one normalized answer: the HTTP status,
 * the outcome (`ok`, an error kind, or `jsonrpc_error` for an MCP envelope refusal) and what is wrong
 * with the answer's shape, if anything.
 */
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';

export type Surface = 'rest' | 'graphql' | 'mcp';

export type Request =
  | { via: 'http'; method: 'GET' | 'POST'; path: string; body?: string; contentType?: string | null; field?: string }
  | { via: 'mcp-client'; tool: string; args: Record<string, unknown> };

export interface Answer {
  status: number;
  /** `ok`, the error kind(s) answered, or `jsonrpc_error`. */
  outcomes: string[];
  /** What breaks the documented error shape, or null. */
  shape: string | null;
  text: string;
}

/** No answer within this is reported as `no answer` (status 0). */
const TIMEOUT_MS = 30_000;

const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `{"error":{"kind","message"}}` (extra fields allowed): the REST body, also of MCP's HTTP refusals. */
function restError(body: unknown): { kind: string | null; shape: string | null } {
  if (!isObject(body) || !isObject(body.error)) return { kind: null, shape: 'error body is not {"error":{…}}' };
  const { kind, message } = body.error;
  if (typeof kind !== 'string' || typeof message !== 'string') return { kind: null, shape: 'error body lacks kind or message' };
  return { kind, shape: null };
}

function restAnswer(status: number, text: string): Answer {
  if (status < 300) return { status, outcomes: ['ok'], shape: null, text };
  const { kind, shape } = restError(parse(text));
  return { status, outcomes: [kind ?? 'unknown'], shape, text };
}

function graphqlAnswer(status: number, text: string, field: string): Answer {
  const body = parse(text);
  if (!isObject(body)) return { status, outcomes: ['unknown'], shape: 'GraphQL answer is not a JSON object', text };
  const errors = body.errors;
  if (errors === undefined) {
    const ok = isObject(body.data) && body.data[field] !== null && body.data[field] !== undefined;
    return { status, outcomes: ['ok'], shape: ok && status === 200 ? null : 'no errors, yet no result', text };
  }
  if (!Array.isArray(errors) || !errors.length) return { status, outcomes: ['unknown'], shape: 'errors is not a non-empty list', text };
  const codes = errors.map((e) =>
    isObject(e) && typeof e.message === 'string' && isObject(e.extensions) && typeof e.extensions.code === 'string' ? e.extensions.code : null,
  );
  if (codes.includes(null)) return { status, outcomes: ['unknown'], shape: 'an error lacks message or extensions.code', text };
  return { status, outcomes: [...new Set(codes as string[])], shape: null, text };
}

/** A tool result: a refusal is `isError` with the REST error body as its text. */
function toolResult(status: number, result: unknown, text: string): Answer {
  if (!isObject(result)) return { status, outcomes: ['unknown'], shape: 'tool result is not an object', text };
  if (!result.isError) return { status, outcomes: ['ok'], shape: null, text };
  const content = Array.isArray(result.content) ? result.content[0] : undefined;
  const { kind, shape } = restError(isObject(content) && typeof content.text === 'string' ? parse(content.text) : undefined);
  return { status, outcomes: [kind ?? 'unknown'], shape: shape && `tool error: ${shape}`, text };
}

/** One JSON-RPC answer of /mcp: a REST refusal (before MCP), a JSON-RPC error, or tool results. */
function mcpAnswer(status: number, text: string): Answer {
  if (status === 202 && !text) return { status, outcomes: ['ok'], shape: null, text };
  const body = parse(text);
  if (isObject(body) && 'error' in body && !('jsonrpc' in body)) return restAnswer(status, text);
  const messages = Array.isArray(body) ? body : [body];
  const outcomes: string[] = [];
  for (const m of messages) {
    if (!isObject(m) || m.jsonrpc !== '2.0') return { status, outcomes: ['unknown'], shape: 'not a JSON-RPC answer nor the REST error body', text };
    if (isObject(m.error)) {
      if (typeof m.error.code !== 'number' || typeof m.error.message !== 'string')
        return { status, outcomes: ['unknown'], shape: 'JSON-RPC error without code or message', text };
      outcomes.push('jsonrpc_error');
    } else if (isObject(m.result) && ('content' in m.result || 'isError' in m.result)) {
      const one = toolResult(status, m.result, text);
      if (one.shape) return one;
      outcomes.push(...one.outcomes);
    } else outcomes.push('ok');
  }
  return { status, outcomes, shape: null, text };
}

export interface Sender {
  url: string;
  tokens: Record<'owner' | 'none' | 'bad', string | null>;
  mcp(token: 'owner' | 'none'): Promise<McpClient>;
}

export async function send(sender: Sender, surface: Surface, token: 'owner' | 'none' | 'bad', request: Request): Promise<Answer> {
  const bearer = sender.tokens[token];
  if (request.via === 'mcp-client') {
    if (token === 'bad') throw new Error('a bad token cannot connect an MCP client; use raw JSON-RPC');
    const client = await sender.mcp(token);
    try {
      const result = await client.callTool({ name: request.tool, arguments: request.args }, undefined, { timeout: TIMEOUT_MS });
      return toolResult(200, result, JSON.stringify(result));
    } catch (error) {
      // The SDK throws on an HTTP refusal (StreamableHTTPError: code is the HTTP status, the message
      // ends with the body) and on a JSON-RPC error (McpError: code is the JSON-RPC code).
      const message = error instanceof Error ? error.message : String(error);
      const code = (error as { code?: unknown }).code;
      if (error instanceof Error && error.constructor.name === 'StreamableHTTPError' && typeof code === 'number') {
        return restAnswer(code, message.replace(/^[\s\S]*?Error POSTing to endpoint(?: \(HTTP \d+\))?:\s*/, ''));
      }
      if (typeof code === 'number') return { status: 200, outcomes: ['jsonrpc_error'], shape: null, text: message };
      return { status: 0, outcomes: ['unknown'], shape: `MCP client failed: ${message}`, text: message };
    }
  }
  const headers: Record<string, string> = {};
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (request.body !== undefined && request.contentType !== null) headers['content-type'] = request.contentType ?? 'application/json';
  if (surface === 'mcp') headers.accept = 'application/json, text/event-stream';
  let response: globalThis.Response;
  try {
    response = await fetch(`${sender.url}${request.path}`, { method: request.method, headers, body: request.body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    return { status: 0, outcomes: ['unknown'], shape: `no HTTP answer: ${(error as Error).message}`, text: '' };
  }
  const text = await response.text();
  if (surface === 'graphql') return graphqlAnswer(response.status, text, request.field ?? '');
  if (surface === 'mcp') return mcpAnswer(response.status, text);
  return restAnswer(response.status, text);
}
