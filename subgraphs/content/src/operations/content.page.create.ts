import { storeOfTenant } from '@backoffice/contracts';
import { conflict, newId, t, sqlOf } from '@backoffice/platform';
import { pageFields } from '../domain/pages';
import { pageCreated } from '../events';
import { defineContentOperation } from '../ports';

/** Registers an institutional page: its metadata; the content lives in the theme template `template_key`. */
export const contentPageCreate = defineContentOperation({
  name: 'content.page.create',
  kind: 'command',
  access: 'internal',
  scope: 'content.write',
  summary:
    'Registers an institutional page of a store of the tenant: slug (unique in the store), title, template_key (the ' +
    'theme template holding its content), published (default false), meta_title and meta_description.',
  input: t.object({
    store_id: t.id("the store's id or handle"),
    slug: pageFields.slug,
    title: pageFields.title,
    template_key: pageFields.template_key,
    published: t.optional(pageFields.published),
    meta_title: t.optional(pageFields.meta_title),
    meta_description: t.optional(pageFields.meta_description),
  }),
  result: t.object({ page_id: t.string() }),
  events: [pageCreated],
  async handler({ input, actor, db, emit, ports }) {
    // The id from here on, whether the caller named the store by id or handle: rows and events carry the id.
    const storeId = await storeOfTenant(ports.stores, actor.tenant_id, input.store_id);
    const pageId = newId('pag');
    const published = input.published ?? false;
    // The unique index (store, slug) decides between racing creates: the loser inserts nothing.
    const [row] = await sqlOf(db).rows<{ id: string }>(
      `INSERT INTO content.page (id, tenant_id, store_id, slug, title, template_key, published, meta_title, meta_description,
                                 created_by_id, created_by_name, updated_by_id, updated_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $11) ON CONFLICT (store_id, slug) DO NOTHING RETURNING id`,
      [
        pageId,
        actor.tenant_id,
        storeId,
        input.slug,
        input.title,
        input.template_key,
        published,
        input.meta_title ?? null,
        input.meta_description ?? null,
        actor.api_key_id,
        actor.name,
      ],
    );
    if (!row) throw conflict(`store ${storeId} has a page with slug ${input.slug} already`, { reason: 'duplicate', field: 'slug' });
    emit(pageCreated, { page_id: pageId, store_id: storeId, slug: input.slug, title: input.title, template_key: input.template_key, published });
    return { page_id: pageId };
  },
});
