/**
 * The platform's public face: what the subgraphs, the contracts and the gateway use. Anything else
 * stays inside its module (tests reach it by path).
 */
export { type Actor, ACTOR_CONTEXT_HEADER, type CallContext, isOperatorSession, signContext } from './actor';
export { admitBearer, rateHeaders, requestIdOf, requestRefusal } from './admission';
export type { AuditRow } from './audit';
export { type ConsumerDefinition, on, routedConsumer } from './bus/consumer';
export { EventBus } from './bus/event-bus';
export { countRequests } from './bus/budget';
export { job } from './bus/job';
export { routeConsumer } from './bus/routes';
export { task } from './bus/task';
export { ChannelListener, notifyChannel } from './db/channel';
export { migrate, poolOf } from './db/data-source';
export { escapeLike } from './db/like';
export { dataDir } from './db/data-dir';
export { type Database, openDatabase } from './db/locate';
export { type NamedStatement, type Page, type PageQuery, PreparedTexts, preparedName, type Sql, sqlOf } from './db/sql';
export { assignments, Clause, conditions, sqlText } from './db/where';
export { assertBelow, assertRoom, type CollectionLimit, lockCollection } from './collection-limit';
export { deploymentKey } from './deployment-key';
export {
  AppError,
  asAppError,
  fromExtensions,
  type Refinement,
  conflict,
  ERROR_STATUS,
  type ErrorKind,
  forbidden,
  isErrorKind,
  notFound,
  present,
  RatedError,
  RateLimited,
  unauthorized,
  validationFailed,
} from './errors';
export { isReason, type Reason, REASONS } from './reasons';
export { defineEvent, type EventDeclaration, type EventDraft, eventDraft, type EventPayload } from './event';
export {
  documentCost,
  GRAPHQL_LIMITS,
  type ListSizes,
  listSizesOf,
  rateCost,
  rootFieldCount,
  rootFields,
  useListSizes,
  withoutVariableValue,
} from './graphql-cost';
export { listSize, operationDocument, selectionOf, wholeAnswer } from './graphql-sdl';
export { checkScalarInputs } from './scalars';
export { newId, pooledRandomBytes, ULID_PATTERN } from './ids';
export { jsonProblem, MAX_BODY_DEPTH } from './json-guard';
export { registerMetricsEndpoint } from './observability/fastify';
export { lineLog, type Logger, rootLogger } from './observability/logger';
export { tallyOf } from './observability/log-tally';
export { metrics } from './observability/metrics';
export {
  injectTrace,
  inSpan,
  serverSpanOf,
  SpanKind,
  startTracing,
  stopTracing,
  type TraceHeaders,
  traceHeadersOf,
  traceHttpServer,
} from './observability/tracing';
export {
  defineOperation,
  deprecationNotice,
  errorKinds,
  type FamilyKeys,
  familyKeys,
  fieldName,
  type Operation,
  type OperationCall,
  operationDefiner,
  ownerOnly,
  queryInput,
  typeStem,
} from './operation';
export { type DomainEvent, writeEvents } from './outbox';
export { maskEventPayload, maskPersonal, payloadSchemas } from './personal';
export {
  CONNECTION_MAX_PAGE,
  type ConnectionInput,
  type ConnectionPage,
  type ConnectionQuery,
  connectionArgs,
  connectionOf,
  selectedConnectionOf,
  mapNodes,
  type OrderDirection,
} from './connection';
export { checkMergedDepth, type MergedRead, mergedReads, pageOf } from './platform-reads';
export { isFeedPosition } from './event-feed';
export { port, type PortsOf } from './ports';
export { type HttpCaching, noneMatchHits, PreparedJson, projectTo } from './prepared';
export { fieldNamesAt, preparedInput, selectionWithinAnswer, selectsAny } from './selection-projection';
export { createRateLimiter, type RateDecision, type RateLimiter } from './rate-limit';
export { type Static, t, type TSchema } from './schema';
export { SecretBox } from './secret-box';
export { internalCaller } from './serve-subgraph';
export { runStandalone } from './standalone';
export {
  type DerivedCopies,
  emittersOf,
  type SubgraphContext,
  subgraphDataSource,
  type SubgraphDefinition,
  type SubgraphHooks,
  subgraphOperations,
  SubgraphRuntime,
  subgraphSdl,
  type SubgraphSettings,
} from './subgraph';
export { trustProxyOf } from './subgraph-access';
export { resultProblem, validate } from './validation';
export { vaultKey } from './vault-key';
export { defineStateMachine, type StateMachine } from './state-machine';
