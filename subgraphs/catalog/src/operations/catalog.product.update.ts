import { assignments, conflict, sqlText, t } from '@backoffice/platform';
import { categoriesInput, INSERT_CATEGORIES, placeCategories } from '../domain/product-categories';
import { assertOwned, customFields, handle, lockProduct, productStatus } from '../domain/products';
import { productUpdated, type ProductChange } from '../events';
import { defineCatalogOperation } from '../ports';

/** Every move between statuses is allowed but archived → draft: an archived product comes back as active. */
const REFUSED_MOVES = new Set(['archived>draft']);

export const catalogProductUpdate = defineCatalogOperation({
  name: 'catalog.product.update',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Changes a product; omitted fields keep their value (extension).',
  input: t.object({
    product_id: t.id(),
    title: t.optional(t.string({ minLength: 1, maxLength: 500 })),
    handle: t.optional(handle()),
    description: t.optional(t.nullable(t.string({ maxLength: 100_000 }))),
    status: t.optional(productStatus()),
    metadata: t.optional(t.json()),
    brand_id: t.optional(t.nullable(t.id())),
    categories: t.optional(categoriesInput()),
    custom_fields: t.optional(customFields()),
  }),
  result: t.object({ product_id: t.string(), status: productStatus() }),
  events: [productUpdated],
  async handler({ input, actor, db, sql, stage, emit }) {
    const categories = input.categories && placeCategories(input.categories);
    const product = await lockProduct(db, actor, input.product_id);
    if (input.status && REFUSED_MOVES.has(`${product.status}>${input.status}`)) {
      throw conflict(`a product cannot move from ${product.status} to ${input.status}`, { reason: 'illegal_transition', field: 'status' });
    }
    if (input.brand_id) await assertOwned(db, actor, 'brand', [input.brand_id]);
    if (categories)
      await assertOwned(
        db,
        actor,
        'category',
        categories.map((c) => c.category_id),
      );
    const sets = assignments();
    const set = (column: string, value: unknown) => sets.add`${sqlText(column)} = ${value}`;
    if (input.title !== undefined) set('title', input.title);
    if (input.handle !== undefined) set('handle', input.handle);
    if (input.description !== undefined) set('description', input.description);
    if (input.status !== undefined) set('status', input.status);
    if (input.metadata !== undefined) set('metadata', JSON.stringify(input.metadata));
    if (input.brand_id !== undefined) set('brand_id', input.brand_id);
    if (input.custom_fields !== undefined) set('custom_fields', JSON.stringify(input.custom_fields));
    if (input.handle !== undefined) {
      const taken = await sql.one(`SELECT 1 FROM catalog.product WHERE tenant_id = $1 AND handle = $2 AND id <> $3`, [
        actor.tenant_id,
        input.handle,
        product.id,
      ]);
      if (taken) throw conflict(`a product with handle ${input.handle} exists already`, { reason: 'duplicate', field: 'handle' });
    }
    if (sets.sql) await sql.run(`UPDATE catalog.product SET ${sets.sql}, updated_at = now() WHERE id = ${sets.param(product.id)}`, sets.params);
    if (categories) {
      await sql.run(`DELETE FROM catalog.product_category WHERE product_id = $1`, [product.id]);
      stage(INSERT_CATEGORIES, [product.id, actor.tenant_id, categories.map((c) => c.category_id), categories.map((c) => c.is_primary)]);
    }
    const status = input.status ?? product.status;
    const changed = Object.keys(input).filter((k): k is ProductChange => k !== 'product_id');
    emit(productUpdated, { product_id: product.id, changed, status });
    return { product_id: product.id, status };
  },
});
