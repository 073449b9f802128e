import { t, pageOf } from '@backoffice/platform';
import { storeView, storeViewOf } from '../domain/stores';
import type { Store } from '../entities';
import { defineIdentityOperation } from '../ports';

/** The tenant's stores, for any valid key of the tenant; `notification_reply_to` masked without pii.read. */
export const readInternalStores = defineIdentityOperation({
  name: 'read.internal.stores',
  kind: 'read',
  access: 'internal',
  scope: null,
  summary:
    "The tenant's stores, oldest first, for any valid key of the tenant; notification_reply_to is personal: masked (***@domain) without pii.read (extension).",
  restPath: '/internal/stores',
  input: t.object({
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(storeView),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<Store>(
      { select: '*', from: 'identity.store', where: 'tenant_id = $1', orderBy: 'created_at, id', params: [actor.tenant_id] },
      input,
    );
    return { ...page, items: page.items.map((row) => storeViewOf(row, actor)) };
  },
});
