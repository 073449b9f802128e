import { asAppError, noneMatchHits, notFound, PreparedJson, validationFailed, type AppError } from '@backoffice/platform';
import { codedTag, codingOf } from './encoding';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RatedError, rateHeaders } from '@backoffice/platform';
import type { Caller, Invoker } from './invoker';
import { deprecationHeaders } from './deprecation';
import { credentialOf } from './session-cookie';
import { COMMANDS, MERGED_READS, READS } from './subgraphs';

/** The documented error body, with the kind's status (or the one HTTP itself calls for, e.g. 414). */
export function sendError(reply: FastifyReply, error: AppError, status = error.status): FastifyReply {
  reply.request.observed?.failed(error.kind);
  if (error instanceof RatedError) reply.headers(rateHeaders(error.rate));
  const { request_id: _omit, ...details } = error.details as Record<string, unknown>;
  return reply.code(status).send({ error: { kind: error.kind, message: error.message, ...details } });
}

const CODINGS = ['br', 'gzip'] as const;

/**
 * A prepared answer goes out as the bytes it was rendered to. With caching metadata (the public
 * products read): a strong ETag, `Cache-Control` and the CDN's purge keys, and 304 for a client or
 * CDN that already holds these bytes.
 */
function sendPrepared(request: FastifyRequest, reply: FastifyReply, result: PreparedJson): FastifyReply {
  const caching = result.caching;
  // Compressed once per page and coding (kept with it when cached): the bytes on the wire are most of a page's cost.
  const taken = codingOf(request, CODINGS);
  const encoded = taken ? result.encoded(taken) : null;
  // Too small a page goes as it is, whatever the client takes.
  const coding = encoded ? taken : null;
  reply.header('vary', 'accept-encoding');
  if (caching) {
    const etag = coding ? codedTag(caching.etag, coding) : caching.etag;
    reply.headers({
      etag,
      'cache-control': `public, max-age=${caching.maxAge}, stale-while-revalidate=${caching.staleWhileRevalidate}`,
      'surrogate-key': caching.tags.join(' '),
      'cache-tag': caching.tags.join(','),
    });
    if (noneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
  }
  if (coding) reply.header('content-encoding', coding);
  return reply.type('application/json; charset=utf-8').send(encoded ?? result.body);
}

function callerOf(request: FastifyRequest, reply: FastifyReply): Caller {
  return {
    authorization: credentialOf(request),
    ip: request.ip,
    requestId: reply.getHeader('x-request-id') as string,
    admitted: (admission) => reply.headers(rateHeaders(admission.rate)),
    record: request.observed,
  };
}

/** The stable REST face: `POST /v1/commands/<name>` and `GET /v1/read/...`, one operation each. */
export function registerRest(app: FastifyInstance, invoker: Invoker, log: (line: string) => void): void {
  const guarded = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const result = await handler(request, reply);
      return result instanceof PreparedJson ? sendPrepared(request, reply, result) : reply.send(result);
    } catch (error) {
      return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
    }
  };

  app.post(
    '/v1/commands/:name',
    guarded(async (request, reply) => {
      const name = (request.params as { name: string }).name;
      const routed = COMMANDS.get(name);
      if (!routed) throw notFound(`unknown command ${name}`);
      reply.headers(deprecationHeaders(routed.operation));
      // No body is an empty input; a JSON `null` is a body that is not an object (as the parser refuses what is not JSON).
      if (request.body === null) throw validationFailed('the body must be a JSON object');
      return invoker.invoke(routed.operation, request.body ?? {}, callerOf(request, reply));
    }),
  );

  // A command changes state: any other method is refused for the whole family, the name unread.
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: '/v1/commands/:name',
    handler: async (request, reply) =>
      sendError(reply.header('allow', 'POST'), validationFailed(`a command is called with POST, not ${request.method} (reads are GET /v1/read/...)`), 405),
  });

  app.get(
    '/v1/read/*',
    guarded(async (request, reply) => {
      const path = `/${(request.params as { '*': string })['*']}`;
      const query = request.query as Record<string, string | string[]>;
      const merged = MERGED_READS.get(path);
      if (merged) return invoker.invokeMerged(merged, query, callerOf(request, reply), true);
      const routed = READS.get(path);
      if (!routed) throw notFound(`unknown read ${path}`);
      const { operation } = routed;
      reply.headers(deprecationHeaders(operation));
      return invoker.invoke(operation, query, callerOf(request, reply), true, true);
    }),
  );
}
