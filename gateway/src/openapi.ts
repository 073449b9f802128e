import { ERROR_STATUS, errorKinds, mergedReads, type ErrorKind, type Operation } from '@backoffice/platform';
import { OPERATIONS } from './subgraphs';

const errorBody = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['kind', 'message'],
      properties: { kind: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: { type: 'string' } },
    },
  },
};

function responses(result: object, kinds: readonly ErrorKind[]) {
  const out: Record<string, object> = { '200': { description: 'Success', content: { 'application/json': { schema: result } } } };
  for (const kind of [...kinds, 'rate_limited' as const]) {
    const status = String(ERROR_STATUS[kind]);
    const entry = (out[status] ??= { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }) as { description: string };
    entry.description = entry.description ? `${entry.description}, ${kind}` : kind;
  }
  return out;
}

function queryParameters(input: { properties?: Record<string, object>; required?: string[] }) {
  return Object.entries(input.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: (input.required ?? []).includes(name),
    schema,
  }));
}

const security = (op: { access: string }) => (op.access === 'public' ? [] : [{ bearer: [] }]);

/** The OpenAPI 3.1 document of the REST face, generated from the same declarations as everything else. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const operations: Operation[] = [...OPERATIONS.values()].map((r) => r.operation);
  for (const op of operations) {
    const base = {
      operationId: op.name,
      summary: op.summary,
      description: `${op.access === 'public' ? 'Public: no credential.' : `Scope: ${op.scope ?? 'any valid API key'}.`}${op.events.length ? ` Events: ${op.events.join(', ')}.` : ''}`,
      security: security(op),
      ...(op.deprecated ? { deprecated: true } : {}),
      responses: responses(op.result, errorKinds(op)),
    };
    if (op.kind === 'command') {
      paths[`/v1/commands/${op.name}`] = {
        post: { ...base, requestBody: { required: true, content: { 'application/json': { schema: op.input } } } },
      };
    } else if (op.restPath) {
      paths[`/v1/read${op.restPath}`] = { get: { ...base, parameters: queryParameters(op.input as never) } };
    }
  }
  for (const read of mergedReads) {
    paths[`/v1/read${read.restPath}`] = {
      get: {
        operationId: read.name,
        summary: read.summary,
        description: `Scope: ${read.scope}. Merged from every subgraph; page × limit may not exceed 1000.`,
        security: [{ bearer: [] }],
        parameters: queryParameters(read.input as never),
        responses: responses(read.result, ['validation_failed', 'unauthorized', 'forbidden', 'internal']),
      },
    };
  }
  // JSON round trip: the schema builder marks its objects with symbol keys that are not part of the document.
  return JSON.parse(JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Commerce back office', version: '0.3.0', description: 'REST face of the interface reference v0.3. Every path also exists as a GraphQL field at /graphql.' },
    servers: [{ url: '/' }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key token (bok_…)' } },
      schemas: { Error: errorBody },
    },
  })) as Record<string, unknown>;
}
