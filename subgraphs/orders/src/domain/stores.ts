import { conflict } from '@backoffice/platform';
import type { StoreDirectory } from '@backoffice/catalog';

/** The store, which identity owns, must be the tenant's: asked through the port, never read from its tables. */
export async function storeOfTenant(stores: StoreDirectory, tenantId: string, storeId: string): Promise<void> {
  const store = await stores.resolve(storeId);
  if (!store || store.tenant_id !== tenantId || store.store_id !== storeId) throw conflict(`store ${storeId} does not exist in this tenant`);
}
