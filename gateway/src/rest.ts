import type { ApolloServer } from '@apollo/server';
import {
  AppError,
  asAppError,
  checkMergedDepth,
  fieldName,
  forbidden,
  notFound,
  operationDocument,
  pruneAbsent,
  selectionOf,
  typeStem,
  unauthorized,
  validate,
  validationFailed,
  type MergedRead,
  type Operation,
} from '@backoffice/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimited, rateHeaders, type Admission, type Gatekeeper } from './admission';
import { executeThroughGateway } from './execute';
import type { InProcessDataSource } from './data-sources';
import type { GatewayRequestContext } from './gateway';
import { executeSingleFetch, type SingleFetchPlanner } from './single-fetch';
import { COMMANDS, MERGED_READS, READS, SUBGRAPHS } from './subgraphs';

/** The REST projection a read asks for; a name the read does not declare is refused, never served as full. */
function projectionOf(op: Operation, input: Record<string, unknown>): string | undefined {
  if (!op.projections || input.projection === undefined || input.projection === 'full') return undefined;
  const name = String(input.projection);
  if (!(name in op.projections)) {
    throw new AppError('unknown_projection', `unknown projection ${name}; declared: full, ${Object.keys(op.projections).join(', ')}`);
  }
  return name;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error instanceof RateLimited) reply.headers(rateHeaders(error.rate));
  const { request_id: _omit, ...details } = error.details as Record<string, unknown>;
  return reply.code(error.status).send({ error: { kind: error.kind, message: error.message, ...details } });
}

interface ShimDeps {
  apollo: ApolloServer<GatewayRequestContext>;
  gatekeeper: Gatekeeper;
  log: (line: string) => void;
  /** Subgraphs running in this process, for the single-fetch path. */
  localSources: Map<string, InProcessDataSource>;
  planner: SingleFetchPlanner;
}

/** The stable REST face: each route is one fixed GraphQL document executed through the gateway. */
export function registerRest(app: FastifyInstance, { apollo, gatekeeper, log, localSources, planner }: ShimDeps): void {
  const documents = new Map<string, string>();
  const documentOf = (op: Operation, projection?: string) => {
    const key = `${op.name}:${projection ?? ''}`;
    return documents.get(key) ?? documents.set(key, operationDocument(op, projection)).get(key)!;
  };

  /** Credential, rate, scope and schema: checked here, in the subgraph's order, before any lookup. */
  async function admitAndValidate(
    request: FastifyRequest,
    reply: FastifyReply,
    op: Pick<Operation, 'name' | 'access' | 'scope' | 'input'>,
    raw: unknown,
    fromQuery: boolean,
  ): Promise<{ admission: Admission; input: Record<string, unknown> }> {
    const requestId = reply.getHeader('x-request-id') as string;
    const authorization = op.access === 'public' ? undefined : request.headers.authorization;
    const admission = await gatekeeper.admit(authorization, request.ip, requestId, op.name);
    reply.headers(rateHeaders(admission.rate));
    const { actor } = admission.call;
    try {
      if (op.access === 'internal' && !actor) throw unauthorized();
      if (op.scope && !actor!.scopes.includes(op.scope)) throw forbidden(op.scope);
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw validationFailed('the body must be a JSON object');
      const input = validate<Record<string, unknown>>(op.input, structuredClone(raw), fromQuery);
      return { admission, input };
    } catch (error) {
      if (error instanceof AppError && error.kind !== 'unauthorized') gatekeeper.refused(admission.call, op.name, error.kind);
      throw error;
    }
  }

  const refusedBy = (admission: Admission) => (operation: string, kind: string) => gatekeeper.refused(admission.call, operation, kind);

  async function run(request: FastifyRequest, reply: FastifyReply, op: Operation, raw: unknown, fromQuery: boolean) {
    const { admission, input } = await admitAndValidate(request, reply, op, raw, fromQuery);
    const hasInput = Object.keys((op.input as { properties?: object }).properties ?? {}).length > 0;
    const projection = projectionOf(op, input);
    const document = documentOf(op, projection);
    const variables = hasInput ? { input } : {};
    const fetch = planner.plan(document);
    const local = fetch && localSources.get(fetch.subgraph);
    const data =
      fetch && local
        ? await executeSingleFetch(local, fetch, variables, admission)
        : await executeThroughGateway(apollo, document, variables, admission, refusedBy(admission));
    return reply.send(pruneAbsent((projection && op.projections?.[projection]) || op.result, data[fieldName(op.name)]));
  }

  async function runMerged(request: FastifyRequest, reply: FastifyReply, read: MergedRead) {
    const { admission, input } = await admitAndValidate(request, reply, { ...read, access: 'internal' }, request.query, true);
    const limit = (input.limit as number) ?? 24;
    const page = (input.page as number) ?? 1;
    checkMergedDepth(limit, page);
    const parts = SUBGRAPHS.map((s) => ({ alias: s.name, field: fieldName(`${s.name}.${read.part}`), type: `${typeStem(`${s.name}.${read.part}`)}Input` }));
    const query = `query Rest_merged(${parts.map((p) => `$${p.alias}: ${p.type}`).join(', ')}) { ${parts
      .map((p) => `${p.alias}: ${p.field}(input: $${p.alias})${selectionOf(read.result)}`)
      .join(' ')} }`;
    const window = { ...input, limit: limit * page, page: 1 };
    const variables = Object.fromEntries(parts.map((p) => [p.alias, window]));
    const data = await executeThroughGateway(apollo, query, variables, admission, refusedBy(admission));
    const pages = Object.values(data) as Array<{ items: Array<Record<string, string>>; total: number }>;
    const items = pages
      .flatMap((p) => p.items)
      .sort((a, b) => (a[read.orderBy] < b[read.orderBy] ? 1 : a[read.orderBy] > b[read.orderBy] ? -1 : 0))
      .slice((page - 1) * limit, page * limit);
    return reply.send({ items, page, limit, total: pages.reduce((sum, p) => sum + p.total, 0) });
  }

  const guarded = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        return sendError(reply, asAppError(error, reply.getHeader('x-request-id') as string, log));
      }
    };

  app.post<{ Params: { name: string } }>(
    '/v1/commands/:name',
    guarded(async (request, reply) => {
      const routed = COMMANDS.get((request.params as { name: string }).name);
      if (!routed) throw notFound(`unknown command ${(request.params as { name: string }).name}`);
      return run(request, reply, routed.operation, request.body ?? {}, false);
    }),
  );

  app.get(
    '/v1/read/*',
    guarded(async (request, reply) => {
      const path = `/${(request.params as { '*': string })['*']}`;
      const merged = MERGED_READS.get(path);
      if (merged) return runMerged(request, reply, merged);
      const routed = READS.get(path);
      if (!routed) throw notFound(`unknown read ${path}`);
      const query = request.query as Record<string, string | string[]>;
      return run(request, reply, routed.operation, routed.operation.fromQuery ? routed.operation.fromQuery(query) : query, true);
    }),
  );
}
