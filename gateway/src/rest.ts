import { asAppError, notFound, type AppError } from '@backoffice/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RatedError, rateHeaders } from './admission';
import type { Caller, Invoker } from './invoker';
import { COMMANDS, MERGED_READS, READS } from './subgraphs';

/** The documented error body, with the kind's status (or the one HTTP itself calls for, e.g. 414). */
export function sendError(reply: FastifyReply, error: AppError, status = error.status): FastifyReply {
  reply.request.observed?.failed(error.kind);
  if (error instanceof RatedError) reply.headers(rateHeaders(error.rate));
  const { request_id: _omit, ...details } = error.details as Record<string, unknown>;
  return reply.code(status).send({ error: { kind: error.kind, message: error.message, ...details } });
}

function callerOf(request: FastifyRequest, reply: FastifyReply): Caller {
  return {
    authorization: request.headers.authorization,
    ip: request.ip,
    requestId: reply.getHeader('x-request-id') as string,
    admitted: (admission) => reply.headers(rateHeaders(admission.rate)),
    record: request.observed,
  };
}

/** The stable REST face: `POST /v1/commands/<name>` and `GET /v1/read/...`, one operation each. */
export function registerRest(app: FastifyInstance, invoker: Invoker, log: (line: string) => void): void {
  const guarded = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return reply.send(await handler(request, reply));
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
      return invoker.invoke(routed.operation, request.body ?? {}, callerOf(request, reply));
    }),
  );

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
      return invoker.invoke(operation, operation.fromQuery ? operation.fromQuery(query) : query, callerOf(request, reply), true);
    }),
  );
}
