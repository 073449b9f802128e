import { listAudit } from './audit';
import { validationFailed } from './errors';
import type { EventDeclaration } from './event';
import { defineOperation, type Operation } from './operation';
import { FEED_POSITION, feedEvents, feedPositionInput } from './event-feed';
import { listEvents } from './outbox';
import { maskEventPayload, payloadSchemas } from './personal';
import { t, type TObject, type TSchema } from './schema';

/** How deep the merged audit and event reads may page (page × limit), since each subgraph is asked for that many. */
export const MERGED_READ_DEPTH = 1000;

/** An event's delivery state, one GraphQL enum in every subgraph (identical, as federation wants). */
const eventStatus = t.enum(['pending', 'delivered', 'unrouted', 'dead'] as const, { name: 'EventDeliveryStatus' });

const auditItem = t.object({
  actor_id: t.string(),
  actor_name: t.string(),
  operation: t.string(),
  outcome: t.string({ description: '`ok`, or the error kind the call was refused with' }),
  request_id: t.string(),
  at: t.timestamp(),
});

const eventItem = t.object({
  event_id: t.string(),
  type: t.string(),
  actor_id: t.nullable(t.string()),
  request_id: t.nullable(t.string()),
  payload: t.record(),
  occurred_at: t.timestamp(),
  status: eventStatus,
  attempts: t.integer({ minimum: 0 }),
  next_attempt_at: t.nullable(t.timestamp()),
  delivered_at: t.nullable(t.timestamp()),
  last_error: t.nullable(t.string()),
});

/** The result of a paged read (what `Sql.page` answers, its items mapped): every paged read declares its result so; at most its largest `limit` items. */
export const pageOf = <S extends TSchema>(item: S, maxLimit = 100) =>
  t.object({
    items: t.array(item, { maxItems: maxLimit }),
    page: t.integer({ minimum: 1 }),
    limit: t.integer({ minimum: 1 }),
    total: t.integer({ minimum: 0 }),
  });

const paging = (maxLimit: number) => ({
  limit: t.optional(t.integer({ minimum: 1, maximum: maxLimit, default: 24 })),
  page: t.optional(t.integer({ minimum: 1, default: 1 })),
});

const auditFilter = { actor: t.optional(t.id('an actor name or actor_id')), operation: t.optional(t.id()) };
const eventFilter = { type: t.optional(t.id()), status: t.optional(eventStatus) };

/** What the live stream relays of an event: its envelope (no delivery state) and its place in its subgraph's outbox. */
const feedItem = t.object({
  event_id: t.string(),
  type: t.string(),
  actor_id: t.nullable(t.string()),
  request_id: t.nullable(t.string()),
  payload: t.record(),
  occurred_at: t.timestamp(),
  position: t.string({ pattern: FEED_POSITION }),
});

const feedInput = t.object({
  after: t.optional(feedPositionInput('a position this read answered; absent: from now')),
  type: t.optional(t.id()),
  limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 100 })),
});

export const auditPage = pageOf(auditItem, MERGED_READ_DEPTH);
export const eventPage = pageOf(eventItem, MERGED_READ_DEPTH);

/**
 * The audit and event reads every subgraph serves over its own schema. An event's payload comes back
 * with the personal fields of its type's declaration masked unless the actor has `pii.read` (rule 7).
 */
export function platformReads(subgraph: string, events: readonly EventDeclaration[] = []): Operation[] {
  const schemas = payloadSchemas(events);
  // The events read and the feed show payloads alike: personal fields masked without pii.read.
  const shown = <I extends { type: string; payload: Record<string, unknown> }>(scopes: readonly string[], items: I[]) =>
    scopes.includes('pii.read') ? items : items.map((item) => ({ ...item, payload: maskEventPayload(schemas, item.type, item.payload) }));
  return [
    defineOperation({
      name: `${subgraph}.audit`,
      kind: 'read',
      access: 'internal',
      scope: 'audit.read',
      summary: `The audit trail of the ${subgraph} subgraph's operations, newest first.`,
      input: t.object({ ...auditFilter, ...paging(MERGED_READ_DEPTH) }),
      result: auditPage,
      events: [],
      async handler({ input, actor, db }) {
        return listAudit(db, subgraph, actor.tenant_id, input);
      },
    }),
    defineOperation({
      name: `${subgraph}.events`,
      kind: 'read',
      access: 'internal',
      scope: 'events.read',
      summary: `Events recorded by the ${subgraph} subgraph, newest first, with their delivery state; personal fields of payloads masked without pii.read.`,
      input: t.object({ ...eventFilter, ...paging(MERGED_READ_DEPTH) }),
      result: eventPage,
      events: [],
      async handler({ input, actor, db }) {
        const page = await listEvents(db, subgraph, actor.tenant_id, input);
        return { ...page, items: shown(actor.scopes, page.items) };
      },
    }),
    defineOperation({
      name: `${subgraph}.event_feed`,
      kind: 'read',
      access: 'internal',
      scope: 'events.read',
      summary: `Events of the ${subgraph} subgraph committed after a position, oldest first (what GET /v1/stream/events relays); masked as ${subgraph}.events.`,
      input: feedInput,
      result: t.object({ items: t.array(feedItem, { maxItems: 100 }), position: t.string({ pattern: FEED_POSITION }) }),
      events: [],
      async handler({ input, actor, db }) {
        const feed = await feedEvents(db, subgraph, actor.tenant_id, input);
        return { ...feed, items: shown(actor.scopes, feed.items) };
      },
    }),
  ];
}

/**
 * A read the gateway answers by asking every subgraph for its part and merging, newest first:
 * the audit trail and the events of the whole tenant.
 */
export interface MergedRead {
  name: string;
  scope: string;
  summary: string;
  restPath: string;
  /** Which per-subgraph read it merges: `<subgraph>.<part>`. */
  part: 'audit' | 'events';
  /** The item field that orders the merge. */
  orderBy: 'at' | 'occurred_at';
  input: TObject;
  result: TSchema;
}

export const mergedReads: MergedRead[] = [
  {
    name: 'read.internal.audit',
    scope: 'audit.read',
    summary: 'The audit trail of the tenant: every call by its keys, refused ones included, newest first.',
    restPath: '/internal/audit',
    part: 'audit',
    orderBy: 'at',
    input: t.object({ ...auditFilter, ...paging(100) }),
    result: auditPage,
  },
  {
    name: 'read.internal.events',
    scope: 'events.read',
    summary: 'Events of the tenant with their delivery trail, newest first; personal fields of payloads masked without pii.read.',
    restPath: '/internal/events',
    part: 'events',
    orderBy: 'occurred_at',
    input: t.object({ ...eventFilter, ...paging(100) }),
    result: eventPage,
  },
];

export function checkMergedDepth(limit: number, pageNo: number): void {
  if (limit * pageNo > MERGED_READ_DEPTH) {
    throw validationFailed(`page × limit may not exceed ${MERGED_READ_DEPTH}; narrow the read with a filter`, { reason: 'out_of_range', field: 'page' });
  }
}
