import { lockProduct } from '../domain/products';
import { ownStore, publicationInput, publicationResult } from '../domain/publication';
import { productPublished } from '../events';
import { defineCatalogOperation } from '../ports';

export const productPublish = defineCatalogOperation({
  name: 'catalog.product.publish',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Lists a product in a store, so the public products read serves it there. Publishing twice changes nothing (extension).',
  input: publicationInput,
  result: publicationResult,
  events: [productPublished],
  async handler({ input, actor, db, emit, ports }) {
    const storeId = await ownStore(ports.stores, actor!, input.store_id);
    const product = await lockProduct(db, actor!, input.product_id);
    const inserted = await db.query(
      `INSERT INTO catalog.publication (store_id, product_id, tenant_id, status, title, price_min, price_max, product_created_at)
       SELECT $1, id, tenant_id, status, title, price_min, price_max, created_at FROM catalog.product WHERE id = $2
       ON CONFLICT (store_id, product_id) DO NOTHING RETURNING status`,
      [storeId, product.id],
    );
    if (inserted.length) {
      await db.query(
        `INSERT INTO catalog.store_listing_count (store_id, status, tenant_id, published) VALUES ($1, $2, $3, 1)
         ON CONFLICT (store_id, status) DO UPDATE SET published = catalog.store_listing_count.published + 1`,
        [storeId, inserted[0].status, actor!.tenant_id],
      );
      emit(productPublished, { product_id: product.id, store_id: storeId });
    }
    return { product_id: product.id, store_id: storeId, published: true };
  },
});
