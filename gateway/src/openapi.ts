import {
  present,
  deprecationNotice,
  ERROR_STATUS,
  errorKinds,
  type FamilyKeys,
  familyKeys,
  mergedReads,
  t,
  type ErrorKind,
  type EventDeclaration,
  type Operation,
} from '@backoffice/platform';
import { deprecationHeaders } from './deprecation';
import { STREAM_LIMITS, STREAM_PATH } from './event-stream';
import { EVENTS, OPERATIONS, SUBGRAPHS } from './subgraphs';

const nonNegativeInteger = { type: 'integer', minimum: 0 };
const errorBody = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['kind', 'message'],
      description: 'Details of the error may follow kind and message (those below, by kind).',
      additionalProperties: true,
      properties: {
        kind: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        scope: { type: 'string', description: 'forbidden: the scope the credential lacks' },
        owner_required: { type: 'boolean', description: "forbidden: only the tenant's owner key may call it" },
        reason: { type: 'string', description: 'conflict: why, when the operation names it' },
        requested: { type: 'integer', description: 'exceeds_remaining: the quantity asked for' },
        remaining: { type: 'integer', description: 'exceeds_remaining: what the source still holds' },
        retry_after: { type: 'integer', minimum: 1, description: 'rate_limited: seconds until the limit that refused takes the call (as `Retry-After`)' },
        rate_limit: {
          type: 'object',
          description: 'rate_limited: the limit that refused, as its `RateLimit` headers say (`reset` and `window` in seconds)',
          properties: { limit: nonNegativeInteger, remaining: nonNegativeInteger, reset: nonNegativeInteger, window: nonNegativeInteger },
        },
      },
    },
  },
};

/** When each kind is answered: the description of its shared response. */
const KIND_MEANING: Record<ErrorKind, string> = {
  validation_failed: 'the input or a query parameter breaks its schema, or a read is sent a query parameter it does not declare (the message names it)',
  unknown_projection: 'the read is asked for a projection it does not declare',
  unauthorized: 'no valid credential',
  forbidden: 'the credential lacks the scope (`scope`, also named in the message), or the operation is owner-gated (`owner_required`)',
  not_found: 'a referenced record does not exist',
  conflict: 'the current state does not allow it',
  exceeds_remaining: 'a quantity above what the source parcel still holds (`requested`, `remaining`)',
  rate_limited:
    "a limit refused the call: the credential's rate bucket (an address's, without one), or the operation's own (the login commands'); " +
    "`Retry-After`, the `RateLimit` headers, `retry_after` and `rate_limit` are that limit's",
  internal: 'an unexpected failure; the message carries only the request id',
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateLimitHeaders = { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimit-Policy') };
const text = (description: string, required = true) => ({ description, required, schema: { type: 'string' } });
/** What a prepared read's page carries for HTTP caches (docs/catalog.md, "HTTP caching"). */
const cachingHeaders = {
  ETag: text('Strong validator of these bytes: `"<catalog version>-<digest>"`, with `-gz` before the closing quote for the gzip form.'),
  'Cache-Control': text('`public, max-age=<s>, stale-while-revalidate=<s>`.'),
  'Surrogate-Key': text('Purge keys, space-separated: `store-<id>` and `product-<id>` of each product shown.'),
  'Cache-Tag': text('The same purge keys, comma-separated.'),
  Vary: text('`accept-encoding`.'),
  'Content-Encoding': text('`br` or `gzip` when the request takes one (brotli on an equal weight) and the page is 1 KiB or more.', false),
};

/** The shared response of the kinds an operation answers with at one status, its body's `kind` limited to them. */
function errorResponse(kinds: ErrorKind[]) {
  return {
    description: kinds.map((kind) => `\`${kind}\`: ${KIND_MEANING[kind]}.`).join(' '),
    headers: kinds.includes('rate_limited') ? { ...rateLimitHeaders, 'Retry-After': header('Retry-After') } : rateLimitHeaders,
    content: {
      'application/json': {
        schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { properties: { kind: { enum: kinds } } } } }] },
      },
    },
  };
}

/**
 * 200 with the result (any of the projections, for a read that has them), then a reference to the
 * shared response of each status the operation's error kinds (and `rate_limited`) answer with;
 * `shared` collects those responses for `components`. A deprecated operation's success declares
 * `Deprecation` and, when it has a successor, `Link`.
 */
