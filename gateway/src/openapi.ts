import { ERROR_STATUS, errorKinds, mergedReads, t, type ErrorKind, type EventDeclaration, type Operation } from '@backoffice/platform';
import { EVENTS, OPERATIONS } from './subgraphs';

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

/** What a subscriber receives for one event: the envelope every event has, with that event's payload. */
function eventEnvelope(event: EventDeclaration) {
  return t.object({
    event_id: t.string(),
    type: t.enum([event.name]),
    tenant_id: t.string(),
    occurred_at: t.timestamp(),
    actor_id: t.nullable(t.string({ description: 'the API key whose command emitted it' })),
    request_id: t.nullable(t.string()),
    payload: event.payload,
  });
}

/** The event catalog: OpenAPI's `webhooks`, one entry per declared event. */
function webhooks(): Record<string, unknown> {
  const entries = [...EVENTS.values()].sort((a, b) => a.event.name.localeCompare(b.event.name));
  return Object.fromEntries(
    entries.map(({ event, subgraph, emitters }) => [
      event.name,
      {
        post: {
          summary: event.summary,
          description: `Emitted by ${emitters.join(', ') || 'no operation'} (${subgraph.name} subgraph). Delivered at least once, after the command commits.`,
          requestBody: { required: true, content: { 'application/json': { schema: eventEnvelope(event) } } },
          responses: { '2XX': { description: 'Received; any other answer, or none, is retried with backoff' } },
        },
      },
    ]),
  );
}

/** The OpenAPI 3.1 document of the REST face, generated from the same declarations as everything else. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const operations: Operation[] = [...OPERATIONS.values()].map((r) => r.operation);
  for (const op of operations) {
    const base = {
      operationId: op.name,
      summary: op.summary,
      description: `${op.access === 'public' ? 'Public: no credential.' : `Scope: ${op.scope ?? 'any valid API key'}.`}${op.events.length ? ` Events: ${op.events.map((e) => e.name).join(', ')}.` : ''}`,
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
    webhooks: webhooks(),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key token (bok_…)' } },
      schemas: { Error: errorBody },
    },
  })) as Record<string, unknown>;
}
