import { createHash } from 'node:crypto';
import { ERRORS, errorCodeDef } from '@apollo/federation-internals';
import { documentCost, GRAPHQL_LIMITS, rateCost, rateHeaders, rootFields } from '@backoffice/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  GraphQLError,
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
import type { Admission, Gatekeeper } from './admission';
import type { InProcessDataSource } from './data-sources';
import { CREDENTIAL_FIELDS, formatError, kindOf } from './gateway';
import { PARSE_OPTIONS } from './graphql-limits';
import { graphqlOperation } from './observe';
import type { SingleFetch, SingleFetchPlanner } from './single-fetch';
import { trustedDocumentFor, type TrustedDocuments } from './trusted-documents';

/**
 * What the lane did for a request it handed on to Apollo: Apollo's context reuses the admission (one
 * token spent, one audit row at most) and does not charge the document twice.
 */
export interface LaneHandoff {
  admission?: Admission;
  admissionError?: unknown;
  charged?: boolean;
  chargeError?: unknown;
}

declare module 'fastify' {
  interface FastifyRequest {
    graphqlLane?: LaneHandoff;
  }
}

/** A document the lane serves: one fetch to a subgraph in this process whose answer is the response as it is. */
interface Route {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  roots: number;
  /** A root field needs a credential (no actor: Apollo answers the 401). */
  credential: boolean;
  label: string;
  source: InProcessDataSource;
  subgraph: string;
  fetch: SingleFetch;
}

/** Bounds of the lane's caches: the documents it has judged (by their text's size) and APQ hashes it has seen registered. */
export const LANE_LIMITS = { documentBytes: 32 * 1024 * 1024, documents: 5_000, hashes: 5_000 };

const JSON_TYPE = 'application/json; charset=utf-8';
const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json; charset=utf-8';
/** Apollo's subscription-callback type: chosen only by clients that ask for it, and left to Apollo. */
const CALLBACK_TYPE = 'application/json; callbackSpec=1.0; charset=utf-8';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
function sameFieldTypes(api: GraphQLSchema, subgraph: GraphQLSchema, document: DocumentNode): boolean {
  const info = new TypeInfo(api);
  let same = true;
  visit(
    document,
    visitWithTypeInfo(info, {
      Field(node) {
        const parent = info.getParentType();
        const type = info.getType();
        if (!parent || !type || node.name.value.startsWith('__')) return;
        const own = (subgraph.getType(parent.name) as { getFields?: () => Record<string, { type: unknown }> } | undefined)?.getFields?.()[node.name.value];
        if (!own || String(own.type) !== String(type)) same = false;
      },
    }),
  );
  return same;
}

export interface LaneDeps {
  planner: SingleFetchPlanner;
  localSources: Map<string, InProcessDataSource>;
  gatekeeper: Gatekeeper;
  trustedDocuments?: TrustedDocuments;
  validationRules: readonly ValidationRule[];
  log: (line: string) => void;
}

/**
 * The short way through /graphql for a document whose query plan is one fetch to a subgraph in this
 * process, asking exactly what the client asked (same fields, aliases, arguments and types): the
 * subgraph's answer is the response, so the gateway's plan execution and result reshaping are
 * skipped, and parsing, validation and planning happen once per document. Everything else about
 * the request is as on Apollo's path (admission, trusted documents, the credential check, cost and
 * rate, variable coercion against the supergraph, error formatting, headers, the request record);
 * `test/graphql-lane.test.ts` answers the same requests both ways. Anything the lane does not handle
 * (GET, batches, APQ registrations, introspection, several fetches, remote subgraphs, a refusal of
 * any kind) goes on to Apollo with what the lane did so far, so nothing is spent twice.
 */
export class GraphqlLane {
  private schema?: GraphQLSchema;
  private readonly routes = new LRUCache<string, Route | false>({
    max: LANE_LIMITS.documents,
    maxSize: LANE_LIMITS.documentBytes,
    // A parsed document holds about 24 bytes per character of its text.
    sizeCalculation: (_route, key) => 24 * key.length + 1024,
  });
  private readonly hashes = new LRUCache<string, string>({
    max: LANE_LIMITS.hashes,
    maxSize: LANE_LIMITS.documentBytes,
    sizeCalculation: (text) => 2 * text.length + 128,
  });
  private readonly accepts = new LRUCache<string, string | false>({ max: 64 });

  constructor(private readonly deps: LaneDeps) {}

