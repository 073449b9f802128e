import { t, pageOf } from '@backoffice/platform';
import { METHOD_COLUMNS, methodOut, methodView, type MethodRow } from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

export const readInternalShippingMethods = defineOrdersOperation({
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
  result: pageOf(methodView),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<MethodRow>(
      {
        select: METHOD_COLUMNS,
        from: 'orders.shipping_method m',
        where: `m.tenant_id = $1 AND ($2::boolean IS NULL OR m.active = $2)`,
        orderBy: 'm.created_at, m.id',
        params: [actor.tenant_id, input.active ?? null],
      },
      input,
    );
    return { ...page, items: page.items.map(methodOut) };
  },
});
