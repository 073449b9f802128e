import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosts are stored normalized (lower case, no port, no trailing dot: tenant.store.update normalizes
 * them), so the unique index on host (from the first migration) is uniqueness of the name across
 * every tenant, race-safe. The check keeps any other writer honest. Bounds of the settings too.
 */
export class StoreHosts1795800000001 implements MigrationInterface {
  name = 'StoreHosts1795800000001';

  async up(q: QueryRunner): Promise<void> {
    // No command set a host before this one: whatever is there and not a normalized name is dropped.
    await q.query(`UPDATE identity.store SET host = NULL WHERE host !~ '^[a-z0-9-]+(\\.[a-z0-9-]+)+$' OR length(host) > 200`);
    await q.query(`
      ALTER TABLE identity.store
        ADD CONSTRAINT store_host_normalized CHECK (host ~ '^[a-z0-9-]+(\\.[a-z0-9-]+)+$' AND length(host) <= 200),
        ADD CONSTRAINT store_sender_name_length CHECK (length(notification_sender_name) <= 120)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.store DROP CONSTRAINT store_host_normalized, DROP CONSTRAINT store_sender_name_length`);
  }
}
