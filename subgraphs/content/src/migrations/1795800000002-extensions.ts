import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Extensions of a tenant: the vault of their connection credentials, their manifests, and the
 * placements of their components in a store's slots. Stores are identity's: referred to by id,
 * never joined. Rules in domain/connections.ts and domain/composition.ts.
 */
export class Extensions1795800000002 implements MigrationInterface {
  name = 'Extensions1795800000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content.extension_connection (
        tenant_id text NOT NULL,
        extension_id text NOT NULL,
        connection_name text NOT NULL,
        -- The credential, AES-256-GCM sealed under VAULT_KEY with (tenant, extension, connection) as
        -- additional data: v1.<iv>.<tag>.<ciphertext>. Opened only by the platform's broker.
        credential_sealed text NOT NULL,
        -- Its top-level keys, in clear: what was armed, never a value.
        credential_keys text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, extension_id, connection_name)
      )`);
    await q.query(`
      CREATE TABLE content.extension_manifest (
        tenant_id text NOT NULL,
        extension_id text NOT NULL,
        -- [{component, slot, position}]: each component's default placement.
        components jsonb NOT NULL,
        registered_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, extension_id)
      )`);
    await q.query(`
      CREATE TABLE content.composition_placement (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        store_id text NOT NULL,
        extension_id text NOT NULL,
        component text NOT NULL,
        slot text NOT NULL,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (tenant_id, store_id, extension_id, component)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE content.composition_placement`);
    await q.query(`DROP TABLE content.extension_manifest`);
    await q.query(`DROP TABLE content.extension_connection`);
  }
}
