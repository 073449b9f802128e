import { conflict, newId, t } from '@backoffice/platform';
import { CATEGORY_PATH_PATTERN } from '../domain/products';
import { categoryCreated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogCategoryCreate = defineCatalogOperation({
  name: 'catalog.category.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Creates a category at an ltree path (e.g. apparel.shoes.running); its parent must exist (extension).',
  input: t.object({
    path: t.string({ minLength: 1, maxLength: 1000, pattern: CATEGORY_PATH_PATTERN }),
    name: t.string({ minLength: 1, maxLength: 200 }),
  }),
  result: t.object({ category_id: t.string() }),
  events: [categoryCreated],
  async handler({ input, actor, sql, emit }) {
    const labels = input.path.split('.');
    if (labels.length > 1) {
      const parent = labels.slice(0, -1).join('.');
      const found = await sql.one(`SELECT 1 FROM catalog.category WHERE tenant_id = $1 AND path = $2::ltree`, [actor.tenant_id, parent]);
      if (!found) throw conflict(`parent category ${parent} does not exist in this tenant`, { reason: 'not_found', field: 'path' });
    }
    const categoryId = newId('cat');
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.category (id, tenant_id, path, name) VALUES ($1, $2, $3::ltree, $4) ON CONFLICT (tenant_id, path) DO NOTHING RETURNING id`,
      [categoryId, actor.tenant_id, input.path, input.name],
    );
    if (!row) throw conflict(`category ${input.path} exists already`, { reason: 'duplicate', field: 'path' });
    emit(categoryCreated, { category_id: categoryId, path: input.path, name: input.name });
    return { category_id: categoryId };
  },
});
