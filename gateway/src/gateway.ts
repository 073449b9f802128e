import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import {
  asAppError,
  checkScalarInputs,
  fieldName,
  isErrorKind,
  listSizesOf,
  requestRefusal,
  rootFields,
  unauthorized,
  useListSizes,
  withoutVariableValue,
  type CallContext,
  type ErrorKind,
} from '@backoffice/platform';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode, parse } from 'graphql';
import type { GraphQLDataSource } from '@apollo/gateway';
import type { GatewayContext } from './data-sources';
import type { RequestRecord } from './observe';
import { armorOptions, documentCost, GRAPHQL_LIMITS, PARSE_OPTIONS, rateCost } from './graphql-limits';
import { OPERATIONS } from './subgraphs';
import { trustedDocumentsPlugin } from './trusted-documents';

export interface GatewayRequestContext extends GatewayContext {
  call: CallContext;
  /** Called when the gateway refuses a request before any subgraph saw it. */
  refused(operation: string, kind: string): void;
  /** Spends more of the caller's rate for a document doing several things (throws rate_limited). */
  charge(cost: number, operation: string): Promise<void>;
  /** The /graphql request's record (log line, metrics); absent for documents the REST shim runs. */
  observed?: RequestRecord;
  /** The text of the trusted document the request named by hash (see trusted-documents.ts). */
  trustedDocument?: string;
  /**
   * The REST shim's or MCP's own document of one operation (`operationDocument`): its answer is bounded
   * by the operation's input schema (a page's `limit`), so the cost limit, which bounds what a client
   * selects, does not hold it.
   */
  ownDocument?: true;
}

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

/** Apollo's persisted-query answers keep their code: APQ and persisted-document clients act on it (send the text, or fail). */
const PERSISTED_QUERY_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED']);

type Extensions = Record<string, unknown> | undefined;

/**
 * What an error of the GraphQL pipeline is for the caller: a reference kind as it is; GraphQL's own
 * refusals, and any error Apollo answers with a 4xx status (a persisted query whose hash does not
 * match), are the request's fault; everything else is ours.
 */
export function kindOf(extensions: Extensions): ErrorKind {
  const code = extensions?.code;
  if (isErrorKind(code)) return code;
  if (typeof code === 'string' && GRAPHQL_INPUT_CODES.has(code)) return 'validation_failed';
  const status = (extensions?.http as { status?: number } | undefined)?.status;
  return status !== undefined && status >= 400 && status < 500 ? 'validation_failed' : 'internal';
}

/** Limits in words: Armor and graphql-js's parser call theirs syntax errors, and graphql-js's merge budget says only "Validation aborted.". */
function inputMessage(message: string): string {
  if (message === 'Validation aborted.') return 'the document is too complex to validate (too many overlapping fields)';
  if (/^Syntax Error: Document contains more that \d+ tokens/.test(message)) return `the document exceeds the token limit of ${GRAPHQL_LIMITS.maxTokens}`;
  return message.replace(/^Syntax Error: (?=.*limit)/, '');
}

/** Keeps `code` (the reference's kind) and the error's own details; drops transport and tracing fields. */
export function formatError(formatted: GraphQLFormattedError, original?: unknown): GraphQLFormattedError {
  const {
    code: _code,
    http: _http,
    serviceName: _service,
    stacktrace: _stack,
    exception: _exception,
    ...details
  } = (formatted.extensions ?? {}) as Record<string, unknown>;
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && PERSISTED_QUERY_CODES.has(code)) return { message: formatted.message, extensions: { code } };
  const kind = kindOf(original instanceof GraphQLError ? { ...formatted.extensions, ...original.extensions } : formatted.extensions);
  if (kind === 'internal') return { message: 'internal error', path: formatted.path, extensions: { code: 'internal' } };
  // A variable's value is never echoed: it may be a secret (see withoutVariableValue).
  const reason = original instanceof GraphQLError ? original.originalError?.message : undefined;
  const message = withoutVariableValue(formatted.message, reason);
  if (isErrorKind(formatted.extensions?.code)) return { message, path: formatted.path, extensions: { code: kind, ...details } };
  return { message: inputMessage(message), locations: formatted.locations, extensions: { code: kind } };
}

/** The root fields that are operations needing a credential (`access: 'internal'`). */
export const CREDENTIAL_FIELDS = new Set([...OPERATIONS.values()].filter((r) => r.operation.access !== 'public').map((r) => fieldName(r.operation.name)));

const refusal = (message: string) => new GraphQLError(message, { extensions: { code: 'validation_failed', http: { status: 400 } } });

