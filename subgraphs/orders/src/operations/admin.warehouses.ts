import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { WAREHOUSE_COLUMNS, warehouseOf, warehouseView } from '../domain/admin-views';
import type { Warehouse } from '../entities';
import { defineOrdersOperation } from '../ports';

/** The admin's warehouse list as a Relay connection (GraphQL only). */
export const adminWarehouses = defineOrdersOperation({
  name: 'admin.warehouses',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'The tenant’s warehouses as a Relay connection, oldest first unless ordered otherwise; `q` searches code and name.',
  connection: { field: 'warehouses' },
  input: connectionArgs(
    'Warehouse',
    ['created_at', 'code'] as const,
    t.object({ q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches code and name' })) }),
  ),
  result: connectionOf(warehouseView, 'Warehouse'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`w.tenant_id = ${actor.tenant_id}`;
    const q = input.filter?.q;
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(w.code ILIKE ${like} OR w.name ILIKE ${like})`;
    }
    const page = await sql.connection<Pick<Warehouse, 'code' | 'name' | 'created_at'> & { warehouse_id: string }>(
      {
        select: WAREHOUSE_COLUMNS,
        from: 'orders.warehouse w',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'w.created_at', type: 'timestamptz' }, code: { sql: 'w.code', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'w.id',
      },
      input,
    );
    return mapNodes(page, warehouseOf);
  },
});
