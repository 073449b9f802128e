import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1763800000001 implements MigrationInterface {
  name = 'Identity1763800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE identity.tenant (id text PRIMARY KEY, name text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`
      CREATE TABLE identity.store (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES identity.tenant (id),
        handle text NOT NULL UNIQUE,
        name text NOT NULL,
        host text UNIQUE,
        theme_key text,
        guest_checkout_enabled boolean NOT NULL DEFAULT true,
        masked_checkout_enabled boolean NOT NULL DEFAULT false,
        notification_sender_name text,
        notification_reply_to text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX store_tenant ON identity.store (tenant_id)`);
    await q.query(`
      CREATE TABLE identity.api_key (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES identity.tenant (id),
        name text NOT NULL,
        scopes text[] NOT NULL,
        is_owner boolean NOT NULL DEFAULT false,
        issued_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_key_tenant ON identity.api_key (tenant_id)`);
    await q.query(`
      CREATE TABLE identity.credential (
        id text PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES identity.tenant (id),
        api_key_id text NOT NULL REFERENCES identity.api_key (id),
        secret_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz
      )`);
    await q.query(`CREATE INDEX credential_key ON identity.credential (api_key_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity.credential, identity.api_key, identity.store, identity.tenant`);
  }
}
