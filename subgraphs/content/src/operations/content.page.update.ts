import { assignments, sqlText, t } from '@backoffice/platform';
import { allowPage, assertSlugFree, EDITABLE, lockPage, pageFields, pageOut, pageView, stateOf, type Editable, type PageRow } from '../domain/pages';
import { pageUpdated } from '../events';
import { defineContentOperation } from '../ports';

export const contentPageUpdate = defineContentOperation({
  name: 'content.page.update',
  kind: 'command',
  access: 'internal',
  scope: 'content.write',
  summary:
    'Changes an institutional page: any of slug (unique in its store), title, template_key, published, meta_title, ' +
    'meta_description; omitted fields keep their value, null clears a meta field. An archived page is unarchived ' +
    'first (conflict). Emits only when a value changed (extension).',
  input: t.object({
    page_id: t.id(),
    slug: t.optional(pageFields.slug),
    title: t.optional(pageFields.title),
    template_key: t.optional(pageFields.template_key),
    published: t.optional(pageFields.published),
    meta_title: t.optional(pageFields.meta_title),
    meta_description: t.optional(pageFields.meta_description),
  }),
  result: pageView,
  events: [pageUpdated],
  async handler({ input, actor, db, sql, emit }) {
    const page = await lockPage(db, actor, input.page_id);
    allowPage(page.id, stateOf(page), 'update');
    const changed: Editable[] = [];
    const sets = assignments();
    for (const field of EDITABLE) {
      const value = input[field];
      if (value === undefined || value === page[field]) continue;
      changed.push(field);
      sets.add`${sqlText(field)} = ${value}`;
    }
    if (!changed.length) return pageOut(page);
    // Checked for a clear message; the unique index (store, slug) still decides a race (conflict).
    if (changed.includes('slug') && input.slug !== undefined) await assertSlugFree(db, page.store_id, input.slug, page.id);
    sets.add`updated_by_id = ${actor.api_key_id}`.add`updated_by_name = ${actor.name}`.add`updated_at = clock_timestamp()`;
    const [after] = await sql.returning<PageRow>(`UPDATE content.page SET ${sets.sql} WHERE id = ${sets.param(page.id)} RETURNING *`, sets.params);
    emit(pageUpdated, { page_id: after.id, store_id: after.store_id, slug: after.slug, published: after.published, changed });
    return pageOut(after);
  },
});
