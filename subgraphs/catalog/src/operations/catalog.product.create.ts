import { conflict, newId, t } from '@backoffice/platform';
import { categoriesInput, INSERT_CATEGORIES, placeCategories } from '../domain/product-categories';
import { assertOwned, customFields, handle, productStatus } from '../domain/products';
import { productCreated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogProductCreate = defineCatalogOperation({
  name: 'catalog.product.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Creates a product (extension: the reference shows no way to create one).',
  input: t.object({
    title: t.string({ minLength: 1, maxLength: 500 }),
    handle: handle(),
    description: t.optional(t.nullable(t.string({ maxLength: 100_000 }))),
    status: t.optional(productStatus({ default: 'draft' })),
    metadata: t.optional(t.json()),
    brand_id: t.optional(t.nullable(t.id())),
    categories: t.optional(categoriesInput()),
    custom_fields: t.optional(customFields()),
  }),
  result: t.object({ product_id: t.string() }),
  events: [productCreated],
  async handler({ input, actor, db, sql, stage, emit }) {
    const categories = placeCategories(input.categories ?? []);
    await assertOwned(db, actor, 'brand', input.brand_id ? [input.brand_id] : []);
    await assertOwned(
      db,
      actor,
      'category',
      categories.map((c) => c.category_id),
    );
    const productId = newId('prd');
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.product (id, tenant_id, title, handle, description, status, metadata, brand_id, custom_fields)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (tenant_id, handle) DO NOTHING RETURNING id`,
      [
        productId,
        actor.tenant_id,
        input.title,
        input.handle,
        input.description ?? null,
        input.status ?? 'draft',
        JSON.stringify(input.metadata ?? {}),
        input.brand_id ?? null,
        JSON.stringify(input.custom_fields ?? {}),
      ],
    );
    if (!row) throw conflict(`a product with handle ${input.handle} exists already`, { reason: 'duplicate', field: 'handle' });
    if (categories.length) {
      stage(INSERT_CATEGORIES, [productId, actor.tenant_id, categories.map((c) => c.category_id), categories.map((c) => c.is_primary)]);
    }
    emit(productCreated, { product_id: productId, handle: input.handle, status: input.status ?? 'draft' });
    return { product_id: productId };
  },
});
