import { conflict, t, sqlOf } from '@backoffice/platform';
import { skuUpdated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogSkuSetPromotion = defineCatalogOperation({
  name: 'catalog.sku.set_promotion',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.sku.write',
  summary: 'Sets or clears (null) a SKU’s promotional amount, below its unit amount (extension).',
  input: t.object({ sku_id: t.id(), promotional_amount: t.nullable(t.integer({ minimum: 0 })) }),
  result: t.object({ sku_id: t.string(), promotional_amount: t.nullable(t.integer()) }),
  events: [skuUpdated],
  async handler({ input, actor, db, stage, emit }) {
    const [sku] = await sqlOf(db).rows<{ id: string; product_id: string; amount: number }>(
      `SELECT id, product_id, amount::float8 AS amount FROM catalog.sku WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [input.sku_id, actor.tenant_id],
    );
    if (!sku) throw conflict(`sku ${input.sku_id} does not exist in this tenant`, { reason: 'not_found', field: 'sku_id' });
    if (input.promotional_amount !== null && input.promotional_amount >= sku.amount) {
      throw conflict(`a promotional amount must be below the unit amount ${sku.amount}`, { reason: 'out_of_range', field: 'promotional_amount' });
    }
    stage(`UPDATE catalog.sku SET promotional_amount = $2 WHERE id = $1`, [sku.id, input.promotional_amount]);
    emit(skuUpdated, { sku_id: sku.id, product_id: sku.product_id, promotional_amount: input.promotional_amount });
    return { sku_id: sku.id, promotional_amount: input.promotional_amount };
  },
});