/**
 * Refuses what the gateway cannot run before it tries (else these surface as its internal errors):
 * no operation matching `operationName`, several unnamed choices, a subscription.
 */
function checkOperation(operation: OperationDefinitionNode | undefined, operationName: string | undefined | null): OperationDefinitionNode {
  if (!operation) {
    throw refusal(
      operationName ? `the document has no operation named ${operationName}` : 'the document holds several operations: name one with operationName',
    );
  }
  if (operation.operation === 'subscription') throw refusal('subscriptions are not served: use a query or a mutation');
  return operation;
}

/**
 * Bounds each document (root fields, cost) and charges the caller's rate by it; gives internal
 * errors the request id and logs their cause; audits GraphQL-level refusals of a known actor.
 */
function requestPlugin(log: (line: string) => void): ApolloServerPlugin<GatewayRequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation: resolved, document, request, schema }) {
          const operation = checkOperation(resolved, request.operationName);
          const roots = rootFields(document, operation);
          // No credential where one is needed is refused as a bad one is: 401 for the whole request, not a field error.
          if (!contextValue.call?.actor && [...roots.values()].some((field) => CREDENTIAL_FIELDS.has(field.name.value))) {
            throw new GraphQLError(unauthorized().message, { extensions: { code: 'unauthorized', http: { status: 401 } } });
          }
          const fields = roots.size;
          if (fields > GRAPHQL_LIMITS.maxRootFields) {
            throw refusal(`a document may hold at most ${GRAPHQL_LIMITS.maxRootFields} root fields (fragments expanded), found ${fields}`);
          }
          if (contextValue.ownDocument) return;
          let cost: number;
          try {
            cost = documentCost(schema, document, request.variables, request.operationName);
          } catch (error) {
            throw refusal(withoutVariableValue((error as Error).message, (error as GraphQLError).originalError?.message));
          }
          if (cost > GRAPHQL_LIMITS.maxCost) throw refusal(`the document's estimated cost of ${cost} exceeds the limit of ${GRAPHQL_LIMITS.maxCost}`);
          try {
            // The admission spent one token already.
            await contextValue.charge(rateCost(fields, cost) - 1, 'graphql');
          } catch (error) {
            throw requestRefusal(asAppError(error, contextValue.call.request_id, log));
          }
        },
        async didEncounterErrors({ contextValue, errors, operation }) {
          const requestId = contextValue.call?.request_id;
          for (const error of errors) {
            if (kindOf(error.extensions) === 'internal') log(`[${requestId}] internal error: ${error.originalError?.stack ?? error.stack ?? error.message}`);
          }
          if (!errors.some((e) => kindOf(e.extensions) === 'validation_failed' && !isErrorKind(e.extensions?.code))) return;
          const fields = operation?.selectionSet.selections.map((s) => ('name' in s && s.name ? s.name.value : '?')) ?? [];
          contextValue.refused?.(fields.length ? `graphql:${fields.join(',')}` : 'graphql', 'validation_failed');
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
}

/**
 * Apollo Server over the federated gateway. `onSchema` hears each API schema as it is loaded, after
 * its scalars learn their input checks (the /graphql lane validates against that very schema).
 */
export function createGateway(
  supergraphSdl: string,
  buildService: (name: string, url: string) => GraphQLDataSource,
  log: (line: string) => void,
  onSchema?: (apiSchema: GraphQLSchema) => void,
) {
  const armor = armorOptions<GatewayRequestContext>();
  const gateway = new ApolloGateway({ supergraphSdl, buildService: ({ name, url }) => buildService(name, url ?? '') });
  // Registered before Apollo Server's own listener: variables are coerced against this very schema.
  gateway.onSchemaLoadOrUpdate(({ apiSchema, coreSupergraphSdl }) => {
    checkScalarInputs(apiSchema);
    // The cost estimate multiplies by each list's declared size, which the API schema no longer carries.
    useListSizes(apiSchema, listSizesOf(parse(coreSupergraphSdl)));
    onSchema?.(apiSchema);
  });
  return new ApolloServer<GatewayRequestContext>({
    gateway,
    includeStacktraceInErrorResponses: false,
    // The schema is the product's documentation: explorers and SDK generators read it, in production too.
    introspection: true,
    formatError,
    parseOptions: PARSE_OPTIONS,
    validationRules: armor.validationRules,
    plugins: [ApolloServerPluginLandingPageDisabled(), trustedDocumentsPlugin<GatewayRequestContext>(), ...armor.plugins, requestPlugin(log)],
  });
}
