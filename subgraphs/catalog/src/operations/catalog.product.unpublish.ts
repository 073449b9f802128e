import { lockProduct } from '../domain/products';
import { ownStore, publicationInput, publicationResult } from '../domain/publication';
import { productUnpublished } from '../events';
import { defineCatalogOperation } from '../ports';

export const productUnpublish = defineCatalogOperation({
  name: 'catalog.product.unpublish',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Takes a product out of a store. Unpublishing an unlisted product changes nothing (extension).',
  input: publicationInput,
  result: publicationResult,
  events: [productUnpublished],
  async handler({ input, actor, db, emit, ports }) {
    const storeId = await ownStore(ports.stores, actor!, input.store_id);
    const product = await lockProduct(db, actor!, input.product_id);
    // TypeORM answers a DELETE … RETURNING with [rows, affected].
    const [rows] = (await db.query(`DELETE FROM catalog.publication WHERE store_id = $1 AND product_id = $2 RETURNING status`, [storeId, product.id])) as [
      { status: string }[],
      number,
    ];
    const removed = rows[0];
    if (removed) {
      await db.query(`UPDATE catalog.store_listing_count SET published = published - 1 WHERE store_id = $1 AND status = $2`, [storeId, removed.status]);
      emit(productUnpublished, { product_id: product.id, store_id: storeId });
    }
    return { product_id: product.id, store_id: storeId, published: false };
  },
});
