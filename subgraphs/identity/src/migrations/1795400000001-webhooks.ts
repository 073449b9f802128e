import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions (a tenant's receivers, their sealed signing secrets) and deliveries (one per
 * event and subscription, with the outcome of its last attempt).
 */
export class Webhooks1795400000001 implements MigrationInterface {
  name = 'Webhooks1795400000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE identity.webhook_subscription (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        url text NOT NULL,
        event_types text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        -- AES-256-GCM sealed (SecretBox); the previous one keeps signing until previous_secret_until.
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_until timestamptz,
        failing_since timestamptz,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_subscription_tenant ON identity.webhook_subscription (tenant_id, created_at)`);
    await q.query(`
      CREATE TABLE identity.webhook_delivery (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        subscription_id text NOT NULL REFERENCES identity.webhook_subscription (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        event_type text NOT NULL,
        envelope jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_attempt_at timestamptz,
        last_response_status integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        UNIQUE (subscription_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_delivery_tenant ON identity.webhook_delivery (tenant_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity.webhook_delivery, identity.webhook_subscription`);
  }
}
