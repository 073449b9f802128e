import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner, type PlanNode } from '@apollo/query-planner';
import { parse, type DocumentNode } from 'graphql';

export interface SingleFetch {
  subgraph: string;
  query: string;
  operationName?: string;
}

/**
 * The lane's query planner: each document planned once, as the gateway plans it, and its plan when
 * it is a single fetch (whose answer, the gateway's post-processing leaves unchanged).
 */
export class SingleFetchPlanner {
  private readonly supergraph: Supergraph;
  private readonly planner: QueryPlanner;
  private readonly plans = new Map<string, SingleFetch | null>();

  constructor(supergraphSdl: string) {
    this.supergraph = Supergraph.build(supergraphSdl);
    this.planner = new QueryPlanner(this.supergraph);
  }

  /** The single fetch a document plans to, or null when its plan has more than one step. */
  plan(document: string): SingleFetch | null {
    let planned = this.plans.get(document);
    if (planned === undefined) {
      planned = this.planDocument(parse(document));
      this.plans.set(document, planned);
    }
    return planned;
  }

  /** The document's whole query plan, unkept (a subscription's is none). */
  queryPlan(document: DocumentNode, operationName?: string): PlanNode | undefined {
    const operation = operationFromDocument(this.supergraph.apiSchema(), document, { validate: true, operationName });
    const { node } = this.planner.buildQueryPlan(operation);
    return node?.kind === 'Subscription' ? undefined : node;
  }

  /** A field's type in a subgraph's own schema, as the supergraph records it (undefined: no such field there). */
  fieldType(subgraph: string, parent: string, field: string): string | undefined {
    const type = this.supergraph.subgraphs().get(subgraph)?.schema.type(parent);
    return type && (type.kind === 'ObjectType' || type.kind === 'InterfaceType') ? type.field(field)?.type?.toString() : undefined;
  }

  /**
   * The same for a parsed document (its operation `operationName`), unkept: the caller keeps what it
   * plans. A fetch that rewrites its input or output is not a plain single fetch.
   */
  planDocument(document: DocumentNode, operationName?: string): SingleFetch | null {
    const node = this.queryPlan(document, operationName);
    return node?.kind === 'Fetch' && !node.requires && !node.inputRewrites?.length && !node.outputRewrites?.length
      ? { subgraph: node.serviceName, query: node.operation, operationName: node.operationName }
      : null;
  }
}