  /** The API schema Apollo validates against (the gateway's, with its scalars' input checks): judged documents are judged again. */
  useSchema(schema: GraphQLSchema): void {
    this.schema = schema;
    this.routes.clear();
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
    if (text === undefined) return false;
    const contentType = this.contentType(request.headers.accept);
    if (!contentType) return false;
    const route = this.route(schema, text, operationName ?? undefined);
    if (!route) return false;

    const handoff: LaneHandoff = {};
    request.graphqlLane = handoff;
    const { gatekeeper, trustedDocuments } = this.deps;
    const requestId = reply.getHeader('x-request-id') as string;
    try {
      handoff.admission = await gatekeeper.admit(request.headers.authorization, request.ip, requestId, 'graphql');
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
    if (route.credential && !actor) return false;
    let cost: number;
    try {
      cost = documentCost(schema, route.document, (variables ?? undefined) as Record<string, unknown> | undefined, operationName as string | undefined);
    } catch {
      return false;
    }
    if (cost > GRAPHQL_LIMITS.maxCost) return false;
    try {
      const rate = await gatekeeper.charge(admission, rateCost(route.roots, cost) - 1, 'graphql');
      if (rate) reply.headers(rateHeaders(rate));
      handoff.charged = true;
    } catch (error) {
      handoff.chargeError = error;
      return false;
    }
    const given = (variables ?? {}) as Record<string, unknown>;
    if ('errors' in getVariableValues(schema, route.operation.variableDefinitions ?? [], given, { maxErrors: 50 })) return false;

    request.observed?.named(route.label);
    const result = await route.source.request(
      { query: route.fetch.query, variables: given, operationName: route.fetch.operationName },
      { call: admission.call, signed: admission.signed, trace: request.observed?.trace },
    );
    // No data: the subgraph refused the request itself and ran nothing; Apollo's path says why.
    if (result.data === undefined) return false;
    const errors = result.errors?.length ? result.errors.map((error) => this.formatted(error as GraphQLError, route.subgraph, requestId)) : undefined;
    if (errors) {
      const code = errors[0].extensions?.code;
      request.observed?.failed(typeof code === 'string' ? code : 'internal');
    }
    reply
      .code(200)
      .header('content-type', contentType)
      .header('cache-control', 'no-store')
      .send(JSON.stringify(errors ? { errors, data: result.data } : { data: result.data }));
    return true;
  }

  /** The document's text: sent, or named by a trusted document's hash, or by an APQ hash registered before. */
  private textOf(body: Record<string, unknown>): string | undefined {
    const { query, extensions, documentId } = body;
    const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery;
    const hash =
      typeof documentId === 'string' ? documentId.replace(/^sha256:/, '') : typeof persisted?.sha256Hash === 'string' ? persisted.sha256Hash : undefined;
    if (extensions !== undefined && (typeof extensions !== 'object' || extensions === null || Object.keys(extensions).some((k) => k !== 'persistedQuery')))
      return undefined;
    if (typeof query === 'string') {
      // A registration: Apollo keeps it in its APQ store; the lane learns the hash for the requests naming it.
      if (persisted) {
        if (hash && hash === sha256(query)) this.hashes.set(hash, query);
        return undefined;
      }
      return documentId === undefined ? query : undefined;
    }
    if (query !== undefined || hash === undefined) return undefined;
    return this.deps.trustedDocuments?.get(hash) ?? (typeof documentId === 'string' ? undefined : this.hashes.get(hash));
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
    const key = `${operationName ?? ''}\n${text}`;
    let route = this.routes.get(key);
    if (route === undefined) {
      route = this.judge(schema, text, operationName);
      this.routes.set(key, route);
    }
    return route || null;
  }

  /** Whether the lane can serve a document, judged once: anything unusual is Apollo's. */
  private judge(schema: GraphQLSchema, text: string, operationName: string | undefined): Route | false {
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
    let fetch: SingleFetch | null;
    try {
      fetch = this.deps.planner.planDocument(document, operationName);
    } catch {
      return false;
    }
    const source = fetch && this.deps.localSources.get(fetch.subgraph);
    if (!fetch || !source) return false;
    const fetched = parse(fetch.query);
    const fetchOperation = getOperationAST(fetched, fetch.operationName);
    if (!fetchOperation || operationShape(schema, fetched, fetchOperation) !== operationShape(schema, document, operation)) return false;
    if (!sameFieldTypes(schema, source.schema, document)) return false;
    return {
      document,
      operation,
      roots: roots.size,
      credential: [...roots.values()].some((field) => CREDENTIAL_FIELDS.has(field.name.value)),
      label: graphqlOperation(operation),
      source,
      subgraph: fetch.subgraph,
      fetch,
    };
  }

  /**
   * A subgraph's error as the gateway hands it to Apollo (its downstream error, with the service
   * named) and as Apollo formats it (code defaulted, then `formatError`, then the request id on an
   * internal one).
   */
  private formatted(error: GraphQLError, subgraph: string, requestId: string): GraphQLFormattedError {
    const options = { originalError: error, path: error.path, extensions: { ...error.extensions, serviceName: subgraph } };
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
    return { ...formatted, message: `internal error (request ${requestId})`, extensions: { ...formatted.extensions, request_id: requestId } };
  }
}
