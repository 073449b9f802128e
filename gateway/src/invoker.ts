import type { ApolloServer } from '@apollo/server';
import {
  AppError,
  checkMergedDepth,
  fieldName,
  forbidden,
  ownerOnly,
  operationDocument,
  PreparedJson,
  queryInput,
  selectionOf,
  typeStem,
  unauthorized,
  validate,
  validationFailed,
  wholeAnswer,
  type MergedRead,
  type Operation,
} from '@backoffice/platform';
import type { Admission, Gatekeeper } from './admission';
import type { InProcessDataSource } from './data-sources';
import type { RequestRecord } from './observe';
import { executeThroughGateway } from './execute';
import type { GatewayRequestContext } from './gateway';
import { OPERATIONS, SUBGRAPHS } from './subgraphs';

/** Who is asking, as the transport (REST, MCP) saw it. */
export interface Caller {
  authorization: string | undefined;
  ip: string;
  requestId: string;
  /** Told once the credential is in and its rate spent (REST sends the rate headers). */
  admitted?: (admission: Admission) => void;
  /** Already admitted and paid for by the transport (MCP admits a whole JSON-RPC message batch at once). */
  admission?: Admission;
  /** The HTTP request's record: told the operation and the actor (log line, metrics). */
  record?: RequestRecord | null;
}

export interface InvokerDeps {
  apollo: ApolloServer<GatewayRequestContext>;
  gatekeeper: Gatekeeper;
  localSources: Map<string, InProcessDataSource>;
}

/** The projection a read asks for; a name the read does not declare is refused, never served as full. */
function projectionOf(op: Operation, input: Record<string, unknown>): string | undefined {
  if (!op.projections || input.projection === undefined || input.projection === 'full') return undefined;
  const name = String(input.projection);
  if (!Object.hasOwn(op.projections, name)) {
    throw new AppError('unknown_projection', `unknown projection ${name}; declared: full, ${Object.keys(op.projections).join(', ')}`);
  }
  return name;
}

/**
 * Runs an operation for a non-GraphQL surface (REST, MCP): credential, rate, scope and schema in the
 * subgraph's order before any lookup, then the operation's fixed GraphQL document.
 */
export class Invoker {
  private readonly documents = new Map<string, string>();

  constructor(private readonly deps: InvokerDeps) {}

  private documentOf(op: Operation, projection?: string): string {
    const key = `${op.name}:${projection ?? ''}`;
    let document = this.documents.get(key);
    if (document === undefined) {
      document = operationDocument(op, projection);
      this.documents.set(key, document);
    }
    return document;
  }

  /** `fromQuery`: `raw` is a read's query string, turned into its input after the credential and scope checks. */
  private async admit(
    caller: Caller,
    op: Pick<Operation, 'name' | 'access' | 'scope' | 'input' | 'ownerGated' | 'queryFamilies' | 'queryFamilyKeys' | 'fromQuery'>,
    raw: unknown,
    fromQuery: boolean,
  ) {
    const { gatekeeper } = this.deps;
    caller.record?.named(op.name);
    let admission: Admission;
    if (caller.admission) admission = op.access === 'public' ? gatekeeper.withoutActor(caller.admission) : caller.admission;
    else {
      const authorization = op.access === 'public' ? undefined : caller.authorization;
      admission = await gatekeeper.admit(authorization, caller.ip, caller.requestId, op.name);
      caller.admitted?.(admission);
      caller.record?.admitted(admission.call.actor);
    }
    const { actor } = admission.call;
    try {
      if (op.access === 'internal' && !actor) throw unauthorized();
      // As the executor: a public operation declares no scope and no owner gate, so these ask only an actor.
      if (op.scope && actor && !actor.scopes.includes(op.scope)) throw forbidden(op.scope);
      if (op.ownerGated && actor && !actor.is_owner) throw ownerOnly(op);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationFailed('the input must be a JSON object');
      const value = fromQuery ? queryInput(op, raw as Record<string, string | string[]>) : raw;
      const input = validate<Record<string, unknown>>(op.input, structuredClone(value), fromQuery);
      return { admission, input };
    } catch (error) {
      if (error instanceof AppError && error.kind !== 'unauthorized') gatekeeper.refused(admission.call, op.name, error.kind);
      throw error;
    }
  }

  private refusedBy(admission: Admission) {
    return (operation: string, kind: string) => this.deps.gatekeeper.refused(admission.call, operation, kind);
  }

  /**
   * The operation's result, shaped as its schema (or the asked projection's) says. `asText`: the
   * caller (REST) takes a prepared read's answer as `PreparedJson`; others get the object it spells.
   */
  async invoke(op: Operation, raw: unknown, caller: Caller, fromQuery = false, asText = false): Promise<unknown> {
    const { admission, input } = await this.admit(caller, op, raw, fromQuery);
    // A subgraph in this process runs the operation itself, without GraphQL: the executor checks as it always does.
    const local = this.deps.localSources.get(OPERATIONS.get(op.name)?.subgraph.name ?? '');
    if (local) {
      const result = await local.direct(op, input, admission.call);
      if (result instanceof PreparedJson) return asText ? result : result.toJSON();
      return wholeAnswer(op.result, result);
    }
    // One in another process is asked through the gateway, the operation's fixed document.
    const hasInput = Object.keys((op.input as { properties?: object }).properties ?? {}).length > 0;
    const projection = projectionOf(op, input);
    const document = this.documentOf(op, projection);
    const data = await executeThroughGateway(this.deps.apollo, document, hasInput ? { input } : {}, admission, this.refusedBy(admission), caller.record?.trace);
    return wholeAnswer((projection && op.projections?.[projection]) || op.result, data[fieldName(op.name)]);
  }

  /** A read merged from every subgraph's part, newest first. */
  async invokeMerged(read: MergedRead, raw: unknown, caller: Caller, fromQuery = false): Promise<unknown> {
    const { admission, input } = await this.admit(caller, { ...read, access: 'internal' }, raw, fromQuery);
    const limit = (input.limit as number) ?? 24;
    const page = (input.page as number) ?? 1;
    checkMergedDepth(limit, page);
    const parts = SUBGRAPHS.map((s) => ({ alias: s.name, field: fieldName(`${s.name}.${read.part}`), type: `${typeStem(`${s.name}.${read.part}`)}Input` }));
    const query = `query Rest_merged(${parts.map((p) => `$${p.alias}: ${p.type}`).join(', ')}) { ${parts
      .map((p) => `${p.alias}: ${p.field}(input: $${p.alias})${selectionOf(read.result)}`)
      .join(' ')} }`;
    const window = { ...input, limit: limit * page, page: 1 };
    const variables = Object.fromEntries(parts.map((p) => [p.alias, window]));
    const data = await executeThroughGateway(this.deps.apollo, query, variables, admission, this.refusedBy(admission), caller.record?.trace);
    const pages = Object.values(data) as Array<{ items: Array<Record<string, string>>; total: number }>;
    const items = pages
      .flatMap((p) => p.items)
      .sort((a, b) => (a[read.orderBy] < b[read.orderBy] ? 1 : a[read.orderBy] > b[read.orderBy] ? -1 : 0))
      .slice((page - 1) * limit, page * limit);
    return { items, page, limit, total: pages.reduce((sum, p) => sum + p.total, 0) };
  }
}
