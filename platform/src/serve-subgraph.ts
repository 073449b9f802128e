import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ACTOR_CONTEXT_HEADER, internalToken } from './actor';
import type { SubgraphContext, SubgraphRuntime } from './subgraph';

/**
 * Serves one subgraph over HTTP (when the subgraphs run as separate processes). Every request must
 * carry the gateway's signed context; the executor refuses operations without it.
 */
export const INTERNAL_SECRET_HEADER = 'x-backoffice-internal';

/** Endpoints only the gateway may call (POST /internal/<name>), for services a subgraph offers it. */
export type InternalRoutes = Record<string, (body: Record<string, unknown>) => Promise<unknown>>;

export async function serveSubgraph(runtime: SubgraphRuntime, port: number, internal: InternalRoutes = {}, host = process.env.HOST ?? '127.0.0.1') {
  const app = Fastify({ logger: false });
  const apollo = new ApolloServer<SubgraphContext>({
    schema: runtime.schema,
    includeStacktraceInErrorResponses: false,
    // No per-request traces: nothing here reports them, and they cost time on every call.
    plugins: [fastifyApolloDrainPlugin(app), ApolloServerPluginInlineTraceDisabled()],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: async (request) => runtime.contextFor(request.headers[ACTOR_CONTEXT_HEADER] as string | undefined),
  });
  const expected = Buffer.from(internalToken(runtime.contextSecret));
  for (const [name, handle] of Object.entries(internal)) {
    app.post(`/internal/${name}`, async (request, reply) => {
      const given = Buffer.from(String(request.headers[INTERNAL_SECRET_HEADER] ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.code(401).send({ error: { kind: 'unauthorized', message: 'internal endpoint' } });
      }
      return handle(request.body as Record<string, unknown>);
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) => ((await runtime.ready()) ? { status: 'ready' } : reply.code(503).send({ status: 'unavailable' })));
  await app.listen({ port, host });
  const address = app.server.address();
  return {
    url: `http://${host}:${typeof address === 'object' && address ? address.port : port}/graphql`,
    async close() {
      await app.close();
    },
  };
}
