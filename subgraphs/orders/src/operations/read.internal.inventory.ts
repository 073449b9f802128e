import { t, pageOf } from '@backoffice/platform';
import { stockLevelView } from '../domain/admin-views';
import { levelOf } from '../domain/stock';
import { defineOrdersOperation } from '../ports';

export const readInternalInventory = defineOrdersOperation({
  name: 'read.internal.inventory',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'Stock levels of the tenant by SKU and warehouse: on hand, reserved (active holds) and available (extension).',
  restPath: '/internal/inventory',
  input: t.object({
    sku_id: t.optional(t.id()),
    warehouse_id: t.optional(t.id()),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(stockLevelView),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<{ sku_id: string; warehouse_id: string; on_hand: string; reserved: string }>(
      {
        select: 'sku_id, warehouse_id, on_hand, reserved',
        from: 'orders.stock_level',
        where: `tenant_id = $1 AND ($2::text IS NULL OR sku_id = $2) AND ($3::text IS NULL OR warehouse_id = $3)`,
        orderBy: 'sku_id, warehouse_id',
        params: [actor.tenant_id, input.sku_id ?? null, input.warehouse_id ?? null],
      },
      input,
    );
    return { ...page, items: page.items.map(levelOf) };
  },
});
