import { randomBytes } from 'node:crypto';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from 'pg';
import { createTenant, type CreatedTenant } from '@backoffice/identity';
import type { Logger, RateLimiter } from '@backoffice/platform';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import type { PaymentVerifier } from '@backoffice/orders';
import { startSystem, type System } from '../gateway/src/system';
import { databaseUrl, newDatabaseName, onServer, TEMPLATE_VARIABLE } from './template-database';

interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function createDatabase(template?: string): Promise<TestDatabase> {
  const name = newDatabaseName('bo_test');
  await onServer((c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return { url: databaseUrl(name), drop: () => onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

/** An empty database of its own for one test file, on the real server. */
export const freshDatabase = (): Promise<TestDatabase> => createDatabase();

/** A database already migrated, copied from the run's template (global-setup.ts); an empty one when there is none. */
export const migratedDatabase = (): Promise<TestDatabase> => createDatabase(process.env[TEMPLATE_VARIABLE]);

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestSystem {
  system: System;
  url: string;
  /** The test system's own database. */
  databaseUrl: string;
  contextSecret: string;
  /** A tenant with its owner key (every scope). */
  tenant: CreatedTenant;
  newTenant(store?: string): Promise<CreatedTenant>;
  command<T = any>(name: string, input: unknown, token?: string | null): Promise<Response<T>>;
  /** A command that must succeed: its body, or an error naming the command, its status and its body. */
  ok<T = any>(name: string, input: unknown, token?: string | null): Promise<T>;
  read<T = any>(path: string, query?: Record<string, string>, token?: string | null): Promise<Response<T>>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<Response<T>>;
  /** Runs SQL on the test database. */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  /** What the system logged so far. */
  logs: string[];
  /** Writes buffered audit rows of every subgraph. */
  flushAudit(): Promise<void>;
  stop(): Promise<void>;
}

async function http(method: string, url: string, body: unknown, token: string | null | undefined): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON: keep the text so a test can show it */
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The whole system on a fresh database, listening on a free port, with a first tenant. */
export async function startTestSystem(
  options: { limiter?: RateLimiter; logger?: Logger; payments?: PaymentVerifier; adminDist?: string } = {},
): Promise<TestSystem> {
  const database = await migratedDatabase();
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = database.url;
  const contextSecret = randomBytes(32).toString('base64url');
  const logs: string[] = [];
  const system = await startSystem({
    port: 0,
    contextSecret,
    limiter: options.limiter ?? new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
    log: (line) => logs.push(line),
    logger: options.logger,
    payments: options.payments,
    adminDist: options.adminDist,
  });
  if (previous === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previous;
  const identity = system.runtimes.get('identity')!;
  let stores = 0;
  const newTenant = (store = `store-${randomBytes(4).toString('hex')}-${++stores}`) =>
    createTenant(identity.dataSource, { name: `Tenant ${store}`, store, never_expires: true });
  const tenant = await newTenant();
  const command: TestSystem['command'] = (name, input, token = tenant.token) => http('POST', `${system.url}/v1/commands/${name}`, input, token);
  return {
    system,
    url: system.url,
    databaseUrl: database.url,
    contextSecret,
    tenant,
    newTenant,
    command,
    async ok(name, input, token = tenant.token) {
      const res = await command(name, input, token);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    read: (path, query = {}, token = tenant.token) => {
      const qs = new URLSearchParams(query).toString();
      return http('GET', `${system.url}/v1/read${path}${qs ? `?${qs}` : ''}`, undefined, token);
    },
    graphql: (query, variables = {}, token = tenant.token) => http('POST', `${system.url}/graphql`, { query, variables }, token),
    sql: (text, params = []) => identity.dataSource.query(text, params),
    logs,
    flushAudit: async () => {
      for (const runtime of system.runtimes.values()) await runtime.audit.flush();
    },
    async stop() {
      await system.stop();
      await database.drop();
    },
  };
}

/** Polls until `check` returns a value (not undefined), or fails after `ms`. */
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A real MCP client over Streamable HTTP at `${url}/mcp`, with the key as on every surface. */
export async function mcpClient(url: string, token: string | null): Promise<McpClient> {
  const client = new McpClient({ name: 'backoffice-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The REST error body a refused MCP tool call carries as its text (there is no structuredContent: see docs/surfaces.md, MCP). */
export function toolErrorBody(result: object): { error: { kind: string; message: string; [field: string]: unknown } } {
  return JSON.parse((result as { content: Array<{ text: string }> }).content[0].text);
}

/** The statements matching `match` sent while `during` runs (pg's client sees every statement of every pool), and those of them sent by name (kept prepared). */
export async function statementsDuring<T>(match: RegExp, during: () => Promise<T>): Promise<{ result: T; statements: string[]; prepared: string[] }> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    const result = await during();
    const sent = spy.mock.calls.map(([q]) => (typeof q === 'string' ? { text: q } : ((q ?? {}) as { text?: string; name?: string })));
    const matching = sent.filter(({ text }) => match.test(text ?? ''));
    return { result, statements: matching.map(({ text }) => text ?? ''), prepared: matching.filter(({ name }) => name).map(({ text }) => text ?? '') };
  } finally {
    spy.mockRestore();
  }
}
