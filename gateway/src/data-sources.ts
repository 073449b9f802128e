import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import {
  ACTOR_CONTEXT_HEADER,
  injectTrace,
  inSpan,
  SpanKind,
  type CallContext,
  type Operation,
  type SubgraphRuntime,
  type TraceHeaders,
} from '@backoffice/platform';
import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import { compiledQuery, holdsUndefined } from './graphql-fast-path';

type Options = GraphQLDataSourceProcessOptions<GatewayContext>;

export interface GatewayContext {
  /** Who is calling, as the gateway admitted them. */
  call: CallContext;
  /** The same, signed: what a subgraph in another process is sent and verifies. */
  signed(): string;
  /** The caller's trace context, passed on as it came to subgraphs in other processes when tracing is off. */
  trace?: TraceHeaders;
}

/** A fetch document as it is run: parsed, and compiled unless graphql-jit would not run it as graphql-js does; or its validation errors. */
type Runnable = { document: DocumentNode; compiled?: CompiledQuery } | { errors: readonly GraphQLError[] };

/**
 * A compiled document weighs hundreds of times its text, a parsed one a few times: the factors below
 * are its measured heap, rounded up (docs/decisions/graphql-fast-path.md).
 */
const weightOf = (runnable: Runnable, key: string) => ('compiled' in runnable ? 300 : 4) * key.length + 1024;

/**
 * Executes a subgraph that runs in this process without HTTP. The query planner sends the same few
 * documents over and over, so each is parsed, validated and compiled once: graphql-jit turns the
 * document into a function over the subgraph's resolvers (an admin list answers sooner than on
 * graphql-js's generic walk: docs/decisions/graphql-fast-path.md),
 * with the same results and errors. The call context is handed over as is: signing guards a process
 * boundary, and here there is none (whoever could forge the object could read the secret). The
 * subgraph still checks scopes itself.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  // The planner's fetch documents as run, by operation name and text: bounded by what they weigh (64 MiB).
  private readonly documents = new LRUCache<string, Runnable>({ max: 2000, maxSize: 64 * 1024 * 1024, sizeCalculation: weightOf });

  /** `compile` false: every document run by graphql-js (tests comparing the two). */
  constructor(
    private readonly runtime: SubgraphRuntime,
    private readonly compile = true,
  ) {}

  /** The subgraph's own schema (its field types, which the /graphql lane compares with the supergraph's). */
  get schema() {
    return this.runtime.schema;
  }

  process(options: GraphQLDataSourceProcessOptions<GatewayContext>) {
    return this.request(options.request, options.context);
  }

  /** One request, with only what running it needs (REST's single fetch has no gateway request around it). */
  request(request: Options['request'], context: Options['context']) {
    const { name } = this.runtime.definition;
    return inSpan(`subgraph ${name}`, SpanKind.INTERNAL, { 'backoffice.subgraph': name, 'graphql.operation.name': request.operationName ?? '' }, () =>
      this.run(request, context),
    );
  }

  /** Runs one of the subgraph's prepared reads without GraphQL (see `Operation.prepared`); the executor checks as it always does. */
  direct(operation: Operation, input: Record<string, unknown>, call: CallContext): Promise<unknown> {
    const { name } = this.runtime.definition;
    return inSpan(`subgraph ${name}`, SpanKind.INTERNAL, { 'backoffice.subgraph': name, 'backoffice.operation': operation.name }, () =>
      this.runtime.executor.execute(operation, input, call),
    );
  }

  private runnable(source: string, operationName: string | undefined): Runnable {
    const key = `${operationName ?? ''}\n${source}`;
    let runnable = this.documents.get(key);
    if (!runnable) {
      const document = parse(source);
      const errors = validate(this.runtime.schema, document).map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
      const compiled = errors.length || !this.compile ? undefined : compiledQuery(this.runtime.schema, document, operationName);
      runnable = errors.length ? { errors } : compiled ? { document, compiled } : { document };
      this.documents.set(key, runnable);
    }
    return runnable;
  }

  private async run(request: Options['request'], context: Options['context']) {
    const runnable = this.runnable(request.query ?? '', request.operationName);
    if ('errors' in runnable) return { errors: runnable.errors as GraphQLError[] };
    const contextValue = { call: (context as Partial<GatewayContext>).call ?? null };
    const result: ExecutionResult =
      runnable.compiled && !holdsUndefined(request.variables)
        ? await runnable.compiled.query(undefined, contextValue, request.variables ?? {})
        : await execute({
            schema: this.runtime.schema,
            document: runnable.document,
            variableValues: request.variables,
            operationName: request.operationName,
            contextValue,
          });
    // Errors without a path are the request's own (variables that do not coerce): the caller's input, as over HTTP.
    const { errors: raised, data, ...rest } = result;
    const errors = raised?.map((e) => (e.path || e.extensions?.code ? e : withCode(e, 'BAD_USER_INPUT')));
    // In graphql-js's order (errors first), whichever ran it.
    return (errors ? { errors, data, ...rest } : { data, ...rest }) as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }
}

function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code } });
}

/**
 * A subgraph in another process, over HTTP with keep-alive (Node's fetch pools connections). Each
 * fetch is a span (with tracing on) whose context goes along in `traceparent`.
 */
export function remoteDataSource(url: string, name = 'remote'): GraphQLDataSource<GatewayContext> {
  const source = new RemoteGraphQLDataSource<GatewayContext>({
    url,
    willSendRequest({ request, context }) {
      if (!request.http) return;
      if (context.signed) request.http.headers.set(ACTOR_CONTEXT_HEADER, context.signed());
      injectTrace(request.http.headers, context.trace);
    },
  });
  const process = source.process.bind(source);
  source.process = (options) =>
    inSpan(
      `subgraph ${name}`,
      SpanKind.CLIENT,
      { 'backoffice.subgraph': name, 'graphql.operation.name': options.request.operationName ?? '', 'url.full': url },
      () => process(options),
    );
  return source;
}
