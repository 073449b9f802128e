import { notFound, t, sqlOf } from '@backoffice/platform';
import { servedPageOut, servedPageView, type PageRow } from '../domain/pages';
import { defineContentOperation } from '../ports';

/** `GET /v1/read/pages?store=&slug=`: what a storefront serves at a page's address. */
export const readPages = defineContentOperation({
  name: 'read.pages',
  kind: 'read',
  access: 'public',
  scope: null,
  summary:
    'A published, unarchived institutional page of a store by its slug, for a storefront: its metadata and the ' +
    'theme template holding its content; 404 not_found for a draft, an archived page, or an unknown store or slug ' +
    '(extension).',
  restPath: '/pages',
  input: t.object({
    store: t.id('the store’s id, handle or host'),
    slug: t.string({ minLength: 1, maxLength: 200 }),
  }),
  result: servedPageView,
  events: [],
  async handler({ input, db, ports }) {
    const store = await ports.stores.resolve(input.store);
    if (!store) throw notFound(`store ${input.store} does not exist`, { field: 'store' });
    const [row] = await sqlOf(db).rows<PageRow>(
      `SELECT * FROM content.page WHERE tenant_id = $1 AND store_id = $2 AND slug = $3 AND published AND archived_at IS NULL`,
      [store.tenant_id, store.store_id, input.slug],
    );
    // A draft, an archived page and no page at all look alike: the storefront learns nothing of drafts.
    if (!row) throw notFound(`store ${input.store} has no published page ${input.slug}`, { field: 'slug' });
    return servedPageOut(row);
  },
});
