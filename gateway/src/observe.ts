import type { ApolloServerPlugin } from '@apollo/server';
import { fieldName, metrics, serverSpanOf, traceHeadersOf, type Actor, type Logger, type TraceHeaders } from '@backoffice/platform';
import type { FastifyInstance } from 'fastify';
import type { OperationDefinitionNode } from 'graphql';
import type { GatewayRequestContext } from './gateway';
import { OPERATIONS } from './subgraphs';

/**
 * What the gateway learns of a request while serving it, for its log line, its metrics and its span:
 * which operation (named by the REST/MCP invoker or the GraphQL plugin), who called, how it failed.
 */
export class RequestRecord {
  operation?: string;
  /** The first failure's kind; `ok` when nothing failed. */
  outcome?: string;
  actor?: Actor;

  constructor(
    /** The caller's `traceparent`, passed on to subgraphs in other processes when tracing is off. */
    readonly trace: TraceHeaders | undefined,
  ) {}

  /** Names the operation; a request running several (a GraphQL document, an MCP batch) is `multiple`. */
  named(operation: string): void {
    this.operation = this.operation === undefined || this.operation === operation ? operation : 'multiple';
  }

  admitted(actor: Actor | null): void {
    if (actor) this.actor = actor;
  }

  failed(kind: string): void {
    this.outcome ??= kind;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's record (set on arrival). */
    observed: RequestRecord | null;
  }
}

/** The surface a route belongs to; anything else (health, documents, metrics) is `other`. */
function surfaceOf(route: string | undefined): 'rest' | 'graphql' | 'mcp' | 'other' {
  if (route === '/graphql') return 'graphql';
  if (route === '/mcp') return 'mcp';
  if (route?.startsWith('/v1/commands/') || route?.startsWith('/v1/read/')) return 'rest';
  return 'other';
}

const KIND_OF_STATUS: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 429: 'rate_limited' };

/** An HTTP status as the reference's kind, for answers nothing named a kind for (HTTP's own 4xx are validation_failed). */
function kindOfStatus(status: number): string {
  if (status < 400) return 'ok';
  if (status >= 500) return 'internal';
  return KIND_OF_STATUS[status] ?? 'validation_failed';
}

/** Probes and scrapes: logged at debug, so a line per probe does not bury the requests. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Gives every request its record, and once it is answered: one log line (request id, surface,
 * operation, outcome, status, duration, actor; never a header, so never a token), the request
 * metrics, and the request span's route and operation (with tracing on). Label values are bounded:
 * operations come from the declarations, a route's pattern stands for the rest, `unknown` for none.
 */
export function observeRequests(app: FastifyInstance, logger: Logger): void {
  app.decorateRequest('observed', null);
  app.addHook('onRequest', (request, _reply, done) => {
    request.observed = new RequestRecord(traceHeadersOf(request.headers));
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const record = request.observed;
    const route = request.routeOptions.url;
    const surface = surfaceOf(route);
    const operation = record?.operation ?? (surface === 'other' ? (route ?? 'unknown') : surface === 'mcp' ? 'mcp' : 'unknown');
    const status = reply.statusCode;
    const outcome = record?.outcome ?? kindOfStatus(status);
    const seconds = reply.elapsedTime / 1000;
    metrics.request(surface, operation, outcome, seconds);
    const actor = record?.actor;
    const level = status >= 500 ? 'error' : route !== undefined && QUIET_ROUTES.has(route) ? 'debug' : 'info';
    const requestId = String(reply.getHeader('x-request-id'));
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          request_id: requestId,
          surface,
          operation,
          outcome,
          status,
          duration_ms: Math.round(reply.elapsedTime * 100) / 100,
          method: request.method,
          path: request.url.split('?')[0].slice(0, 256),
          actor_id: actor?.api_key_id ?? null,
          actor_name: actor?.name ?? null,
          tenant_id: actor?.tenant_id ?? null,
        },
        'request',
      );
    }
    const span = serverSpanOf(request.raw);
    if (span) {
      span.updateName(`${request.method} ${route ?? 'unknown'}`);
      span.setAttributes({
        'http.route': route ?? 'unknown',
        'backoffice.surface': surface,
        'backoffice.operation': operation,
        'backoffice.outcome': outcome,
        'backoffice.request_id': requestId,
      });
      if (actor) span.setAttributes({ 'backoffice.actor_id': actor.api_key_id, 'backoffice.tenant_id': actor.tenant_id });
    }
    done();
  });
}

/** GraphQL field → the declared operation it serves. */
export const OPERATION_OF_FIELD = new Map([...OPERATIONS.values()].map(({ operation: op }) => [op.connection?.field ?? fieldName(op.name), op] as const));

/** A document's operation label: the declared operation of its one root field, else `multiple`, `introspection` or `unknown`. */
export function graphqlOperation(operation: OperationDefinitionNode): string {
  const fields = operation.selectionSet.selections;
  if (fields.length !== 1 || fields[0].kind !== 'Field') return fields.length > 1 ? 'multiple' : 'unknown';
  const field = fields[0].name.value;
  if (field.startsWith('__')) return 'introspection';
  return OPERATION_OF_FIELD.get(field)?.name ?? 'unknown';
}

/**
 * Names a /graphql request's operation and outcome on its record. Documents the REST shim runs
 * through the gateway carry no record (the invoker named them), so this does nothing for them.
 */
export function observeGraphql(): ApolloServerPlugin<GatewayRequestContext> {
  return {
    async requestDidStart({ contextValue }) {
      const record = contextValue.observed;
      if (!record) return;
      return {
        async didResolveOperation({ operation }) {
          if (operation) record.named(graphqlOperation(operation));
        },
        async willSendResponse({ response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          const code = errors?.[0]?.extensions?.code;
          if (errors?.length) record.failed(typeof code === 'string' ? code : 'internal');
        },
      };
    },
  };
}
