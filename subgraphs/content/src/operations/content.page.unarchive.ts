import { t, sqlOf } from '@backoffice/platform';
import { lockPage, PAGE_MACHINE, pageOut, pageView, stateOf, type PageRow } from '../domain/pages';
import { pageUnarchived } from '../events';
import { defineContentOperation } from '../ports';

export const contentPageUnarchive = defineContentOperation({
  name: 'content.page.unarchive',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'content.write',
  summary:
    'Brings an archived institutional page back as it was (a published one is served again). Unarchiving a page that is not archived succeeds and changes nothing (extension).',
  input: t.object({ page_id: t.id() }),
  result: pageView,
  events: [pageUnarchived],
  async handler({ input, actor, db, emit }) {
    const page = await lockPage(db, actor, input.page_id);
    if (PAGE_MACHINE.assertMove(page.id, stateOf(page), 'active') === 'same') return pageOut(page);
    const [after] = await sqlOf(db).returning<PageRow>(
      `UPDATE content.page SET archived_at = NULL, updated_by_id = $2, updated_by_name = $3, updated_at = clock_timestamp() WHERE id = $1 RETURNING *`,
      [page.id, actor.api_key_id, actor.name],
    );
    emit(pageUnarchived, { page_id: after.id, store_id: after.store_id, slug: after.slug, published: after.published });
    return pageOut(after);
  },
});
