import { connectionArgs, connectionOf, escapeLike, t, conditions, sqlText } from '@backoffice/platform';
import { CATEGORY_COLUMNS, type CategoryNode, category } from '../domain/groupings';
import { defineCatalogOperation } from '../ports';

/** The admin's category tree, flat, as a Relay connection (GraphQL only): by path unless ordered otherwise. */
export const adminCategories = defineCatalogOperation({
  name: 'admin.categories',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary:
    'The tenant’s categories as a Relay connection, by path (a parent before its subtree) unless ordered otherwise; ' +
    'filters by parent (its children), roots only, and `q` (name or path).',
  connection: { field: 'categories' },
  input: connectionArgs(
    'Category',
    ['path', 'name', 'created_at'] as const,
    t.object({
      parent_id: t.optional(t.id('the children of this category')),
      root: t.optional(t.boolean({ description: 'true: only top-level categories' })),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches name and path' })),
    }),
  ),
  result: connectionOf(category, 'Category'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions();
    const tenant = where.param(actor.tenant_id);
    where.add`c.tenant_id = ${tenant}`;
    const { parent_id, root, q } = input.filter ?? {};
    if (parent_id) {
      // Another tenant's parent is no parent: its path is not found, so nothing matches.
      const parent = sqlText(`(SELECT path FROM catalog.category WHERE id = ${where.param(parent_id)} AND tenant_id = ${tenant})`);
      where.add`c.path <@ ${parent} AND nlevel(c.path) = nlevel(${parent}) + 1`;
    }
    if (root) where.add`nlevel(c.path) = 1`;
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(c.name ILIKE ${like} OR c.path::text ILIKE ${like})`;
    }
    return sql.connection<CategoryNode>(
      {
        select: CATEGORY_COLUMNS,
        from: 'catalog.category c',
        where: where.sql,
        params: where.params,
        sorts: {
          path: { sql: 'c.path::text', type: 'text' },
          name: { sql: 'c.name', type: 'text' },
          created_at: { sql: 'c.created_at', type: 'timestamptz' },
        },
        defaultOrder: { field: 'path', direction: 'ASC' },
        id: 'c.id',
      },
      input,
    );
  },
});