function responses(
  op: Pick<Operation, 'result' | 'projections' | 'deprecated' | 'successor' | 'prepared'>,
  kinds: readonly ErrorKind[],
  shared: Record<string, object>,
) {
  const projections = Object.values(op.projections ?? {});
  const deprecation = op.deprecated
    ? {
        Deprecation: header('Deprecation'),
        ...(op.successor ? { Link: { description: `Its successor: ${deprecationHeaders(op).link}`, schema: { type: 'string' } } } : {}),
      }
    : {};
  const out: Record<string, object> = {
    '200': {
      description: projections.length ? 'Success: the result, or the projection asked for' : 'Success',
      headers: { ...rateLimitHeaders, ...deprecation, ...(op.prepared ? cachingHeaders : {}) },
      content: { 'application/json': { schema: projections.length ? { anyOf: [op.result, ...projections] } : op.result } },
    },
    ...(op.prepared
      ? {
          '304': {
            description: 'Not Modified: `If-None-Match` names the current tag; no body',
            headers: { ETag: cachingHeaders.ETag, 'Cache-Control': cachingHeaders['Cache-Control'], Vary: cachingHeaders.Vary },
          },
        }
      : {}),
  };
  const order = Object.keys(ERROR_STATUS);
  const byStatus = new Map<number, ErrorKind[]>();
  for (const kind of [...kinds, 'rate_limited' as const].sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    byStatus.set(ERROR_STATUS[kind], [...(byStatus.get(ERROR_STATUS[kind]) ?? []), kind]);
  }
  for (const [status, group] of byStatus) {
    const name = group.join('_or_');
    shared[name] ??= errorResponse(group);
    out[String(status)] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}

type ListSchema = { description: string; maxItems?: number; items: { properties: Record<string, { minLength: number; maxLength: number }> } };

/**
 * A family of query parameters (`option.<name>=<value>`): OpenAPI names parameters exactly, so it is
 * one free-form object parameter, `style: form` exploded, whose keys are the whole parameter names
 * (`{"option.color": "red"}` is sent as `option.color=red`); `x-parameter-prefix` gives the prefix.
 */
function familyParameter(prefix: string, list: ListSchema, keys: FamilyKeys) {
  const { [keys.name]: name, [keys.value]: value } = list.items.properties;
  return {
    name: `${prefix}<${keys.name}>`,
    in: 'query',
    required: false,
    description:
      `${list.description}. Each \`${prefix}<${keys.name}>=<${keys.value}>\` is a parameter of its own ` +
      `(this object's keys are the whole names; a name may repeat); at most ${list.maxItems} in all.`,
    style: 'form',
    explode: true,
    schema: {
      type: 'object',
      propertyNames: { pattern: `^${prefix.replace(/\./g, '\\.')}`, minLength: prefix.length + name.minLength, maxLength: prefix.length + name.maxLength },
      additionalProperties: value,
    },
    'x-parameter-prefix': prefix,
  };
}

/** A read's query parameters, exactly as `queryInput` reads them: one per input field, a list comma-separated, families by prefix. */
function queryParameters(op: Pick<Operation, 'input' | 'queryFamilies' | 'queryFamilyKeys' | 'queryValues'>) {
  const { properties = {}, required = [] } = op.input as { properties?: Record<string, { type?: string }>; required?: string[] };
  const families = op.queryFamilies ?? {};
  return Object.entries(properties).map(([name, schema]) =>
    Object.hasOwn(families, name)
      ? familyParameter(families[name], schema as ListSchema, familyKeys(op, name))
      : {
          name,
          in: 'query',
          required: required.includes(name),
          schema: withQueryValues(schema, op.queryValues?.[name]),
          ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
        },
  );
}

/** A list field's items also taking the query string's own values (`facets=all`). */
function withQueryValues(schema: { type?: string }, values: readonly string[] | undefined) {
  const items = (schema as { items?: { enum?: string[] } }).items;
  if (!values?.length || !items?.enum) return schema;
  return { ...schema, items: { ...items, enum: [...items.enum, ...values] } };
}

/** Public: no credential. Otherwise a bearer API key carrying the operation's scope (OpenAPI 3.1 lets any scheme name scopes). */
const security = (op: { access: string; scope: string | null }) => (op.access === 'public' ? [] : [{ bearer: op.scope ? [op.scope] : [] }]);

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
          description: `Emitted by ${emitters.join(', ') || 'no operation: see its summary'} (${subgraph.name} subgraph). Delivered at least once, after its transaction commits.`,
          requestBody: { required: true, content: { 'application/json': { schema: eventEnvelope(event) } } },
          responses: { '2XX': { description: 'Received; any other answer, or none, is retried with backoff' } },
        },
      },
    ]),
  );
}

