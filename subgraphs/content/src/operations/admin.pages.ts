import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions, sqlText } from '@backoffice/platform';
import { pageOut, pageView, type PageRow } from '../domain/pages';
import { defineContentOperation } from '../ports';

const STATUSES = {
  published: 'p.published AND p.archived_at IS NULL',
  draft: 'NOT p.published AND p.archived_at IS NULL',
  archived: 'p.archived_at IS NOT NULL',
};

/** The admin's page list as a Relay connection (GraphQL only): `read.internal.pages` stays the paged read of REST. */
export const adminPages = defineContentOperation({
  name: 'admin.pages',
  kind: 'read',
  access: 'internal',
  scope: 'content.read',
  summary:
    "The tenant's institutional pages as a Relay connection, by title unless ordered otherwise; filters status (published, draft, archived; " +
    'absent: published and drafts), store_id and `q` (title or slug).',
  connection: { field: 'pages' },
  input: connectionArgs(
    'Page',
    ['title', 'created_at', 'updated_at'] as const,
    t.object({
      status: t.optional(t.enum(['published', 'draft', 'archived'] as const, { description: 'absent: published and drafts (archived left out)' })),
      store_id: t.optional(t.id('pages of this store of the tenant (another tenant’s store has none)')),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'part of the title or the slug, case-insensitive' })),
    }),
  ),
  result: connectionOf(pageView, 'Page'),
  events: [],
  async handler({ input, actor, sql }) {
    const { status, store_id, q } = input.filter ?? {};
    const where = conditions().add`p.tenant_id = ${actor.tenant_id}`;
    if (status) where.add`${sqlText(STATUSES[status])}`;
    else where.add`p.archived_at IS NULL`;
    if (store_id) where.add`p.store_id = ${store_id}`;
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(p.title ILIKE ${like} OR p.slug ILIKE ${like})`;
    }
    const page = await sql.connection<PageRow>(
      {
        select: 'p.*',
        from: 'content.page p',
        where: where.sql,
        params: where.params,
        sorts: {
          title: { sql: 'p.title', type: 'text' },
          created_at: { sql: 'p.created_at', type: 'timestamptz' },
          updated_at: { sql: 'p.updated_at', type: 'timestamptz' },
        },
        defaultOrder: { field: 'title', direction: 'ASC' },
        id: 'p.id',
      },
      input,
    );
    return mapNodes(page, pageOut);
  },
});
