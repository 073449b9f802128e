import { ERRORS, errorCodeDef } from '@apollo/federation-internals';
import {
  documentCost,
  GRAPHQL_LIMITS,
  PreparedJson,
  preparedInput,
  rateCost,
  rateHeaders,
  rootFields,
  selectionWithinAnswer,
  type Operation,
  type RateDecision,
  type TraceHeaders,
} from '@backoffice/platform';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  Kind,
  parse,
  print,
  specifiedRules,
  TypeInfo,
  validate,
  visit,
  visitWithTypeInfo,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import type { Admission, Gatekeeper } from '../admission';
import type { InProcessDataSource } from '../data-sources';
import { lanePlanOf, runLanePlan, type LanePlan } from './plan';
import type { RemoteSubgraph } from '../remote-subgraph';
import { CREDENTIAL_FIELDS, formatError, kindOf } from '../gateway';
import { PARSE_OPTIONS } from '../graphql-limits';
import { graphqlOperation, OPERATION_OF_FIELD } from '../observe';
import type { SingleFetch, SingleFetchPlanner } from './single-fetch';

import { trustedDocumentFor, type TrustedDocuments } from '../trusted-documents';
import { credentialOf } from '../session-cookie';

/**
 * What the lane did for a request it handed on to Apollo: Apollo's context reuses the admission (one
 * token spent, one audit row at most) and does not charge the document twice.
 */
export interface LaneHandoff {
  admission?: Admission;
  admissionError?: unknown;
  charged?: boolean;
  /** The bucket after the document's charge (what the RateLimit header reports). */
  rate?: RateDecision;
  chargeError?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    graphqlLane?: LaneHandoff;
  }
}

/** A fetch the lane makes: the planner's one fetch, to a subgraph in this process or in another. */
type LaneFetch = SingleFetch & ({ source: InProcessDataSource; remote?: undefined } | { source?: undefined; remote: RemoteSubgraph });

/** A document the lane may serve (parsed and validated); its fetch is planned on first use. */
interface Route {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  roots: number;
  /** A root field needs a credential (no actor: Apollo answers the 401). */
  credential: boolean;
  label: string;
  /** Unset until planned; null when the plan is not one fetch the lane can hand on as it is. */
  fetch?: LaneFetch | null;
  /** Unset until planned; null when the lane cannot run the plan (see plan.ts). */
  plan?: LanePlan | null;
  /** The route's key (its operation name and text). */
  key: string;
  /** One root field, a public prepared read selecting within its answer: its GraphQL answer is kept per prepared answer. */
  prepared?: { operation: Operation; field: FieldNode; definition: GraphQLField<unknown, unknown> };
}

/**
 * Bounds of the lane: the documents it has judged (by their text's size) and the APQ hashes Apollo
 * stored, each kept by the least recently used; a document longer than 64 Ki characters is Apollo's.
 */
export const LANE_LIMITS = {
  documentBytes: 32 * 1024 * 1024,
  documents: 5_000,
  hashes: 5_000,
  documentCharacters: 64 * 1024,
  responseBytes: 32 * 1024 * 1024,
  responsesPerAnswer: 8,
};

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** Apollo's subscription-callback type: chosen only by clients that ask for it, and left to Apollo. */
const CALLBACK_TYPE = 'application/json; callbackSpec=1.0; charset=utf-8';

const directivesOf = (directives: readonly DirectiveNode[] | undefined) => (directives?.length ? ` ${directives.map(print).join(' ')}` : '');

/**
 * A selection spelled with its fragments inlined (a fragment on the type it is spread in melts into
 * it, as the query planner writes it): two spellings are the same answer shape when these are equal.
 */
