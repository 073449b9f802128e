import type { GraphQLDataSource } from '@apollo/gateway';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import {
  AppError,
  asAppError,
  jsonProblem,
  MAX_BODY_DEPTH,
  metrics,
  registerMetricsEndpoint,
  rootLogger,
  traceHttpServer,
  validationFailed,
  type Logger,
  trustProxyOf,
} from '@backoffice/platform';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { countRequests, rateHeaders, requestIdOf, requestRefusal } from '@backoffice/platform';
import { Gatekeeper } from './admission';
import { closeConnectionsWhenIdle } from './graceful-close';
import { createGateway, type GatewayRequestContext } from './gateway';
import type { IdentityClient } from '@backoffice/contracts';
import { observeGraphql, observeRequests } from './observe';
import { openApiDocument } from './openapi';
import type { RateLimiter } from '@backoffice/platform';
import type { InProcessDataSource } from './data-sources';
import { Invoker } from './invoker';
import { registerMcp } from './mcp';
import { registerRest, sendError } from './rest';
import { registerAuthRoutes } from './auth-routes';
import { registerExplorer } from './explorer';
import { registerAdminApp } from './admin-app';
import { registerEventStream } from './event-stream';
import { GraphqlLane, SingleFetchPlanner } from './graphql-fast-path';
import { RemoteSubgraph } from './remote-subgraph';
import { armorOptions, boundAnswers, GRAPHQL_LIMITS } from './graphql-limits';
import { adminOriginsOf, registerCors } from './cors';
import { loadTrustedDocuments, trustedDocumentFor } from './trusted-documents';
import { credentialOf } from './session-cookie';

export interface GatewayOptions {
  supergraphSdl: string;
  buildService: (name: string, url: string) => GraphQLDataSource;
  identity: IdentityClient;
  limiter: RateLimiter;
  contextSecret: string;
  /** Subgraphs executed in this process, by name (empty when they run elsewhere). */
  localSources?: Map<string, InProcessDataSource>;
  /**
   * `ready`; `degraded` (still serving, naming what it does without, e.g. `redis`); `unavailable`
   * when the database or a subgraph does not answer (503).
   */
  ready: () => Promise<{ status: 'ready' } | { status: 'degraded'; degraded: string[] } | { status: 'unavailable' }>;
  log?: (line: string) => void;
  /** Where the line of each request goes (default: the process's pino logger). */
  logger?: Logger;
  /** Subgraphs in other processes: their GraphQL URLs by name (the /graphql lane calls them itself). */
  remoteSubgraphUrls?: Record<string, string>;
  /** false: every /graphql request takes Apollo's path (tests compare both; see graphql-fast-path/). */
  graphqlLane?: boolean;
  /** The admin front-end's build served at /admin (default: the workspace's, ADMIN_DIST). */
  adminDist?: string;
}

/** Request bodies are at most 1 MiB. */
export const MAX_BODY_BYTES = 1_048_576;

/** What is read (and discarded) of a body over the limit before its refusal is sent, at most. */
const DISCARD_MAX_BYTES = 64 * MAX_BODY_BYTES;
const DISCARD_MAX_MS = 10_000;

/**
 * Reads the rest of a refused body into nothing (at most DISCARD_MAX_BYTES, DISCARD_MAX_MS): closing
 * the connection while the client still writes would reset it (EPIPE) before it read the refusal.
 */
function discardRest(request: IncomingMessage): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      request.off('data', count).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DISCARD_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DISCARD_MAX_MS);
    request.on('data', count).on('end', done).on('error', done).on('close', done).resume();
  });
}

/**
 * Answers a request Node's HTTP parser refused before any route saw it (headers or URL over 16 KiB:
 * 431; an idle request: 408; anything malformed: 400) with the documented error body.
 */
function refuseMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request line and headers exceed 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request took too long to arrive']
        : [400, 'the request is not well-formed HTTP'];
  const body = JSON.stringify({ error: { kind: 'validation_failed', message } });
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The gateway process's HTTP face: /graphql and its explorer, the REST shim, OpenAPI and its docs, MCP, the admin front-end, health. */
export async function createGatewayServer(options: GatewayOptions) {
  const log = options.log ?? console.error;
  const app = Fastify({
    logger: false,
    // Behind a load balancer, whose x-forwarded-for gives the client's address (rate limits, logins).
    trustProxy: trustProxyOf(process.env.TRUST_PROXY),
    bodyLimit: MAX_BODY_BYTES,
    // Refusals the router and Node's HTTP parser decide keep their HTTP status and get the documented body.
    // These skip the hooks: nosniff is set here too.
    frameworkErrors: (error, _request, reply) =>
      sendError(
        reply.header('x-content-type-options', 'nosniff'),
        validationFailed(error.statusCode === 414 ? 'a path segment exceeds 100 characters' : 'the URL is not well-formed'),
        error.statusCode,
      ),
    clientErrorHandler: refuseMalformedRequest,
  });
  closeConnectionsWhenIdle(app);
  // A JSON body's structure is checked before a route sees it (nesting at most MAX_BODY_DEPTH levels,
  // no `__proto__` keys); its texts and numbers are checked with the input they belong to.
  // Every body the gateway reads is JSON: another type (Fastify's own text/plain included) is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    let value: unknown;
    try {
      value = JSON.parse(body as string);
    } catch (error) {
      // Only where it broke: the parser's own message quotes the text around it (a secret, perhaps).
      const at = /at position (\d+)/.exec((error as Error).message)?.[1];
      return done(validationFailed(body === '' ? 'the body is empty' : `the body is not valid JSON${at ? ` (at character ${at})` : ''}`));
    }
    const problem = jsonProblem(value, MAX_BODY_DEPTH, true);
    done(problem ? validationFailed(`the body: ${problem}`) : null, value);
  });
  // Checked before anything listens: a malformed origin or manifest stops the start, saying which entry.
  const adminOrigins = adminOriginsOf(process.env.ADMIN_ORIGINS);
  const trustedDocuments = process.env.TRUSTED_DOCUMENTS ? loadTrustedDocuments(process.env.TRUSTED_DOCUMENTS) : undefined;
  const gatekeeper = new Gatekeeper(options.identity, options.limiter, options.contextSecret);
  const remotes = new Map(Object.entries(options.remoteSubgraphUrls ?? {}).map(([name, url]) => [name, new RemoteSubgraph(name, url)] as const));
  app.addHook('onClose', async () => {
    await Promise.all([...remotes.values()].map((remote) => remote.close()));
  });
  const lane =
    options.graphqlLane === false
      ? undefined
      : new GraphqlLane({
          planner: new SingleFetchPlanner(options.supergraphSdl),
          localSources: options.localSources ?? new Map(),
          remotes,
          gatekeeper,
          trustedDocuments,
          validationRules: armorOptions().validationRules,
          log,
        });
  const apollo = createGateway(options.supergraphSdl, options.buildService, log, (schema) => lane?.useSchema(schema));

  app.addHook('onRequest', async (request, reply) => {
    // nosniff: answers echo caller input (a 404 names the path), which must never be read as HTML.
    reply.header('x-request-id', requestIdOf(request.headers['x-request-id'])).header('x-content-type-options', 'nosniff');
  });
  // Background work in this process (consumers, tasks, jobs, relays) yields to requests in flight.
  countRequests(app);
  // Before any route, so that every route other than /graphql is registered without CORS.
  await registerCors(app, adminOrigins);
  // A log line, metrics and (with tracing on) a span per request; /metrics.
  traceHttpServer(app.server);
  observeRequests(app, options.logger ?? rootLogger());
  registerMetricsEndpoint(app);
  // Malformed JSON, a wrong content type or an oversized body: the caller's input is at fault.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const requestId = reply.getHeader('x-request-id') as string;
    const tooLarge = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
    if (tooLarge) await discardRest(request.raw);
    // A body of another type, or of none said, is 415 with what to send (Fastify's message names no type).
    const mediaType = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
    const given = request.headers['content-type']?.split(';')[0];
    const appError = mediaType
      ? validationFailed(`send the body as JSON, with Content-Type: application/json (${given ? `not ${given}` : 'none was given'})`)
      : tooLarge
        ? validationFailed(`the body exceeds the limit of 1 MiB (${MAX_BODY_BYTES} bytes)`)
        : error.statusCode && error.statusCode < 500
          ? validationFailed(error.message)
          : asAppError(error, requestId, log);
    // MCP clients are told 413 (Content Too Large); REST and GraphQL keep their documented 400.
    const status = mediaType ? 415 : tooLarge && request.url.split('?')[0] === '/mcp' ? 413 : appError.status;
    // A GraphQL client reads `errors`, whatever went wrong with its request.
    if (request.url.split('?')[0] === '/graphql') {
      return reply.code(status).send({ errors: [{ message: appError.message, extensions: { code: appError.kind } }] });
    }
    return sendError(reply, appError, status);
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)));
  // The schema explorer (a browser's GET /graphql) and the REST docs (/v1/docs), from npm assets.
  registerExplorer(app);
  // The admin front-end (its files, and its page for any path of the app).
  registerAdminApp(app, options.adminDist);

  // The lane answers what it can before Apollo's handler; the rest goes on with what it did (see
  // graphql-fast-path/), and is counted as the gateway's. A hook of the /graphql route alone: no
  // other route pays for it.
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const served = lane ? await lane.serve(request, reply) : false;
    metrics.graphqlPath(served ? 'lane' : 'gateway');
    if (served) return reply;
  };
  app.addHook('onRoute', (route) => {
    if (route.url !== '/graphql') return;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...own, serve];
  });
  boundAnswers(app, (requestId, bytes) => log(`[${requestId}] a /graphql answer of ${bytes} bytes refused (over ${GRAPHQL_LIMITS.maxAnswerBytes})`));
  if (lane) apollo.addPlugin(lane.plugin());
  apollo.addPlugin(fastifyApolloDrainPlugin(app));
  apollo.addPlugin(observeGraphql());
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: async (request, reply): Promise<GatewayRequestContext> => {
      const requestId = reply.getHeader('x-request-id') as string;
      const handoff = request.graphqlLane;
      try {
        if (handoff?.admissionError) throw handoff.admissionError;
        const admission = handoff?.admission ?? (await gatekeeper.admit(credentialOf(request), request.ip, requestId, 'graphql'));
        // After the lane's charge, the bucket it left (the header reports the whole document's charge).
        reply.headers(rateHeaders(handoff?.rate ?? admission.rate));
        request.observed?.admitted(admission.call.actor);
        let trustedDocument: string | undefined;
        try {
          trustedDocument = trustedDocumentFor(trustedDocuments, admission.call.actor, request);
        } catch (error) {
          // A free document from a session is audited as a refusal; a hash not found is the ordinary start of APQ.
          if ((error as GraphQLError).extensions.code === 'forbidden') gatekeeper.refused(admission.call, 'graphql', 'forbidden');
          throw error;
        }
        return {
          trustedDocument,
          call: admission.call,
          signed: admission.signed,
          observed: request.observed ?? undefined,
          trace: request.observed?.trace,
          refused: (op, kind) => gatekeeper.refused(admission.call, op, kind),
          // The header reports the bucket after the whole document's charge, not only the admission's token.
          charge: async (cost, op) => {
            if (handoff?.chargeError) throw handoff.chargeError;
            if (handoff?.charged) return;
            const rate = await gatekeeper.charge(admission, cost, op);
            if (rate) reply.headers(rateHeaders(rate));
          },
        };
      } catch (error) {
        if (error instanceof GraphQLError) throw error;
        throw requestRefusal(asAppError(error, requestId, log));
      }
    },
  });
  const invoker = new Invoker({ apollo, gatekeeper, localSources: options.localSources ?? new Map() });
  registerRest(app, invoker, log);
  registerEventStream(app, { apollo, gatekeeper, log });
  registerAuthRoutes(app, invoker, log);
  registerMcp(app, invoker, gatekeeper, log);

  const openapi = JSON.stringify(openApiDocument());
  app.get('/v1/openapi.json', async (_, reply) => reply.type('application/json').send(openapi));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) =>
    options.ready().then(
      (r) => reply.code(r.status === 'unavailable' ? 503 : 200).send(r),
      () => reply.code(503).send({ status: 'unavailable' }),
    ),
  );
  return app;
}
