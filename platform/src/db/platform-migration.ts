import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables every subgraph keeps in its own schema: the transactional outbox (events and their delivery
 * trail) and the audit trail of the operations it serves.
 */
export function platformMigration(schema: string): new () => MigrationInterface {
  return class PlatformTables1763800000000 implements MigrationInterface {
    name = 'PlatformTables1763800000000';

    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE "${schema}".outbox_event (
          seq bigserial PRIMARY KEY,
          event_id text NOT NULL UNIQUE,
          tenant_id text NOT NULL,
          type text NOT NULL,
          payload jsonb NOT NULL,
          actor_id text,
          request_id text,
          occurred_at timestamptz NOT NULL DEFAULT now(),
          status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
          attempts integer NOT NULL DEFAULT 0,
          next_attempt_at timestamptz NOT NULL DEFAULT now(),
          lease_until timestamptz,
          delivered_at timestamptz,
          last_error text
        )`);
      await q.query(`CREATE INDEX outbox_event_due ON "${schema}".outbox_event (next_attempt_at) WHERE status = 'pending'`);
      await q.query(`CREATE INDEX outbox_event_tenant ON "${schema}".outbox_event (tenant_id, seq DESC)`);
      await q.query(`
        CREATE TABLE "${schema}".event_delivery_attempt (
          id bigserial PRIMARY KEY,
          event_id text NOT NULL REFERENCES "${schema}".outbox_event (event_id),
          attempt integer NOT NULL,
          attempted_at timestamptz NOT NULL DEFAULT now(),
          outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
          error text
        )`);
      await q.query(`CREATE INDEX event_delivery_attempt_event ON "${schema}".event_delivery_attempt (event_id)`);
      await q.query(`
        CREATE TABLE "${schema}".audit_entry (
          seq bigserial PRIMARY KEY,
          tenant_id text NOT NULL,
          actor_id text NOT NULL,
          actor_name text NOT NULL,
          operation text NOT NULL,
          outcome text NOT NULL,
          request_id text NOT NULL,
          at timestamptz NOT NULL DEFAULT now()
        )`);
      await q.query(`CREATE INDEX audit_entry_tenant ON "${schema}".audit_entry (tenant_id, seq DESC)`);
      await q.query(`CREATE INDEX audit_entry_actor ON "${schema}".audit_entry (tenant_id, actor_name, seq DESC)`);
      await q.query(`CREATE INDEX audit_entry_operation ON "${schema}".audit_entry (tenant_id, operation, seq DESC)`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE "${schema}".event_delivery_attempt, "${schema}".outbox_event, "${schema}".audit_entry`);
    }
  };
}

/**
 * The relay's claim reads due events in (next_attempt_at, seq) order and stops at its batch size; an
 * index on next_attempt_at alone made it sort every pending event, so a backlog slowed each claim.
 * Pages keep room for the claim's update (lease and attempt count, no indexed column), so it can
 * stay on its page without new index entries (a HOT update), and the table is vacuumed often.
 */
export function platformOutboxDueMigration(schema: string): new () => MigrationInterface {
  return class PlatformOutboxDue1795300000000 implements MigrationInterface {
    name = 'PlatformOutboxDue1795300000000';

    async up(q: QueryRunner): Promise<void> {
      await q.query(`DROP INDEX "${schema}".outbox_event_due`);
      await q.query(`CREATE INDEX outbox_event_due ON "${schema}".outbox_event (next_attempt_at, seq) WHERE status = 'pending'`);
      // Vacuumed after a thousand changed rows, not a fifth of the table: delivered events leave
      // entries in the claim's index until a vacuum removes them.
      await q.query(`ALTER TABLE "${schema}".outbox_event SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE "${schema}".outbox_event RESET (fillfactor, autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold)`);
      await q.query(`DROP INDEX "${schema}".outbox_event_due`);
      await q.query(`CREATE INDEX outbox_event_due ON "${schema}".outbox_event (next_attempt_at) WHERE status = 'pending'`);
    }
  };
}

