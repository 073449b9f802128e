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
import { execute, GraphQLError, parse, validate, type DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

type Options = GraphQLDataSourceProcessOptions<GatewayContext>;

export interface GatewayContext {
  /** Who is calling, as the gateway admitted them. */
  call: CallContext;
  /** The same, signed: what a subgraph in another process is sent and verifies. */
  signed(): string;
  /** The caller's trace context, passed on as it came to subgraphs in other processes when tracing is off. */
  trace?: TraceHeaders;
}

/**
 * Executes a subgraph that runs in this process without HTTP. The query planner sends the same few
 * documents over and over, so each is parsed and validated once. The call context is handed over
 * as is: signing guards a process boundary, and here there is none (whoever could forge the object
 * could read the secret). The subgraph still checks scopes itself.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  // The planner's fetch documents, parsed and validated: bounded by the size of their text (16 MiB).
  private readonly documents = new LRUCache<string, DocumentNode | readonly GraphQLError[]>({
    max: 2000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (_document, source) => 4 * source.length + 64,
  });

  constructor(private readonly runtime: SubgraphRuntime) {}

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

  private async run(request: Options['request'], context: Options['context']) {
    const source = request.query ?? '';
    let document = this.documents.get(source);
    if (!document) {
      const parsed = parse(source);
      const errors = validate(this.runtime.schema, parsed).map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
      document = errors.length ? errors : parsed;
      this.documents.set(source, document);
    }
    if (Array.isArray(document)) return { errors: document as GraphQLError[] };
    const result = await execute({
      schema: this.runtime.schema,
      document: document as DocumentNode,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: { call: (context as Partial<GatewayContext>).call ?? null },
    });
    // Errors without a path are the request's own (variables that do not coerce): the caller's input, as over HTTP.
    const errors = result.errors?.map((e) => (e.path || e.extensions?.code ? e : withCode(e, 'BAD_USER_INPUT')));
    return { ...result, errors } as Awaited<ReturnType<GraphQLDataSource['process']>>;
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
