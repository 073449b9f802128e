import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys and credentials keep their tenant_id without a foreign key to tenant. The tenant is copied
 * from the authenticated credential (never from input) and tenants are never deleted, while the
 * check share-locked the tenant's one row on every key creation: under concurrent creations that
 * lock becomes a MultiXact, about a sixth of the command's database time. The credential still
 * references its key, whose row the same statement writes.
 */
export class KeyTenantWithoutFk1795300000001 implements MigrationInterface {
  name = 'KeyTenantWithoutFk1795300000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.api_key DROP CONSTRAINT api_key_tenant_id_fkey`);
    await q.query(`ALTER TABLE identity.credential DROP CONSTRAINT credential_tenant_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.api_key ADD CONSTRAINT api_key_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES identity.tenant (id)`);
    await q.query(`ALTER TABLE identity.credential ADD CONSTRAINT credential_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES identity.tenant (id)`);
  }
}