/** The tag of the reads merged from every subgraph (no one subgraph owns them). */
const MERGED_TAG = { name: 'merged', description: 'Reads merged from every subgraph: the audit log, the event log and the live event stream.' };

/** The live event stream (event-stream.ts): server-sent events, refused with the documented JSON errors before it starts. */
function streamEntry(shared: Record<string, object>) {
  const { '200': ok, ...refusals } = responses({ result: t.object({}) }, ['validation_failed', 'unauthorized', 'forbidden', 'internal'], shared);
  const { headers } = ok as { headers: object };
  return {
    operationId: 'stream.events',
    tags: [MERGED_TAG.name],
    summary: "The tenant's events as they commit, as server-sent events; resumable.",
    description:
      'Scope: events.read (personal fields masked without pii.read, as in read.internal.events). Each event is `id: <opaque>` and ' +
      '`data: {event_id, type, occurred_at, actor_id, request_id, payload}`; the first frame is an `id:` alone (where the stream starts). ' +
      'Reconnect with `Last-Event-ID` (or `last_event_id`) to get exactly what followed. The bearer goes in the Authorization header ' +
      `(fetch-based SSE in a browser). A comment every ${STREAM_LIMITS.heartbeatMs / 1000} s; at most ${STREAM_LIMITS.perTenant} streams ` +
      `per tenant (429); a reader more than ${STREAM_LIMITS.bufferedBytes} bytes behind is cut.`,
    security: [{ bearer: ['events.read'] }],
    parameters: [
      { name: 'type', in: 'query', required: false, schema: t.id() },
      { name: 'last_event_id', in: 'query', required: false, schema: t.string({ minLength: 1, maxLength: 1000 }) },
      { name: 'Last-Event-ID', in: 'header', required: false, schema: t.string({ maxLength: 1000 }) },
    ],
    responses: { '200': { description: 'The stream', headers, content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...refusals },
  };
}

/** The OpenAPI 3.1 document of the REST face, generated from the same declarations as everything else. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const shared: Record<string, object> = {};
  const operations: Operation[] = [...OPERATIONS.values()].map((r) => r.operation);
  const subgraphOf = new Map([...OPERATIONS.values()].map((r) => [r.operation.name, r.subgraph.name]));
  for (const op of operations) {
    const deprecation = deprecationNotice(op)
      ? `${deprecationNotice(op)} Every answer, refusals too, carries \`Deprecation: ` +
        `true\`${op.successor ? ' and the successor as `Link`' : ''} (declared on the 200 response: the shared error ` +
        `responses cannot name a header of one operation). `
      : '';
    const base = {
      operationId: op.name,
      tags: [present(subgraphOf.get(op.name), `the subgraph of ${op.name}`)],
      summary: op.summary,
      description:
        deprecation +
        (op.access === 'public'
          ? 'Public: no credential.'
          : `Scope: ${op.scope ?? 'any valid API key'}${op.ownerGated ? ' (owner-gated: the owner key only)' : ''}.`) +
        (op.events.length ? ` Events: ${op.events.map((e) => e.name).join(', ')}.` : ''),
      security: security(op),
      ...(op.deprecated ? { deprecated: true } : {}),
      responses: responses(op, errorKinds(op), shared),
    };
    if (op.kind === 'command') {
      paths[`/v1/commands/${op.name}`] = {
        post: {
          ...base,
          requestBody: { required: true, content: { 'application/json': { schema: op.input } } },
          responses: { ...base.responses, '415': { $ref: '#/components/responses/unsupported_media_type' } },
        },
      };
    } else if (op.restPath) {
      paths[`/v1/read${op.restPath}`] = {
        get: { ...base, parameters: queryParameters(op), ...(op.extraQueryAccepted ? { 'x-extra-query-parameters': 'ignored' } : {}) },
      };
    }
  }
  for (const read of mergedReads) {
    const merged = { kind: 'read', access: 'internal', scope: read.scope } as const;
    paths[`/v1/read${read.restPath}`] = {
      get: {
        operationId: read.name,
        tags: [MERGED_TAG.name],
        summary: read.summary,
        description: `Scope: ${read.scope}. Merged from every subgraph; page × limit may not exceed 1000.`,
        security: security(merged),
        parameters: queryParameters(read),
        responses: responses(read, errorKinds(merged), shared),
      },
    };
  }
  paths[STREAM_PATH] = { get: streamEntry(shared) };
  // A command's body said to be other than JSON (or not said at all), the one refusal of its own status.
  shared.unsupported_media_type = {
    ...errorResponse(['validation_failed']),
    description: '`validation_failed` (Unsupported Media Type): a body sent without `Content-Type: application/json`; the message says to send it.',
  };
  // JSON round trip: the schema builder marks its objects with symbol keys that are not part of the document.
  return JSON.parse(
    JSON.stringify({
      openapi: '3.1.0',
      info: {
        title: 'Commerce back office',
        version: '0.3.0',
        description: [
          'REST face of the interface reference v0.3. Every path also exists as a GraphQL field at /graphql.',
          "Scopes: each operation's security requirement names the scope its bearer API key must carry (`bearer: " +
            '[<scope>]`; an empty list: any valid key); a public operation has none (`security: []`).',
          'Errors: the body is `{"error":{"kind","message",…details}}` (`components/schemas/Error`). Each operation lists ' +
            'the kinds it may answer with: those its declaration names, else by its kind (a command: `validation_failed`, ' +
            '`unauthorized`, `forbidden`, `conflict`, `internal`; an internal read: `validation_failed`, `unauthorized`, ' +
            '`forbidden` when it needs a scope, `internal`; a public read: `validation_failed`, `not_found`, `internal`), ' +
            'and every operation `rate_limited`. Kinds that share a status share one response (`components/responses`).',
          'Methods: a command is `POST` only; any other method on `/v1/commands/<name>` answers 405 with `Allow: POST` ' +
            "and kind `validation_failed`. A command's body is JSON: sent with another `Content-Type`, or with none, it " +
            'answers 415, kind `validation_failed`.',
          'Query parameters: a read refuses any parameter it does not declare (`validation_failed`, naming it), except ' +
            'one marked `x-extra-query-parameters: ignored` (read.products: the reference accepts extra string-valued ' +
            "parameters, such as a link's `utm_source`), which ignores them but still refuses a declared field under a name " +
            'it is not read by (`options=color:red`). A list parameter is comma-separated (`style: form`, `explode: ' +
            'false`). A family of parameters such as `option.<name>=<value>` is a free-form object parameter exploded as ' +
            '`style: form`: its keys are the whole parameter names, and `x-parameter-prefix` gives the prefix.',
        ].join('\n\n'),
        // The project is private (package.json `private: true`) and has no license.
        license: { name: 'UNLICENSED' },
      },
      servers: [{ url: '/' }],
      // /v1/docs groups operations by tag: the subgraph owning each, and the merged reads.
      tags: [...SUBGRAPHS.map((subgraph) => ({ name: subgraph.name, description: subgraph.summary })), MERGED_TAG],
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
      webhooks: webhooks(),
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key token (bok_…)' } },
        schemas: { Error: errorBody },
        responses: Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b))),
        headers: {
          RateLimit: {
            description:
              'What is left of the bucket the call was charged to (on a 429, of the limit that refused): `limit=<n>, remaining=<n>, reset=<seconds>`.',
            schema: { type: 'string' },
          },
          'RateLimit-Policy': { description: 'That limit: `<limit>;w=<seconds an empty bucket takes to fill>`.', schema: { type: 'string' } },
          'Retry-After': { description: 'Seconds until the limit that refused takes the call.', required: true, schema: { type: 'integer', minimum: 1 } },
          Deprecation: { description: 'The operation is deprecated: `true`.', required: true, schema: { type: 'string', enum: ['true'] } },
        },
      },
    }),
  ) as Record<string, unknown>;
}
