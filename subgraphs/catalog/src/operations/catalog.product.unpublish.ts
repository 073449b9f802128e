import { storeOfTenant } from '@backoffice/contracts';
import { lockProduct } from '../domain/products';
import { publicationInput, publicationResult, unpublish } from '../domain/publication';
import { productUnpublished } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogProductUnpublish = defineCatalogOperation({
  name: 'catalog.product.unpublish',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Takes a product out of a store. Unpublishing an unlisted product changes nothing (extension).',
  input: publicationInput,
  result: publicationResult,
  events: [productUnpublished],
  async handler({ input, actor, db, emit, ports }) {
    const storeId = await storeOfTenant(ports.stores, actor.tenant_id, input.store_id);
    const product = await lockProduct(db, actor, input.product_id);
    if (await unpublish(db, actor.tenant_id, [storeId], [product.id])) emit(productUnpublished, { product_id: product.id, store_id: storeId });
    return { product_id: product.id, store_id: storeId, published: false };
  },
});
