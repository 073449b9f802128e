import { conflict, defineOperation, newId, t } from '@backoffice/platform';
import { STORE_NAME_MAX_LENGTH, STORES_PER_TENANT } from '../domain/stores';
import { storeCreated } from '../events';
import { notifyStoreChanged } from '../domain/store-directory';
import { STORE_HANDLE_PATTERN } from '../domain/tenants';

/** A new store in the caller's tenant (extension): a name and a handle, unique across tenants as at tenant creation. */
export const tenantStoreCreate = defineOperation({
  name: 'tenant.store.create',
  kind: 'command',
  access: 'internal',
  scope: 'tenant.store.write',
  summary:
    `Creates a store in the tenant (extension): name and handle (lowercase letters and digits in groups joined by ` +
    `single hyphens, 1 to 63 characters, unique across tenants); no host until tenant.store.update sets one. At ` +
    `most ${STORES_PER_TENANT} stores per tenant.`,
  input: t.object({
    name: t.string({ minLength: 1, maxLength: STORE_NAME_MAX_LENGTH }),
    handle: t.string({ minLength: 1, maxLength: 63, pattern: STORE_HANDLE_PATTERN }),
  }),
  result: t.object({ id: t.string() }),
  events: [storeCreated],
  async handler({ input, actor, db, sql, stage, emit }) {
    // The tenant's row serializes its store creations, so the count below holds.
    await sql.run(`SELECT 1 FROM identity.tenant WHERE id = $1 FOR UPDATE`, [actor.tenant_id]);
    const [{ stores, taken }] = await sql.rows<{ stores: number; taken: boolean }>(
      `SELECT (SELECT count(*)::int FROM identity.store WHERE tenant_id = $1) AS stores, EXISTS (SELECT 1 FROM identity.store WHERE handle = $2) AS taken`,
      [actor.tenant_id, input.handle],
    );
    if (taken) throw conflict(`store handle ${input.handle} is taken`, { reason: 'duplicate', field: 'handle' });
    if (stores >= STORES_PER_TENANT) throw conflict(`a tenant has at most ${STORES_PER_TENANT} stores`, { reason: 'limit_reached' });
    const id = newId('sto');
    // A directory that remembered the handle as unknown forgets that at commit.
    await notifyStoreChanged(db, [id, input.handle]);
    stage(`INSERT INTO identity.store (id, tenant_id, handle, name) VALUES ($1, $2, $3, $4)`, [id, actor.tenant_id, input.handle, input.name]);
    emit(storeCreated, { store_id: id, handle: input.handle, name: input.name });
    return { id };
  },
});
