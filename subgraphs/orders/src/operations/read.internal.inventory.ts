import { t } from '@backoffice/platform';
import { levelOf } from '../domain/stock';
import { defineOrdersOperation } from '../ports';

const level = t.object({ sku_id: t.string(), warehouse_id: t.string(), on_hand: t.integer(), reserved: t.integer(), available: t.integer() });

export const readInventory = defineOrdersOperation({
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
  result: t.object({ items: t.array(level), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const params = [actor.tenant_id, input.sku_id ?? null, input.warehouse_id ?? null];
    const where = `tenant_id = $1 AND ($2::text IS NULL OR sku_id = $2) AND ($3::text IS NULL OR warehouse_id = $3)`;
    const [rows, [{ total }]] = (await Promise.all([
      db.query(`SELECT sku_id, warehouse_id, on_hand, reserved FROM orders.stock_level WHERE ${where} ORDER BY sku_id, warehouse_id LIMIT ${limit} OFFSET ${(page - 1) * limit}`, params),
      db.query(`SELECT count(*)::int AS total FROM orders.stock_level WHERE ${where}`, params),
    ])) as [Array<{ sku_id: string; warehouse_id: string; on_hand: string; reserved: string }>, Array<{ total: number }>];
    return { items: rows.map(levelOf), page, limit, total };
  },
});
