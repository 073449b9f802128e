import { t } from '@backoffice/platform';
import { METHOD_COLUMNS, methodOut, methodView, type MethodRow } from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

export const readShippingMethods = defineOrdersOperation({
  name: 'read.internal.shipping.methods',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'The tenant’s shipping methods, oldest first, with their limits, transit days and the zones they serve; `active` filters (extension).',
  restPath: '/internal/shipping/methods',
  input: t.object({
    active: t.optional(t.boolean()),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: t.object({ items: t.array(methodView), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const params = [actor.tenant_id, input.active ?? null];
    const where = `m.tenant_id = $1 AND ($2::boolean IS NULL OR m.active = $2)`;
    const [rows, [{ total }]] = (await Promise.all([
      db.query(`SELECT ${METHOD_COLUMNS} FROM orders.shipping_method m WHERE ${where} ORDER BY m.created_at, m.id LIMIT ${limit} OFFSET ${(page - 1) * limit}`, params),
      db.query(`SELECT count(*)::int AS total FROM orders.shipping_method m WHERE ${where}`, params),
    ])) as [MethodRow[], Array<{ total: number }>];
    return { items: rows.map(methodOut), page, limit, total };
  },
});
