import { conflict, t } from '@backoffice/platform';
import { assertOwned } from '../domain/products';
import { collectionUpdated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogCollectionAddProducts = defineCatalogOperation({
  name: 'catalog.collection.add_products',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Adds products to a collection, after those already in it; adding a member again changes nothing (extension).',
  input: t.object({ collection_id: t.id(), product_ids: t.array(t.id(), { minItems: 1, maxItems: 500, uniqueItems: true }) }),
  result: t.object({ collection_id: t.string(), added: t.integer({ minimum: 0 }) }),
  events: [collectionUpdated],
  async handler({ input, actor, db, sql, emit }) {
    await assertOwned(db, actor, 'collection', [input.collection_id]);
    const owned = await sql.rows<{ id: string }>(`SELECT id FROM catalog.product WHERE tenant_id = $1 AND id = ANY($2::text[])`, [
      actor.tenant_id,
      input.product_ids,
    ]);
    const found = new Set(owned.map((r) => r.id));
    const missing = input.product_ids.filter((id) => !found.has(id));
    if (missing.length) throw conflict(`product ${missing.join(', ')} does not exist in this tenant`, { reason: 'not_found', field: 'product_ids' });
    const added = await sql.rows<{ product_id: string }>(
      `INSERT INTO catalog.collection_product (collection_id, product_id, tenant_id, position)
       SELECT $1, p, $2, (SELECT coalesce(max(position), -1) FROM catalog.collection_product WHERE collection_id = $1) + n
       FROM unnest($3::text[]) WITH ORDINALITY AS x(p, n)
       ON CONFLICT (collection_id, product_id) DO NOTHING RETURNING product_id`,
      [input.collection_id, actor.tenant_id, input.product_ids],
    );
    if (added.length) emit(collectionUpdated, { collection_id: input.collection_id, added: added.map((r) => r.product_id) });
    return { collection_id: input.collection_id, added: added.length };
  },
});