/**
 * The consumer side of events, in the consuming subgraph's own schema: one row per delivery attempt
 * of an event to one of its consumers (the trail), of which at most one per (consumer, event) says
 * `handled` — written in the handler's transaction, it makes the effect apply once. An event no
 * consumer takes is `unrouted` in its outbox, not `delivered`.
 */
export function platformConsumerMigration(schema: string): new () => MigrationInterface {
  return class PlatformConsumers1795400000000 implements MigrationInterface {
    name = 'PlatformConsumers1795400000000';

    async up(q: QueryRunner): Promise<void> {
      await q.query(`
        CREATE TABLE "${schema}".consumer_delivery (
          id bigserial PRIMARY KEY,
          consumer text NOT NULL,
          event_id text NOT NULL,
          event_type text NOT NULL,
          attempt integer NOT NULL,
          outcome text NOT NULL CHECK (outcome IN ('handled', 'failed')),
          error text,
          at timestamptz NOT NULL DEFAULT now()
        )`);
      await q.query(`CREATE UNIQUE INDEX consumer_delivery_once ON "${schema}".consumer_delivery (consumer, event_id) WHERE outcome = 'handled'`);
      await q.query(`CREATE INDEX consumer_delivery_event ON "${schema}".consumer_delivery (event_id)`);
      await q.query(`ALTER TABLE "${schema}".outbox_event DROP CONSTRAINT outbox_event_status_check`);
      await q.query(
        `ALTER TABLE "${schema}".outbox_event ADD CONSTRAINT outbox_event_status_check CHECK (status IN ('pending', 'delivered', 'unrouted', 'dead'))`,
      );
      await q.query(`ALTER TABLE "${schema}".event_delivery_attempt DROP CONSTRAINT event_delivery_attempt_outcome_check`);
      await q.query(
        `ALTER TABLE "${schema}".event_delivery_attempt ADD CONSTRAINT event_delivery_attempt_outcome_check CHECK (outcome IN ('delivered', 'unrouted', 'failed'))`,
      );
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`DROP TABLE "${schema}".consumer_delivery`);
      await q.query(`ALTER TABLE "${schema}".event_delivery_attempt DROP CONSTRAINT event_delivery_attempt_outcome_check`);
      await q.query(
        `ALTER TABLE "${schema}".event_delivery_attempt ADD CONSTRAINT event_delivery_attempt_outcome_check CHECK (outcome IN ('delivered', 'failed'))`,
      );
      await q.query(`ALTER TABLE "${schema}".outbox_event DROP CONSTRAINT outbox_event_status_check`);
      await q.query(`ALTER TABLE "${schema}".outbox_event ADD CONSTRAINT outbox_event_status_check CHECK (status IN ('pending', 'delivered', 'dead'))`);
    }
  };
}

/**
 * The live event stream reads each outbox in commit-safe order: `tx` is the writing transaction's id,
 * and only transactions older than every one still running (the snapshot's xmin) are read, so a
 * reader that moved past a position never misses an event committed later with a lower `seq`.
 * Rows from before this migration share its transaction's id and keep their `seq` order.
 * `txid_current()` is `pg_current_xact_id()` as a bigint (kept by PostgreSQL for that use): no casts to compare or index.
 */
export function platformOutboxFeedMigration(schema: string): new () => MigrationInterface {
  return class PlatformOutboxFeed1796900000000 implements MigrationInterface {
    name = 'PlatformOutboxFeed1796900000000';

    async up(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE "${schema}".outbox_event ADD COLUMN tx bigint NOT NULL DEFAULT txid_current()`);
      await q.query(`CREATE INDEX outbox_event_feed ON "${schema}".outbox_event (tenant_id, tx, seq)`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`ALTER TABLE "${schema}".outbox_event DROP COLUMN tx`);
    }
  };
}
