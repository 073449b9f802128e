import { present, conflict, t, validationFailed } from '@backoffice/platform';
import { levelOf, warehouseOf } from '../domain/stock';
import { inventoryAdjusted } from '../events';
import { defineOrdersOperation } from '../ports';

const QTY_MAX = 1_000_000_000;

export const inventoryAdjust = defineOrdersOperation({
  name: 'inventory.adjust',
  kind: 'command',
  access: 'internal',
  scope: 'inventory.write',
  summary:
    'Sets (`on_hand`) or changes (`delta`) the stock on hand of a SKU in a warehouse (default: the `default` one); never below what is reserved (extension).',
  input: t.object({
    sku_id: t.id(),
    warehouse_id: t.optional(t.id()),
    on_hand: t.optional(t.integer({ minimum: 0, maximum: QTY_MAX })),
    delta: t.optional(t.integer({ minimum: -QTY_MAX, maximum: QTY_MAX })),
  }),
  result: t.object({ sku_id: t.string(), warehouse_id: t.string(), on_hand: t.integer(), reserved: t.integer(), available: t.integer() }),
  events: [inventoryAdjusted],
  async handler({ input, actor, db, sql, emit, ports }) {
    if ((input.on_hand === undefined) === (input.delta === undefined))
      throw validationFailed('give exactly one of on_hand or delta', { reason: 'invalid_combination', field: 'delta' });
    const tenantId = actor.tenant_id;
    // The SKU is the catalog's: asked, never read from its tables.
    const [sku] = await ports.catalog.skus(tenantId, [input.sku_id]);
    if (!sku) throw conflict(`sku ${input.sku_id} does not exist in this tenant`, { reason: 'not_found', field: 'sku_id' });
    const warehouseId = await warehouseOf(db, tenantId, input.warehouse_id);
    // The level exists (at zero) before it is locked, so concurrent adjustments of a new SKU queue up too.
    await sql.run(`INSERT INTO orders.stock_level (warehouse_id, sku_id, tenant_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      warehouseId,
      input.sku_id,
      tenantId,
    ]);
    const [before] = await sql.rows<{ sku_id: string; warehouse_id: string; on_hand: string; reserved: string }>(
      `SELECT sku_id, warehouse_id, on_hand, reserved FROM orders.stock_level WHERE warehouse_id = $1 AND sku_id = $2 FOR UPDATE`,
      [warehouseId, input.sku_id],
    );
    const current = levelOf(before);
    const onHand = input.on_hand ?? current.on_hand + present(input.delta, 'delta');
    if (onHand < 0) throw conflict(`on hand would be ${onHand}`, { reason: 'out_of_range' });
    if (onHand < current.reserved) throw conflict(`on hand ${onHand} would be below the ${current.reserved} reserved`, { reason: 'out_of_range' });
    if (onHand > QTY_MAX) throw conflict(`on hand would exceed ${QTY_MAX}`, { reason: 'out_of_range' });
    await sql.run(`UPDATE orders.stock_level SET on_hand = $3, updated_at = now() WHERE warehouse_id = $1 AND sku_id = $2`, [
      warehouseId,
      input.sku_id,
      onHand,
    ]);
    const level = { sku_id: input.sku_id, warehouse_id: warehouseId, on_hand: onHand, reserved: current.reserved, available: onHand - current.reserved };
    emit(inventoryAdjusted, { ...level, previous_on_hand: current.on_hand });
    return level;
  },
});
