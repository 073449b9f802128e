import { conflict, defineOperation, t, type Actor, type OperationCall } from '@backoffice/platform';
import { storeDirectory } from '../stores';
import { lockProduct } from './shared';

const input = t.object({ product_id: t.id(), store_id: t.id('the store id or its handle') });
const result = t.object({ product_id: t.string(), store_id: t.string(), published: t.boolean() });

/** The store, which must be the caller's own; identity answers, the catalog keeps no copy. */
async function ownStore(call: OperationCall<unknown>, actor: Actor, ref: string): Promise<string> {
  const store = await storeDirectory(call).resolve(ref);
  if (!store || store.tenant_id !== actor.tenant_id) throw conflict(`store ${ref} does not exist in this tenant`);
  return store.store_id;
}

export const productPublish = defineOperation({
  name: 'catalog.product.publish',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Lists a product in a store, so the public products read serves it there. Publishing twice changes nothing (extension).',
  input,
  result,
  events: ['catalog.product.published'],
  async handler(call) {
    const { input, actor, db, emit } = call;
    const storeId = await ownStore(call, actor!, input.store_id);
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
      emit('catalog.product.published', { product_id: product.id, store_id: storeId });
    }
    return { product_id: product.id, store_id: storeId, published: true };
  },
});

export const productUnpublish = defineOperation({
  name: 'catalog.product.unpublish',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Takes a product out of a store. Unpublishing an unlisted product changes nothing (extension).',
  input,
  result,
  events: ['catalog.product.unpublished'],
  async handler(call) {
    const { input, actor, db, emit } = call;
    const storeId = await ownStore(call, actor!, input.store_id);
    const product = await lockProduct(db, actor!, input.product_id);
    // TypeORM answers a DELETE … RETURNING with [rows, affected].
    const [rows] = (await db.query(`DELETE FROM catalog.publication WHERE store_id = $1 AND product_id = $2 RETURNING status`, [storeId, product.id])) as [
      { status: string }[],
      number,
    ];
    const removed = rows[0];
    if (removed) {
      await db.query(`UPDATE catalog.store_listing_count SET published = published - 1 WHERE store_id = $1 AND status = $2`, [storeId, removed.status]);
      emit('catalog.product.unpublished', { product_id: product.id, store_id: storeId });
    }
    return { product_id: product.id, store_id: storeId, published: false };
  },
});
