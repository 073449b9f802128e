import { connectionArgs, connectionOf, escapeLike, t, conditions } from '@backoffice/platform';
import { COLLECTION_COLUMNS, type CollectionNode, collection } from '../domain/groupings';
import { defineCatalogOperation } from '../ports';

/** The admin's collections as a Relay connection (GraphQL only). */
export const adminCollections = defineCatalogOperation({
  name: 'admin.collections',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary: 'The tenant’s collections as a Relay connection, newest first unless ordered otherwise; filters by `q` (title or handle).',
  connection: { field: 'collections' },
  input: connectionArgs(
    'Collection',
    ['created_at', 'title', 'handle'] as const,
    t.object({ q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches title and handle' })) }),
  ),
  result: connectionOf(collection, 'Collection'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`col.tenant_id = ${actor.tenant_id}`;
    if (input.filter?.q) {
      const like = where.param(`%${escapeLike(input.filter.q)}%`);
      where.add`(col.title ILIKE ${like} OR col.handle ILIKE ${like})`;
    }
    return sql.connection<CollectionNode>(
      {
        select: COLLECTION_COLUMNS,
        from: 'catalog.collection col',
        where: where.sql,
        params: where.params,
        sorts: {
          created_at: { sql: 'col.created_at', type: 'timestamptz' },
          title: { sql: 'col.title', type: 'text' },
          handle: { sql: 'col.handle', type: 'text' },
        },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'col.id',
      },
      input,
    );
  },
});
