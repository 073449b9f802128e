import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { Pool } from 'undici';
import { ACTOR_CONTEXT_HEADER, internalToken } from './actor';
import { countRequests } from './bus/budget';
import { nameSpansByRoute, registerMetricsEndpoint } from './observability/fastify';
import { traceHttpServer } from './observability/tracing';
import type { SubgraphContext, SubgraphRuntime } from './subgraph';
import { subgraphAccess, type SubgraphAccess } from './subgraph-access';

/**
 * Serves one subgraph over HTTP (when the subgraphs run as separate processes). Without `access`,
 * every request must carry the gateway's signed context (the executor refuses operations without
 * it); with it, a router's request may instead carry `Authorization: Bearer`, or nothing (public
 * reads) — see `subgraph-access.ts`.
 */
export const INTERNAL_SECRET_HEADER = 'x-backoffice-internal';

/** Endpoints only the gateway may call (POST /internal/<name>), for services a subgraph offers it. */
export type InternalRoutes = Record<string, (body: Record<string, unknown>) => Promise<unknown>>;

/** How long a call to another process's internal endpoint may take. */
const INTERNAL_TIMEOUT_MS = 10_000;

/**
 * The caller's side of `InternalRoutes`: a POST to `<baseUrl>/internal/<name>` carrying the shared
 * secret's token, answering the endpoint's JSON. `service` names the other side in errors. Calls go
 * over a keep-alive pool (undici's, without fetch's web streams: the gateway asks identity who a
 * token is on every request when the subgraphs run apart); a hung process holds a call at most 10 s.
 */
export function internalCaller(service: string, baseUrl: string, secret: string) {
  const at = new URL(baseUrl);
  const prefix = at.pathname.replace(/\/$/, '');
  const pool = new Pool(at.origin, { connections: 32, headersTimeout: INTERNAL_TIMEOUT_MS, bodyTimeout: INTERNAL_TIMEOUT_MS });
  return async <T>(name: string, body: unknown): Promise<T> => {
    const answer = await pool.request({
      method: 'POST',
      path: `${prefix}/internal/${name}`,
      headers: { 'content-type': 'application/json', [INTERNAL_SECRET_HEADER]: internalToken(secret) },
      body: JSON.stringify(body),
    });
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      await answer.body.dump();
      throw new Error(`${service} /internal/${name} answered ${answer.statusCode}`);
    }
    return (await answer.body.json()) as T;
  };
}

export interface ServeSubgraphOptions {
  /** Let in calls without the gateway's signed context: a forwarded bearer, or none. */
  access?: SubgraphAccess;
  /** Whose `x-forwarded-for` to believe for the client address (TRUST_PROXY, see `trustProxyOf`). */
  trustProxy?: FastifyServerOptions['trustProxy'];
}

export async function serveSubgraph(
  runtime: SubgraphRuntime,
  port: number,
  internal: InternalRoutes = {},
  host = process.env.HOST ?? '127.0.0.1',
  options: ServeSubgraphOptions = {},
) {
  const app = Fastify({ logger: false, trustProxy: options.trustProxy ?? false });
  const access = options.access && subgraphAccess(runtime, options.access);
  // Answers echo caller input: never to be read as another type than the one they declare.
  app.addHook('onRequest', async (_request, reply) => void reply.header('x-content-type-options', 'nosniff'));
  // Background work in this process yields to the gateway's (or a router's) requests in flight.
  countRequests(app);
  // Continues the gateway's trace (with tracing on); /metrics as on the gateway.
  traceHttpServer(app.server);
  nameSpansByRoute(app);
  registerMetricsEndpoint(app);
  const apollo = new ApolloServer<SubgraphContext>({
    schema: runtime.schema,
    includeStacktraceInErrorResponses: false,
    // No per-request traces: nothing here reports them, and they cost time on every call.
    plugins: [fastifyApolloDrainPlugin(app), ApolloServerPluginInlineTraceDisabled(), ...(access ? [access.plugin] : [])],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: async (request, reply) =>
      access ? access.context(request, reply) : runtime.contextFor(request.headers[ACTOR_CONTEXT_HEADER] as string | undefined),
  });
  const expected = Buffer.from(internalToken(runtime.contextSecret));
  for (const [name, handle] of Object.entries(internal)) {
    app.post(`/internal/${name}`, async (request, reply) => {
      const given = Buffer.from(String(request.headers[INTERNAL_SECRET_HEADER] ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.code(401).send({ error: { kind: 'unauthorized', message: 'internal endpoint' } });
      }
      // A body that is not a JSON object (none, an array) is refused, not handed on as undefined.
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return reply.code(400).send({ error: { kind: 'validation_failed', message: 'the body must be a JSON object' } });
      }
      return handle(body as Record<string, unknown>);
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) => {
    if (!(await runtime.ready())) return reply.code(503).send({ status: 'unavailable' });
    // Without Redis the bearer calls are limited per process: ready, but degraded (as the gateway says).
    return options.access?.limiter.health() === 'degraded' ? { status: 'degraded', degraded: ['redis'] } : { status: 'ready' };
  });
  await app.listen({ port, host });
  const address = app.server.address();
  return {
    url: `http://${host}:${typeof address === 'object' && address ? address.port : port}/graphql`,
    async close() {
      await app.close();
    },
  };
}