function canonical(schema: GraphQLSchema, set: SelectionSetNode, parent: GraphQLNamedType | undefined, fragments: Map<string, FragmentDefinitionNode>): string {
  const spread = (condition: string | undefined, directives: readonly DirectiveNode[] | undefined, inner: SelectionSetNode) => {
    const type = condition === undefined ? parent : schema.getType(condition);
    const body = canonical(schema, inner, type, fragments);
    return type === parent && !directives?.length ? body : `...on ${type?.name ?? '?'}${directivesOf(directives)}{${body}}`;
  };
  return set.selections
    .map((s) => {
      if (s.kind === Kind.FIELD) {
        const args = s.arguments?.length ? `(${s.arguments.map(print).join(',')})` : '';
        const field = parent && 'getFields' in parent ? parent.getFields()[s.name.value] : undefined;
        const inner = s.selectionSet ? `{${canonical(schema, s.selectionSet, field && getNamedType(field.type), fragments)}}` : '';
        return `${s.alias ? `${s.alias.value}:` : ''}${s.name.value}${args}${directivesOf(s.directives)}${inner}`;
      }
      if (s.kind === Kind.INLINE_FRAGMENT) return spread(s.typeCondition?.name.value, s.directives, s.selectionSet);
      const fragment = fragments.get(s.name.value);
      return fragment ? spread(fragment.typeCondition.name.value, s.directives, fragment.selectionSet) : `?${s.name.value}`;
    })
    .join(' ');
}

function operationShape(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): string {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const variables = (operation.variableDefinitions ?? []).map(print).join(',');
  const root = schema.getRootType(operation.operation) ?? undefined;
  return `${operation.operation}(${variables})${directivesOf(operation.directives)}{${canonical(schema, operation.selectionSet, root, fragments)}}`;
}

/** Every field of the operation has the same type in the subgraph as in the supergraph (so the subgraph already nulled what the gateway would). */
function sameFieldTypes(api: GraphQLSchema, planner: SingleFetchPlanner, subgraph: string, document: DocumentNode): boolean {
  const info = new TypeInfo(api);
  let same = true;
  visit(
    document,
    visitWithTypeInfo(info, {
      Field(node) {
        const parent = info.getParentType();
        const type = info.getType();
        if (!parent || !type || node.name.value.startsWith('__')) return;
        if (planner.fieldType(subgraph, parent.name, node.name.value) !== String(type)) same = false;
      },
    }),
  );
  return same;
}

const fragmentsOf = (document: DocumentNode) =>
  Object.fromEntries(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));

/**
 * The prepared read a document asks, when it asks one root field (no directives) of a public prepared
 * read, selecting only what its answer holds.
 */
function preparedOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, roots: Map<string, FieldNode>): Route['prepared'] {
  if (roots.size !== 1 || operation.operation !== 'query') return undefined;
  const [field] = roots.values();
  const declared = OPERATION_OF_FIELD.get(field.name.value);
  const definition = schema.getQueryType()?.getFields()[field.name.value];
  if (!declared?.prepared || declared.access !== 'public' || !definition || field.directives?.length) return undefined;
  // The root field spelled once (a fragment spreading it again could carry its own directives).
  if (operation.selectionSet.selections.length !== 1 || operation.selectionSet.selections[0] !== field) return undefined;
  if (!selectionWithinAnswer(declared, { fieldNodes: [field], fragments: fragmentsOf(document) })) return undefined;
  return { operation: declared, field, definition };
}

/** An internal error as the gateway's `willSendResponse` words it: the request id to quote, nothing of the cause. */
function internalError(requestId: string): GraphQLFormattedError {
  return { message: `internal error (request ${requestId})`, extensions: { code: 'internal', request_id: requestId } };
}

export interface LaneDeps {
  planner: SingleFetchPlanner;
  localSources: Map<string, InProcessDataSource>;
  /** Subgraphs in other processes, by name. */
  remotes: Map<string, RemoteSubgraph>;
  gatekeeper: Gatekeeper;
  trustedDocuments?: TrustedDocuments;
  validationRules: readonly ValidationRule[];
  log: (line: string) => void;
}

/**
 * The short way through /graphql for a document whose query plan is one fetch to a subgraph, asking
 * exactly what the client asked (same fields, aliases, arguments and types): the subgraph's answer
 * is the response (from another process, its very bytes when it holds no error), so the gateway's
 * plan execution and result reshaping are skipped, and parsing, validation and planning happen once
 * per document. Everything else about
 * the request is as on Apollo's path (admission, trusted documents, the credential check, cost and
 * rate, variable coercion against the supergraph, error formatting, headers, the request record);
 * `test/graphql-lane.test.ts` answers the same requests both ways. Anything the lane does not handle
 * (GET, batches, APQ registrations, introspection, several fetches, a refusal of any kind) goes on to Apollo with what the lane did so far, so nothing is spent twice.
 */
