import { assertRoom, conflict, newId, t, sqlOf } from '@backoffice/platform';
import { ORDER_LIMITS } from '../domain/order-limits';
import { WAREHOUSE_CODE, warehouseOf } from '../domain/stock';
import { warehouseCreated } from '../events';
import { defineOrdersOperation } from '../ports';

export const inventoryWarehouseCreate = defineOrdersOperation({
  name: 'inventory.warehouse.create',
  kind: 'command',
  access: 'internal',
  scope: 'inventory.write',
  summary: 'Creates a warehouse; every tenant also has one with code `default` from the start (extension).',
  input: t.object({
    code: t.string({ minLength: 1, maxLength: 64, pattern: WAREHOUSE_CODE, description: 'lowercase words joined by hyphens, unique in the tenant' }),
    name: t.string({ minLength: 1, maxLength: 200 }),
  }),
  result: t.object({ warehouse_id: t.string() }),
  events: [warehouseCreated],
  async handler({ input, actor, db, emit }) {
    // `default` is taken from the start, even ahead of the tenant's setup.
    await warehouseOf(db, actor.tenant_id, undefined);
    await assertRoom(db, ORDER_LIMITS.warehouses, {
      sql: 'SELECT count(*)::int AS n FROM orders.warehouse WHERE tenant_id = $1',
      params: [actor.tenant_id],
      lock: `orders.warehouse:${actor.tenant_id}`,
    });
    const id = newId('whs');
    const made = await sqlOf(db).rows<unknown>(
      `INSERT INTO orders.warehouse (id, tenant_id, code, name) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id, code) DO NOTHING RETURNING id`,
      [id, actor.tenant_id, input.code, input.name],
    );
    if (!made.length) throw conflict(`a warehouse with code ${input.code} exists in this tenant`, { reason: 'duplicate', field: 'code' });
    emit(warehouseCreated, { warehouse_id: id, code: input.code, name: input.name });
    return { warehouse_id: id };
  },
});
