import { RemoteGraphQLDataSource, type GraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { ACTOR_CONTEXT_HEADER, type SubgraphRuntime } from '@backoffice/platform';
import { execute, parse, validate, type DocumentNode, type GraphQLError } from 'graphql';

export interface GatewayContext {
  /** The signed call context, forwarded to every subgraph. */
  signed: string;
}

/**
 * Executes a subgraph that runs in this process without HTTP. The query planner sends the same few
 * documents over and over, so each is parsed and validated once. The signed context still goes
 * through the subgraph's own verification, exactly as over HTTP.
 */
export class InProcessDataSource implements GraphQLDataSource<GatewayContext> {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(private readonly runtime: SubgraphRuntime) {}

  async process({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>) {
    const source = request.query ?? '';
    let document = this.documents.get(source);
    if (!document) {
      const parsed = parse(source);
      const errors = validate(this.runtime.schema, parsed);
      document = errors.length ? errors : parsed;
      if (this.documents.size >= 2000) this.documents.clear();
      this.documents.set(source, document);
    }
    if (Array.isArray(document)) return { errors: document as GraphQLError[] };
    const result = await execute({
      schema: this.runtime.schema,
      document: document as DocumentNode,
      variableValues: request.variables,
      operationName: request.operationName,
      contextValue: this.runtime.contextFor((context as Partial<GatewayContext>).signed),
    });
    return result as Awaited<ReturnType<GraphQLDataSource['process']>>;
  }
}

/** A subgraph in another process, over HTTP with keep-alive (Node's fetch pools connections). */
export function remoteDataSource(url: string): GraphQLDataSource<GatewayContext> {
  return new RemoteGraphQLDataSource<GatewayContext>({
    url,
    willSendRequest({ request, context }) {
      if (context.signed) request.http?.headers.set(ACTOR_CONTEXT_HEADER, context.signed);
    },
  });
}