export class GraphqlLane {
  private schema?: GraphQLSchema;
  private readonly routes = new LRUCache<string, Route | false>({
    max: LANE_LIMITS.documents,
    maxSize: LANE_LIMITS.documentBytes,
    // A parsed document weighs its measured bytes per character of text (docs/decisions/graphql-fast-path.md); a refused one only its key.
    sizeCalculation: (route, key) => (route ? 24 : 2) * key.length + 1024,
  });
  private readonly hashes = new LRUCache<string, string>({
    max: LANE_LIMITS.hashes,
    maxSize: LANE_LIMITS.documentBytes,
    sizeCalculation: (text) => 2 * text.length + 128,
  });
  private readonly accepts = new LRUCache<string, string | false>({ max: 64 });
  /** Responses made from a prepared answer (a page the catalog keeps), by route and variables. */
  private readonly responses = new LRUCache<PreparedJson, Map<string, string>>({
    maxSize: LANE_LIMITS.responseBytes,
    sizeCalculation: (kept, page) => page.size + [...kept].reduce((sum, [key, text]) => sum + 2 * (key.length + text.length), 0),
  });

  constructor(private readonly deps: LaneDeps) {}

  /** The API schema Apollo validates against (the gateway's, with its scalars' input checks): judged documents are judged again. */
  useSchema(schema: GraphQLSchema): void {
    this.schema = schema;
    this.routes.clear();
  }

