import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { isErrorKind, type CallContext } from '@backoffice/platform';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { GraphQLDataSource } from '@apollo/gateway';
import type { GatewayContext } from './data-sources';

export interface GatewayRequestContext extends GatewayContext {
  call: CallContext;
  /** Called when the gateway refuses a request before any subgraph saw it. */
  refused(operation: string, kind: string): void;
  /** Spends more of the caller's rate for a document doing several things (throws rate_limited). */
  charge(cost: number, operation: string): Promise<void>;
}

/** Root fields one GraphQL document may hold: aliases must not turn one request into hundreds. */
export const MAX_ROOT_FIELDS = 20;

/** GraphQL's own refusals of a request (syntax, unknown field, wrong variable type) are validation_failed. */
const GRAPHQL_INPUT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_NOT_FOUND',
]);

/** Keeps `code` (the reference's kind) and the error's own details; drops transport and tracing fields. */
export function formatError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  const { code, http: _http, serviceName: _service, stacktrace: _stack, exception: _exception, ...details } = (formatted.extensions ?? {}) as Record<string, unknown>;
  if (isErrorKind(code)) return { message: formatted.message, path: formatted.path, extensions: { code, ...details } };
  if (typeof code === 'string' && GRAPHQL_INPUT_CODES.has(code)) {
    return { message: formatted.message, locations: formatted.locations, extensions: { code: 'validation_failed' } };
  }
  return { message: 'internal error', path: formatted.path, extensions: { code: 'internal' } };
}

/** Gives internal errors the request id, and audits GraphQL-level refusals of a known actor. */
const requestPlugin: ApolloServerPlugin<GatewayRequestContext> = {
  async requestDidStart() {
    return {
      // One token per root field: a document with 40 aliased mutations costs 40 calls.
      async didResolveOperation({ contextValue, operation }) {
        const fields = operation?.selectionSet.selections.length ?? 1;
        if (fields > MAX_ROOT_FIELDS) {
          throw new GraphQLError(`a document may hold at most ${MAX_ROOT_FIELDS} root fields`, { extensions: { code: 'validation_failed', http: { status: 400 } } });
        }
        try {
          await contextValue.charge(fields - 1, 'graphql');
        } catch (error) {
          const rate = (error as { rate?: { retryAfter: number } }).rate;
          throw new GraphQLError((error as Error).message, {
            extensions: { code: 'rate_limited', http: { status: 429, headers: new Map([['retry-after', String(rate?.retryAfter ?? 1)]]) } },
          });
        }
      },
      async didEncounterErrors({ contextValue, errors, operation }) {
        const refused = errors.find((e) => GRAPHQL_INPUT_CODES.has(String(e.extensions?.code)));
        if (refused && !operation?.selectionSet.selections.length) contextValue.refused?.('graphql', 'validation_failed');
        else if (refused) {
          const fields = operation!.selectionSet.selections.map((s) => ('name' in s && s.name ? s.name.value : '?'));
          contextValue.refused?.(`graphql:${fields.join(',')}`, 'validation_failed');
        }
      },
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single') return;
        for (const error of response.body.singleResult.errors ?? []) {
          if (error.extensions?.code === 'internal' && error.message === 'internal error') {
            (error as { message: string }).message = `internal error (request ${contextValue.call?.request_id})`;
            (error.extensions as Record<string, unknown>).request_id = contextValue.call?.request_id;
          }
        }
      },
    };
  },
};

export function createGateway(supergraphSdl: string, buildService: (name: string, url: string) => GraphQLDataSource) {
  const gateway = new ApolloGateway({ supergraphSdl, buildService: ({ name, url }) => buildService(name, url ?? '') });
  return new ApolloServer<GatewayRequestContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    // The schema is the product's documentation: explorers and SDK generators read it, in production too.
    introspection: true,
    formatError,
    plugins: [ApolloServerPluginLandingPageDisabled(), requestPlugin],
  });
}
