import { operationFromDocument, Supergraph } from '@apollo/federation-internals';
import { QueryPlanner, type PlanNode } from '@apollo/query-planner';
import { AppError, fromExtensions, isErrorKind } from '@backoffice/platform';
import { parse, type DocumentNode, type GraphQLError } from 'graphql';
import type { Admission } from './admission';
import type { InProcessDataSource } from './data-sources';
import { formatError } from './gateway';

export interface SingleFetch {
  subgraph: string;
  query: string;
  operationName?: string;
}

/**
 * The REST face sends fixed documents, each one subgraph field. The gateway's query planner plans
 * each once; when the plan is a single fetch (it always is for these routes), the shim hands that
 * fetch to the subgraph's in-process data source itself. The gateway's post-processing of a single
 * fetch returns the fetched data unchanged, and on large pages it costs more than the subgraph's
 * work. GraphQL callers keep the whole gateway path; a test checks both paths answer alike.
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

/** Runs a planned single fetch on the subgraph's data source; `data`, or the first error as its kind. */
export async function executeSingleFetch(
  source: InProcessDataSource,
  fetch: SingleFetch,
  variables: Record<string, unknown>,
  admission: Admission,
): Promise<Record<string, unknown>> {
  const result = await source.request(
    { query: fetch.query, variables, operationName: fetch.operationName },
    { call: admission.call, signed: admission.signed },
  );
  const [first] = (result.errors ?? []) as GraphQLError[];
  if (first) {
    const formatted = formatError({ message: first.message, extensions: first.extensions as Record<string, unknown> });
    const code = formatted.extensions?.code;
    if (!isErrorKind(code) || code === 'internal') throw new AppError('internal', `internal error (request ${admission.call.request_id})`);
    throw fromExtensions(code, formatted.message, formatted.extensions ?? {});
  }
  return (result.data ?? {}) as Record<string, unknown>;
}