  /** Learns an APQ hash once Apollo has stored its text (a registration it accepted): see `plugin`. */
  plugin(): ApolloServerPlugin<BaseContext> {
    return {
      requestDidStart: async () => ({
        willSendResponse: async ({ request, metrics, response }) => {
          const hash = (request.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
          const ok = response.body.kind === 'single' && !response.body.singleResult.errors?.length;
          if (metrics.persistedQueryRegister && ok && typeof hash === 'string' && typeof request.query === 'string') this.hashes.set(hash, request.query);
        },
      }),
    };
  }

  /** Answers the request and returns true, or returns false having answered nothing (Apollo goes on). */
  async serve(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const schema = this.schema;
    const body = request.body as Record<string, unknown> | null;
    if (!schema || typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const { operationName, variables } = body;
    if (operationName != null && typeof operationName !== 'string') return false;
    if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return false;
    const text = this.textOf(body);
    if (text === undefined || text.length > LANE_LIMITS.documentCharacters) return false;
    const contentType = this.contentType(request.headers.accept);
    if (!contentType) return false;

    // Admitted before anything is parsed or planned, as on Apollo's path (whose context reuses this admission).
    const handoff: LaneHandoff = {};
    request.graphqlLane = handoff;
    const { gatekeeper, trustedDocuments } = this.deps;
    const requestId = reply.getHeader('x-request-id') as string;
    try {
      handoff.admission = await gatekeeper.admit(credentialOf(request), request.ip, requestId, 'graphql');
    } catch (error) {
      handoff.admissionError = error;
      return false;
    }
    const admission = handoff.admission;
    const { actor } = admission.call;
    reply.headers(rateHeaders(admission.rate));
    request.observed?.admitted(actor);
    if (trustedDocuments) {
      try {
        trustedDocumentFor(trustedDocuments, actor, request);
      } catch {
        return false; // Apollo's context refuses it, and audits the refusal once
      }
    }
    const route = this.route(schema, text, operationName ?? undefined);
    // The operation the request names must be the one judged (an empty or other name is Apollo's to refuse).
    if (!route || (operationName != null && operationName !== route.operation.name?.value)) return false;
    if (route.credential && !actor) return false;
    const given = (variables ?? {}) as Record<string, unknown>;
    // Kept with the document by its variables (documentCost): worked out once for the same request.
    let cost: number;
    try {
      cost = documentCost(schema, route.document, given, route.operation.name?.value);
    } catch {
      return false;
    }
    if (cost > GRAPHQL_LIMITS.maxCost) return false;
    // Planned once the document is known to be affordable, as the gateway plans after the charge.
    const fetch = this.fetchOf(schema, route);
    const plan = fetch ? null : this.planOf(schema, route);
    if (!fetch && !plan) return false;
    try {
      const rate = await gatekeeper.charge(admission, rateCost(route.roots, cost) - 1, 'graphql');
      if (rate) {
        reply.headers(rateHeaders(rate));
        handoff.rate = rate;
      }
      handoff.charged = true;
    } catch (error) {
      handoff.chargeError = error;
      return false;
    }
    const coerced = getVariableValues(schema, route.operation.variableDefinitions ?? [], given, { maxErrors: 50 });
    if (!coerced.coerced) return false;

    request.observed?.named(route.label);
    if (plan) {
      const answer = await this.planned(plan, given, admission, request.observed?.trace, requestId);
      if (answer.failed) request.observed?.failed(answer.failed);
      reply.code(200).header('content-type', contentType).header('cache-control', 'no-store').send(answer.text);
      return true;
    }
    if (!fetch) return false;
    const kept = route.prepared && fetch.source && (await this.keptAnswer(route, route.prepared, fetch.source, coerced.coerced, given, admission));
    if (kept?.text !== undefined) {
      reply.code(200).header('content-type', contentType).header('cache-control', 'no-store').send(kept.text);
      return true;
    }
    let data: unknown;
    let errors: GraphQLFormattedError[] | undefined;
    try {
      const result = await this.fetched(fetch, given, admission, request.observed?.trace);
      if (typeof result === 'string') {
        // A remote subgraph's answer with data and no error is the response, byte for byte.
        reply.code(200).header('content-type', contentType).header('cache-control', 'no-store').send(result);
        return true;
      }
      // No data: the subgraph refused the request itself and ran nothing; Apollo's path says why.
      if (result.data === undefined) return false;
      data = result.data;
      if (result.errors?.length) errors = result.errors.map((error) => this.formatted(error as GraphQLError, fetch.subgraph, requestId));
    } catch (error) {
      // As the gateway: a fetch that failed leaves its root fields null, beside an internal error.
      data = Object.fromEntries([...rootFields(route.document, route.operation).keys()].map((key) => [key, null]));
      errors = [this.failure(error, requestId)];
    }
    if (errors) {
      const code = errors[0].extensions?.code;
      request.observed?.failed(typeof code === 'string' ? code : 'internal');
    }
    // As Apollo writes a result: errors first, and a line end.
    const answer = `${JSON.stringify(errors ? { errors, data } : { data })}\n`;
    if (kept?.keep && !errors) kept.keep(answer);
    reply.code(200).header('content-type', contentType).header('cache-control', 'no-store').send(answer);
    return true;
  }

  /**
   * Runs a plan of several fetches as the gateway would (plan.ts) and words the response as
   * Apollo does: the fetches' errors formatted in the order they came, or else the shaping's in
   * `extensions.valueCompletion`; `failed`, the first error's code.
   */
  private async planned(
    plan: LanePlan,
    given: Record<string, unknown>,
    admission: Admission,
    trace: TraceHeaders | undefined,
    requestId: string,
  ): Promise<{ text: string; failed?: string }> {
    const errors: GraphQLFormattedError[] = [];
    const { data, completion } = await runLanePlan(plan, given, admission, trace, {
      downstream: (error, subgraph, path) => errors.push(this.formatted(error, subgraph, requestId, path)),
      failed: (error) => errors.push(this.failure(error, requestId)),
    });
    const code = errors[0]?.extensions?.code;
    const body = errors.length ? { errors, data } : completion.length ? { data, extensions: { valueCompletion: completion } } : { data };
    return { text: `${JSON.stringify(body)}\n`, failed: errors.length ? (typeof code === 'string' ? code : 'internal') : undefined };
  }

  /**
   * For a public prepared read: its answer (the page the catalog keeps), and the response this route
   * gave for it before with these variables, or how to keep the one about to be given. The same
   * prepared answer and document make the same response, so a page's GraphQL answer is made once.
   * A refusal is left to the fetch, which answers it as the subgraph words it.
   */
  private async keptAnswer(
    route: Route,
    prepared: NonNullable<Route['prepared']>,
    source: InProcessDataSource,
    coerced: Record<string, unknown>,
    given: Record<string, unknown>,
    admission: Admission,
  ): Promise<{ text?: string; keep?: (text: string) => void } | undefined> {
    let answer: unknown;
    try {
      const args = getArgumentValues(prepared.definition, prepared.field, coerced);
      const input = preparedInput(prepared.operation, args.input ?? {}, { fieldNodes: [prepared.field], fragments: fragmentsOf(route.document) });
      answer = await source.direct(prepared.operation, input as Record<string, unknown>, admission.call);
    } catch {
      return undefined;
    }
    if (!(answer instanceof PreparedJson)) return undefined;
    const page = answer;
    const key = `${route.key}\n${JSON.stringify(given)}`;
    const responses = this.responses.get(page);
    const text = responses?.get(key);
    if (text !== undefined) return { text };
    return {
      keep: (made) => {
        // A new map: set again with the same one, the cache would keep its first size.
        const kept = new Map(responses);
        if (kept.size >= LANE_LIMITS.responsesPerAnswer) kept.delete(kept.keys().next().value as string);
        kept.set(key, made);
        this.responses.set(page, kept);
      },
    };
  }

  /**
   * Runs the fetch: in process, the subgraph's result; in another process, its answer as text when
   * it holds data and no error (Apollo writes `errors` first: a body opening with `{"data":` has
   * none), else its result parsed. A refusal before execution (4xx: nothing ran) reads as no data.
   */
  private async fetched(
    fetch: LaneFetch,
    variables: Record<string, unknown>,
    admission: Admission,
    trace: TraceHeaders | undefined,
  ): Promise<string | { data?: unknown; errors?: readonly unknown[] }> {
    const request = { query: fetch.query, variables, operationName: fetch.operationName };
    if (fetch.source) return fetch.source.request(request, { call: admission.call, signed: admission.signed, trace });
    const answer = await fetch.remote.fetch(JSON.stringify(request), admission.signed(), trace, fetch.operationName);
    if (answer.status >= 400 && answer.status < 500) return {};
    if (answer.status !== 200) throw new Error(`subgraph ${fetch.subgraph} answered ${answer.status}`);
    if (answer.text.startsWith('{"data":')) return answer.text;
    return JSON.parse(answer.text) as { data?: unknown; errors?: readonly unknown[] };
  }

  /** The document's text: sent, or named by a trusted document's hash, or by an APQ hash Apollo has stored. */
  private textOf(body: Record<string, unknown>): string | undefined {
    const { query, extensions, documentId } = body;
    if (extensions !== undefined && (typeof extensions !== 'object' || extensions === null || Object.keys(extensions).some((k) => k !== 'persistedQuery')))
      return undefined;
    const persisted = (extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | undefined)?.persistedQuery;
    // A registration (Apollo stores it), another version, or a hash beside a document id: Apollo's.
    if (persisted !== undefined && (typeof query === 'string' || documentId !== undefined || persisted?.version !== 1)) return undefined;
    if (typeof query === 'string') return documentId === undefined ? query : undefined;
    if (query !== undefined) return undefined;
    if (typeof documentId === 'string') return this.deps.trustedDocuments?.get(documentId.replace(/^sha256:/, ''));
    const hash = persisted?.sha256Hash;
    if (typeof hash !== 'string') return undefined;
    return this.deps.trustedDocuments?.get(hash) ?? this.hashes.get(hash);
  }

  /** The response's type as Apollo negotiates it for a single result; false for an Accept the lane leaves to Apollo. */
  private contentType(accept: string | undefined): string | false {
    if (accept === undefined) return JSON_TYPE;
    let known = this.accepts.get(accept);
    if (known === undefined) {
      const chosen = new Negotiator({ headers: { accept } }).mediaType([JSON_TYPE, GRAPHQL_RESPONSE_TYPE, CALLBACK_TYPE]);
      known = chosen === JSON_TYPE || chosen === GRAPHQL_RESPONSE_TYPE ? chosen : false;
      if (accept.length <= 256) this.accepts.set(accept, known);
    }
    return known;
  }

  private route(schema: GraphQLSchema, text: string, operationName: string | undefined): Route | null {
    const key = JSON.stringify([operationName ?? null, text]);
    let route = this.routes.get(key);
    if (route === undefined) {
      route = this.judge(schema, key, text, operationName);
      this.routes.set(key, route);
    }
    return route || null;
  }

  /** Whether the lane may serve a document (parsed and validated as Apollo would), judged once: anything unusual is Apollo's. */
  private judge(schema: GraphQLSchema, key: string, text: string, operationName: string | undefined): Route | false {
    let document: DocumentNode;
    try {
      document = parse(text, PARSE_OPTIONS);
    } catch {
      return false;
    }
    if (validate(schema, document, [...specifiedRules, ...this.deps.validationRules]).length) return false;
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === 'subscription') return false;
    const roots = rootFields(document, operation);
    if (roots.size > GRAPHQL_LIMITS.maxRootFields) return false;
    return {
      document,
      operation,
      key,
      roots: roots.size,
      credential: [...roots.values()].some((field) => CREDENTIAL_FIELDS.has(field.name.value)),
      label: graphqlOperation(operation),
      prepared: preparedOf(schema, document, operation, roots),
    };
  }

  /** A fetch that threw: its cause logged with the request id, the client told only the id (the gateway's internal error). */
  private failure(error: unknown, requestId: string): GraphQLFormattedError {
    this.deps.log(`[${requestId}] internal error: ${(error as Error).stack ?? error}`);
    return internalError(requestId);
  }

  /** The route's plan when the lane can run it (every fetch in this process, a plain selection), planned once; null otherwise. */
  private planOf(schema: GraphQLSchema, route: Route): LanePlan | null {
    if (route.plan === undefined) {
      route.plan = null;
      try {
        route.plan = lanePlanOf(schema, route.operation, this.deps.planner.queryPlan(route.document, route.operation.name?.value), this.deps.localSources);
      } catch {
        return null;
      }
    }
    return route.plan;
  }

  /** The route's one fetch to a subgraph in this process asking what the client asked, planned once; null when there is none. */
  private fetchOf(schema: GraphQLSchema, route: Route): LaneFetch | null {
    if (route.fetch === undefined) {
      route.fetch = null;
      let planned: SingleFetch | null = null;
      try {
        planned = this.deps.planner.planDocument(route.document, route.operation.name?.value);
      } catch {
        return null;
      }
      if (!planned) return null;
      const source = this.deps.localSources.get(planned.subgraph);
      const remote = this.deps.remotes.get(planned.subgraph);
      const target = source ? { source } : remote ? { remote } : null;
      if (!target) return null;
      const fetched = parse(planned.query);
      const fetchOperation = getOperationAST(fetched, planned.operationName);
      if (!fetchOperation || operationShape(schema, fetched, fetchOperation) !== operationShape(schema, route.document, route.operation)) return null;
      if (!sameFieldTypes(schema, this.deps.planner, planned.subgraph, route.document)) return null;
      route.fetch = { ...planned, ...target };
    }
    return route.fetch;
  }

  /**
   * A subgraph's error as the gateway hands it to Apollo (its downstream error, with the service
   * named) and as Apollo formats it (code defaulted, then `formatError`, then the request id on an
   * internal one).
   */
  private formatted(error: GraphQLError, subgraph: string, requestId: string, path = error.path): GraphQLFormattedError {
    const options = { originalError: error, path, extensions: { ...error.extensions, serviceName: subgraph } };
    const message = error.message || `Error while fetching subquery from service "${subgraph}"`;
    const codeDef = errorCodeDef(error);
    const downstream =
      !codeDef && error.extensions?.code ? new GraphQLError(message, options) : (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
    const json = downstream.toJSON();
    const extensions = { ...downstream.extensions, code: downstream.extensions.code ?? 'INTERNAL_SERVER_ERROR' };
    delete (extensions as { http?: unknown }).http;
    if (kindOf(downstream.extensions) === 'internal')
      this.deps.log(`[${requestId}] internal error: ${error.originalError?.stack ?? error.stack ?? error.message}`);
    const formatted = formatError({ ...json, extensions }, downstream);
    if (formatted.extensions?.code !== 'internal' || formatted.message !== 'internal error') return formatted;
    return { ...formatted, ...internalError(requestId) };
  }
}
