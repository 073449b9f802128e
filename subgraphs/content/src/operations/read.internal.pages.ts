import { escapeLike, maskPersonal, t, pageOf, conditions } from '@backoffice/platform';
import { ARCHIVED, archivedMode, flag, flagValue, pageListItem, pageListOut, type PageRow } from '../domain/pages';
import { defineContentOperation } from '../ports';

const SORTS = { title_asc: 'lower(title) ASC, title ASC, id ASC', title_desc: 'lower(title) DESC, title DESC, id DESC' } as const;
const pageOfPages = pageOf(pageListItem);

export const readInternalPages = defineContentOperation({
  name: 'read.internal.pages',
  kind: 'read',
  access: 'internal',
  scope: 'content.read',
  summary:
    'The tenant’s institutional pages, drafts and published: archived (exclude by default, include, only) or ' +
    'include_archived, published, q (in title and slug), store_id (a filter), sort (title_asc by default, ' +
    'title_desc); who created and last changed each page (a personal name, masked without pii.read).',
  restPath: '/internal/pages',
  errors: ['validation_failed', 'not_found', 'unauthorized', 'forbidden', 'internal'],
  input: t.object({
    archived: t.optional(t.enum(ARCHIVED, { description: 'default exclude' })),
    include_archived: t.optional(flag('true: archived=include, false: archived=exclude; given with archived, the two must agree')),
    published: t.optional(flag('true: published pages only, false: drafts only')),
    q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'part of the title or the slug, case-insensitive' })),
    sort: t.optional(t.enum(Object.keys(SORTS) as Array<keyof typeof SORTS>, { description: 'default title_asc' })),
    store_id: t.optional(t.id('a filter: pages of this store of the tenant (another tenant’s store has none)')),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOfPages,
  events: [],
  async handler({ input, actor, sql }) {
    const archived = archivedMode(input.archived, input.include_archived);
    const published = flagValue(input.published);
    // The tenant is the caller's, always: a store_id of another tenant matches none of its pages.
    const where = conditions().add`tenant_id = ${actor.tenant_id}`;
    if (archived === 'exclude') where.add`archived_at IS NULL`;
    if (archived === 'only') where.add`archived_at IS NOT NULL`;
    if (published !== undefined) where.add`published = ${published}`;
    if (input.store_id) where.add`store_id = ${input.store_id}`;
    if (input.q) {
      const like = where.param(`%${escapeLike(input.q)}%`);
      where.add`(title ILIKE ${like} OR slug ILIKE ${like})`;
    }
    const page = await sql.page<PageRow>(
      { select: '*', from: 'content.page', where: where.sql, orderBy: SORTS[input.sort ?? 'title_asc'], params: where.params },
      input,
    );
    const result = { ...page, items: page.items.map(pageListOut) };
    return actor.scopes.includes('pii.read') ? result : maskPersonal(pageOfPages, result);
  },
});
