import { storeOfTenant } from '@backoffice/contracts';
import { lockProduct } from '../domain/products';
import { publicationInput, publicationResult, publish } from '../domain/publication';
import { productPublished } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogProductPublish = defineCatalogOperation({
  name: 'catalog.product.publish',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Lists a product in a store, so the public products read serves it there. Publishing twice changes nothing (extension).',
  input: publicationInput,
  result: publicationResult,
  events: [productPublished],
  async handler({ input, actor, db, emit, ports }) {
    const storeId = await storeOfTenant(ports.stores, actor.tenant_id, input.store_id);
    const product = await lockProduct(db, actor, input.product_id);
    if (await publish(db, actor.tenant_id, [storeId], [product.id])) emit(productPublished, { product_id: product.id, store_id: storeId });
    return { product_id: product.id, store_id: storeId, published: true };
  },
});
