import { EntitySchema } from 'typeorm';

// The tables every subgraph keeps in its own schema (platform-migration.ts): one declaration each,
// registered in every subgraph's DataSource, whose default schema places them. pg-boss's `pgboss`
// schema is the library's own (it migrates it itself) and is not declared here. Checks and partial
// indexes are written as PostgreSQL prints them: the drift test compares them so.

const now = () => 'now()';
const serial = { type: 'bigint', primary: true, generated: 'increment' } as const;

/** One event in a subgraph's transactional outbox. `seq` is a bigint: pg answers it as text. */
export interface OutboxEvent {
  seq: string;
  event_id: string;
  tenant_id: string;
  type: string;
  payload: Record<string, unknown>;
  actor_id: string | null;
  request_id: string | null;
  occurred_at: Date;
  status: 'pending' | 'delivered' | 'unrouted' | 'dead';
  attempts: number;
  next_attempt_at: Date;
  lease_until: Date | null;
  delivered_at: Date | null;
  last_error: string | null;
  /** The writing transaction's id (bigint as text): the live stream's commit-safe order (platform-migration.ts). */
  tx: string;
}

export const OutboxEventEntity = new EntitySchema<OutboxEvent>({
  name: 'OutboxEvent',
  tableName: 'outbox_event',
  columns: {
    seq: serial,
    event_id: { type: 'text' },
    tenant_id: { type: 'text' },
    type: { type: 'text' },
    payload: { type: 'jsonb' },
    actor_id: { type: 'text', nullable: true },
    request_id: { type: 'text', nullable: true },
    occurred_at: { type: 'timestamptz', default: now },
    status: { type: 'text', default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    next_attempt_at: { type: 'timestamptz', default: now },
    lease_until: { type: 'timestamptz', nullable: true },
    delivered_at: { type: 'timestamptz', nullable: true },
    last_error: { type: 'text', nullable: true },
    tx: { type: 'bigint', default: () => 'txid_current()' },
  },
  uniques: [{ name: 'outbox_event_event_id_key', columns: ['event_id'] }],
  checks: [{ name: 'outbox_event_status_check', expression: `(status = ANY (ARRAY['pending'::text, 'delivered'::text, 'unrouted'::text, 'dead'::text]))` }],
  indices: [
    { name: 'outbox_event_due', columns: ['next_attempt_at', 'seq'], where: `(status = 'pending'::text)` },
    { name: 'outbox_event_tenant', columns: ['tenant_id', 'seq'] },
    { name: 'outbox_event_feed', columns: ['tenant_id', 'tx', 'seq'] },
  ],
});

/** One attempt of the relay to hand an event to the bus. */
export interface EventDeliveryAttempt {
  id: string;
  event_id: string;
  attempt: number;
  attempted_at: Date;
  outcome: 'delivered' | 'unrouted' | 'failed';
  error: string | null;
}

export const EventDeliveryAttemptEntity = new EntitySchema<EventDeliveryAttempt>({
  name: 'EventDeliveryAttempt',
  tableName: 'event_delivery_attempt',
  columns: {
    id: serial,
    event_id: { type: 'text' },
    attempt: { type: 'integer' },
    attempted_at: { type: 'timestamptz', default: now },
    outcome: { type: 'text' },
    error: { type: 'text', nullable: true },
  },
  checks: [{ name: 'event_delivery_attempt_outcome_check', expression: `(outcome = ANY (ARRAY['delivered'::text, 'unrouted'::text, 'failed'::text]))` }],
  indices: [{ name: 'event_delivery_attempt_event', columns: ['event_id'] }],
  foreignKeys: [{ name: 'event_delivery_attempt_event_id_fkey', target: OutboxEventEntity, columnNames: ['event_id'], referencedColumnNames: ['event_id'] }],
});

/** One line of the audit trail: who (the key's name), did what, with which outcome (`ok` or the error kind). */
export interface AuditEntry {
  seq: string;
  tenant_id: string;
  actor_id: string;
  actor_name: string;
  operation: string;
  outcome: string;
  request_id: string;
  at: Date;
}

export const AuditEntryEntity = new EntitySchema<AuditEntry>({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  columns: {
    seq: serial,
    tenant_id: { type: 'text' },
    actor_id: { type: 'text' },
    actor_name: { type: 'text' },
    operation: { type: 'text' },
    outcome: { type: 'text' },
    request_id: { type: 'text' },
    at: { type: 'timestamptz', default: now },
  },
  indices: [
    { name: 'audit_entry_tenant', columns: ['tenant_id', 'seq'] },
    { name: 'audit_entry_actor', columns: ['tenant_id', 'actor_name', 'seq'] },
    { name: 'audit_entry_operation', columns: ['tenant_id', 'operation', 'seq'] },
  ],
});

/** One delivery attempt of an event to one of the subgraph's consumers; at most one `handled` per (consumer, event). */
export interface ConsumerDelivery {
  id: string;
  consumer: string;
  event_id: string;
  event_type: string;
  attempt: number;
  outcome: 'handled' | 'failed';
  error: string | null;
  at: Date;
}

export const ConsumerDeliveryEntity = new EntitySchema<ConsumerDelivery>({
  name: 'ConsumerDelivery',
  tableName: 'consumer_delivery',
  columns: {
    id: serial,
    consumer: { type: 'text' },
    event_id: { type: 'text' },
    event_type: { type: 'text' },
    attempt: { type: 'integer' },
    outcome: { type: 'text' },
    error: { type: 'text', nullable: true },
    at: { type: 'timestamptz', default: now },
  },
  checks: [{ name: 'consumer_delivery_outcome_check', expression: `(outcome = ANY (ARRAY['handled'::text, 'failed'::text]))` }],
  indices: [
    { name: 'consumer_delivery_once', columns: ['consumer', 'event_id'], unique: true, where: `(outcome = 'handled'::text)` },
    { name: 'consumer_delivery_event', columns: ['event_id'] },
  ],
});

export const platformEntities = [OutboxEventEntity, EventDeliveryAttemptEntity, AuditEntryEntity, ConsumerDeliveryEntity];
