import { connectionArgs, connectionOf, escapeLike, t, conditions } from '@backoffice/platform';
import { BRAND_COLUMNS, type BrandNode, brand } from '../domain/groupings';
import { defineCatalogOperation } from '../ports';

/** The admin's brands as a Relay connection (GraphQL only). */
export const adminBrands = defineCatalogOperation({
  name: 'admin.brands',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary: 'The tenant’s brands as a Relay connection, by name unless ordered otherwise; filters by `q` (name).',
  connection: { field: 'brands' },
  input: connectionArgs(
    'Brand',
    ['name', 'created_at'] as const,
    t.object({ q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches the name' })) }),
  ),
  result: connectionOf(brand, 'Brand'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`b.tenant_id = ${actor.tenant_id}`;
    if (input.filter?.q) where.add`b.name ILIKE ${`%${escapeLike(input.filter.q)}%`}`;
    return sql.connection<BrandNode>(
      {
        select: BRAND_COLUMNS,
        from: 'catalog.brand b',
        where: where.sql,
        params: where.params,
        sorts: { name: { sql: 'b.name', type: 'text' }, created_at: { sql: 'b.created_at', type: 'timestamptz' } },
        defaultOrder: { field: 'name', direction: 'ASC' },
        id: 'b.id',
      },
      input,
    );
  },
});
