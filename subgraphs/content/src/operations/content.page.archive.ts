import { t, sqlOf } from '@backoffice/platform';
import { lockPage, PAGE_MACHINE, pageOut, pageView, stateOf, type PageRow } from '../domain/pages';
import { pageArchived } from '../events';
import { defineContentOperation } from '../ports';

export const contentPageArchive = defineContentOperation({
  name: 'content.page.archive',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'content.write',
  summary:
    'Archives an institutional page: the storefront no longer serves it, listings show it only when asked, it ' +
    'cannot be changed until unarchived; it keeps its slug and published flag. Archiving an archived page succeeds ' +
    'and changes nothing (extension).',
  input: t.object({ page_id: t.id() }),
  result: pageView,
  events: [pageArchived],
  async handler({ input, actor, db, emit }) {
    const page = await lockPage(db, actor, input.page_id);
    if (PAGE_MACHINE.assertMove(page.id, stateOf(page), 'archived') === 'same') return pageOut(page);
    const [after] = await sqlOf(db).returning<PageRow>(
      `UPDATE content.page SET archived_at = clock_timestamp(), updated_by_id = $2, updated_by_name = $3, updated_at = clock_timestamp() WHERE id = $1 RETURNING *`,
      [page.id, actor.api_key_id, actor.name],
    );
    emit(pageArchived, { page_id: after.id, store_id: after.store_id, slug: after.slug });
    return pageOut(after);
  },
});
