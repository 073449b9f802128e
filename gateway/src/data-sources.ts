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
import {
  BREAK,
  execute,
  GraphQLError,
  isListType,
  isNonNullType,
  parse,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
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

/** A fetch document as it is run: parsed, and compiled unless graphql-jit would not run it as graphql-js does; or its validation errors. */
type Runnable = { document: DocumentNode; compiled?: CompiledQuery } | { errors: readonly GraphQLError[] };

/**
 * A compiled document weighs about 270 times its text (45 KiB for the admin order list's 170
 * characters, heap measured over 500 compilations), a parsed one about 4 times.
 */
const weightOf = (runnable: Runnable, key: string) => ('compiled' in runnable ? 300 : 4) * key.length + 1024;

/**
 * Executes a subgraph that runs in this process without HTTP. The query planner sends the same few
 * documents over and over, so each is parsed, validated and compiled once: graphql-jit turns the
 * document into a function over the subgraph's resolvers (an admin list of 50 orders answers in
 * about a sixth less time than on graphql-js's generic walk, `npm run bench` admin_order_list),
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
      runnable = errors.length ? { errors } : this.compile ? compiled(this.runtime.schema, document, operationName) : { document };
      this.documents.set(key, runnable);
    }
    return runnable;
  }

  private async run(request: Options['request'], context: Options['context']) {
    const runnable = this.runnable(request.query ?? '', request.operationName);
    if ('errors' in runnable) return { errors: runnable.errors as GraphQLError[] };
    // Variables made in this process (the event stream's, REST's) may hold `undefined`: graphql-js
    // takes it as absent, graphql-jit as null, so those run on graphql-js (JSON never holds it).
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

/** The document compiled, or as it is for graphql-js when graphql-jit would not run it alike or safely (see `compilable`). */
function compiled(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Runnable {
  if (!compilable(schema, document)) return { document };
  try {
    const query = compileQuery(schema, document, operationName);
    return isCompiledQuery(query) ? { document, compiled: query } : { document };
  } catch {
    return { document };
  }
}

/**
 * The documents graphql-jit runs as graphql-js does, and safely: plain fields (no alias, directive or
 * fragment spread; inline fragments, as `_entities` is asked), variables without defaults, literals
 * that are whole numbers, booleans or null. The planner's fetches of the admin's documents are such.
 * What each rule keeps out, seen with graphql-jit 0.8.9:
 * - it writes literal arguments into the code it generates: a string (or an enum literal a JSON
 *   scalar reads as one) starting with its date marker, `__MAGIC_DATE__…`, becomes `new Date(…)` around
 *   the rest, a client's text run in this process; an object's `__proto__` key sets a prototype;
 * - a variable inside an input object or list literal becomes null when not given (graphql-js leaves
 *   the field out); a non-null variable's default is not applied; `@include(if: $b)` takes null as
 *   false; a fragment spread under `@include` in one place drops its fields in another;
 * - an alias or a variable named `__proto__` is lost;
 * - each field's `info` is kept under its response path's keys joined with `_`: two paths that join
 *   alike share one (`a { b_c }` and `a_b { c }`), and a resolver would read another field's selection.
 */
export function compilable(schema: GraphQLSchema, document: DocumentNode): boolean {
  let plain = true;
  const refuse = () => {
    plain = false;
    return BREAK;
  };
  const typeInfo = new TypeInfo(schema);
  // The fields above: each one's segment of its children's info names (an `idx` per list level, then its key) and its place.
  const names: string[] = [];
  const places: string[] = [];
  const seen = new Map<string, string>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      StringValue: refuse,
      ObjectValue: refuse,
      ListValue: refuse,
      FloatValue: refuse,
      EnumValue: refuse,
      Directive: refuse,
      FragmentSpread: refuse,
      FragmentDefinition: refuse,
      VariableDefinition: (node) => (node.defaultValue || node.variable.name.value.startsWith('__') ? refuse() : undefined),
      Field: {
        enter(node) {
          const key = node.name.value;
          if (node.alias || key.includes('idx')) return refuse();
          // Leaf first, as graphql-jit joins them (its `idx<depth>` read as `idx`: no key holds `idx`).
          const name = [key, ...names.toReversed()].join('_');
          places.push(`${typeInfo.getParentType()?.name}.${key}`);
          const place = places.join('/');
          let type = typeInfo.getType();
          let segment = key;
          while (type && (isNonNullType(type) || isListType(type))) {
            if (isListType(type)) segment = `idx_${segment}`;
            type = type.ofType;
          }
          names.push(segment);
          if ((seen.get(name) ?? place) !== place) return refuse();
          seen.set(name, place);
          return undefined;
        },
        leave() {
          names.pop();
          places.pop();
        },
      },
    }),
  );
  return plain;
}

function holdsUndefined(value: unknown): boolean {
  if (value === undefined) return true;
  if (value === null || typeof value !== 'object') return false;
  return Array.isArray(value) ? value.some(holdsUndefined) : Object.values(value).some(holdsUndefined);
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
