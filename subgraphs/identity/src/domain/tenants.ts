import { tenantCreated } from '@backoffice/contracts';
import { conflict, eventDraft, newId, t, validate, writeEvents, sqlOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';
import { apiKeyWrite, credentialWrite, expiryOf } from './keys';
import type { Tenant } from '../entities';
import { ALL_SCOPES } from './scopes';

export const STORE_HANDLE_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

const tenantInput = t.object({
  name: t.string({ minLength: 1, maxLength: 120 }),
  store: t.string({ minLength: 1, maxLength: 63, pattern: STORE_HANDLE_PATTERN }),
  expires_in_days: t.optional(t.integer({ minimum: 1, maximum: 3650 })),
  never_expires: t.optional(t.boolean()),
});

export interface CreatedTenant {
  tenant_id: string;
  store_id: string;
  api_key_id: string;
  token: string;
}

/** What writes `tenant.created`, by the name its event is drafted under (the subgraph's `emitters`). */
export const TENANT_CREATE = { name: 'tenant create', emits: [tenantCreated] };

/**
 * Creates a tenant, its first store and its owner key, which carries every scope. This is how a
 * first credential is issued (the reference leaves it open): from the command line, by whoever can
 * reach the database.
 */
export async function createTenant(
  dataSource: DataSource,
  raw: { name: string; store: string; expires_in_days?: number; never_expires?: boolean },
): Promise<CreatedTenant> {
  const input = validate<typeof raw>(tenantInput, { ...raw });
  const expiresAt = expiryOf(input, new Date());
  return dataSource.transaction(async (db) => {
    const tenantId = newId('ten');
    const storeId = newId('sto');
    const apiKeyId = newId('key');
    const sql = sqlOf(db);
    const [{ created_at: createdAt }] = await sql.rows<Pick<Tenant, 'created_at'>>(
      `INSERT INTO identity.tenant (id, name) VALUES ($1, $2) RETURNING created_at`,
      [tenantId, input.name],
    );
    if (await sql.one(`SELECT 1 FROM identity.store WHERE handle = $1`, [input.store]))
      throw conflict(`store handle ${input.store} is taken`, { reason: 'duplicate', field: 'store' });
    await sql.run(`INSERT INTO identity.store (id, tenant_id, handle, name) VALUES ($1, $2, $3, $4)`, [storeId, tenantId, input.store, input.name]);
    const credential = credentialWrite(tenantId, apiKeyId, expiresAt);
    for (const write of [apiKeyWrite({ id: apiKeyId, tenant_id: tenantId, name: 'owner', scopes: ALL_SCOPES, is_owner: true, issued_by: null }), credential]) {
      await sql.run(write.sql, write.params);
    }
    // With the tenant, in its transaction: other subgraphs set the tenant up when it exists, never before.
    await writeEvents(db, 'identity', { tenant_id: tenantId, actor_id: null, request_id: newId('req') }, [
      eventDraft(TENANT_CREATE.name, TENANT_CREATE.emits, tenantCreated, {
        tenant_id: tenantId,
        store_id: storeId,
        name: input.name,
        created_at: createdAt.toISOString(),
      }),
    ]);
    return { tenant_id: tenantId, store_id: storeId, api_key_id: apiKeyId, token: credential.minted.token };
  });
}
