import { t } from '@backoffice/platform';
import { storeView, storeViewOf } from '../domain/stores';
import type { Store } from '../entities';
import { defineIdentityOperation } from '../ports';

/** The tenant's stores, for any valid key of the tenant; `notification_reply_to` masked without pii.read. */
export const storesRead = defineIdentityOperation({
  name: 'read.internal.stores',
  kind: 'read',
  access: 'internal',
  scope: null,
  summary: "The tenant's stores, oldest first, for any valid key of the tenant; notification_reply_to is personal: masked (***@domain) without pii.read (extension).",
  restPath: '/internal/stores',
  input: t.object({
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: t.object({ items: t.array(storeView), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const [rows, [{ total }]] = (await Promise.all([
      db.query(`SELECT * FROM identity.store WHERE tenant_id = $1 ORDER BY created_at, id LIMIT ${limit} OFFSET ${(page - 1) * limit}`, [actor.tenant_id]),
      db.query(`SELECT count(*)::int AS total FROM identity.store WHERE tenant_id = $1`, [actor.tenant_id]),
    ])) as [Store[], Array<{ total: number }>];
    return { items: rows.map((row) => storeViewOf(row, actor)), page, limit, total };
  },
});
