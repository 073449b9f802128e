import type { GraphQLDataSource } from '@apollo/gateway';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { AppError, asAppError, validationFailed } from '@backoffice/platform';
import Fastify, { type FastifyError } from 'fastify';
import { GraphQLError } from 'graphql';
import { Gatekeeper, RateLimited, rateHeaders, requestIdOf } from './admission';
import { createGateway, type GatewayRequestContext } from './gateway';
import type { IdentityClient } from './identity-client';
import { openApiDocument } from './openapi';
import type { RateLimiter } from './rate-limit';
import type { InProcessDataSource } from './data-sources';
import { Invoker } from './invoker';
import { registerMcp } from './mcp';
import { registerRest, sendError } from './rest';
import { SingleFetchPlanner } from './single-fetch';

export interface GatewayOptions {
  supergraphSdl: string;
  buildService: (name: string, url: string) => GraphQLDataSource;
  identity: IdentityClient;
  limiter: RateLimiter;
  contextSecret: string;
  /** Subgraphs executed in this process, by name (empty when they run elsewhere). */
  localSources?: Map<string, InProcessDataSource>;
  /** True when the database and every subgraph answer. */
  ready: () => Promise<boolean>;
  log?: (line: string) => void;
}

/** The gateway process's HTTP face: /graphql, the REST shim, OpenAPI and health. */
export async function createGatewayServer(options: GatewayOptions) {
  const log = options.log ?? console.error;
  const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
  const apollo = createGateway(options.supergraphSdl, options.buildService);
  const gatekeeper = new Gatekeeper(options.identity, options.limiter, options.contextSecret);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', requestIdOf(request.headers['x-request-id']));
  });
  // Malformed JSON, a wrong content type or an oversized body: the caller's input is at fault.
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const requestId = reply.getHeader('x-request-id') as string;
    const appError = error.statusCode && error.statusCode < 500 ? validationFailed(error.message) : asAppError(error, requestId, log);
    return sendError(reply, appError);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)));

  apollo.addPlugin(fastifyApolloDrainPlugin(app));
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: async (request, reply): Promise<GatewayRequestContext> => {
      const requestId = reply.getHeader('x-request-id') as string;
      try {
        const admission = await gatekeeper.admit(request.headers.authorization, request.ip, requestId, 'graphql');
        reply.headers(rateHeaders(admission.rate));
        return {
          call: admission.call,
          signed: admission.signed,
          refused: (op, kind) => gatekeeper.refused(admission.call, op, kind),
          charge: (cost, op) => gatekeeper.charge(admission, cost, op),
        };
      } catch (error) {
        const appError = asAppError(error, requestId, log);
        const headers = new Map(Object.entries(appError instanceof RateLimited ? rateHeaders(appError.rate) : {}));
        throw new GraphQLError(appError.message, { extensions: { code: appError.kind, http: { status: appError.status, headers } } });
      }
    },
  });
  const invoker = new Invoker({ apollo, gatekeeper, localSources: options.localSources ?? new Map(), planner: new SingleFetchPlanner(options.supergraphSdl) });
  registerRest(app, invoker, log);
  registerMcp(app, invoker, log);

  const openapi = JSON.stringify(openApiDocument());
  app.get('/v1/openapi.json', async (_, reply) => reply.type('application/json').send(openapi));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) => ((await options.ready()) ? { status: 'ready' } : reply.code(503).send({ status: 'unavailable' })));
  return app;
}
