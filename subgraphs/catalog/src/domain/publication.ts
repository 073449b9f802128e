import { conflict, t, type Actor } from '@backoffice/platform';
import type { StoreDirectory } from '../stores';

/** Input and result of catalog.product.publish and catalog.product.unpublish. */
export const publicationInput = t.object({ product_id: t.id(), store_id: t.id('the store id or its handle') });
export const publicationResult = t.object({ product_id: t.string(), store_id: t.string(), published: t.boolean() });

/** The store, which must be the caller's own; identity answers, the catalog keeps no copy. */
export async function ownStore(stores: StoreDirectory, actor: Actor, ref: string): Promise<string> {
  const store = await stores.resolve(ref);
  if (!store || store.tenant_id !== actor.tenant_id) throw conflict(`store ${ref} does not exist in this tenant`);
  return store.store_id;
}
