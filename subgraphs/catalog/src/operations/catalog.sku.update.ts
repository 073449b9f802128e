import { assignments, conflict, sqlText, t } from '@backoffice/platform';
import { lockProduct, REFRESH_PRICES } from '../domain/products';
import { SKU_SHIPPING_FIELDS } from '@backoffice/contracts';
import { skuShippingInput } from '../domain/sku-shipping';
import { SKU_CHANGES, skuStateFields, skuUpdated, type SkuChange } from '../events';
import type { Sku } from '../entities';
import { defineCatalogOperation } from '../ports';

/** Columns catalog.sku.update may set, in the order of its input. */
const COLUMNS = ['code', 'name', 'ean', 'amount', 'compare_at_amount', 'status', 'ref', ...SKU_SHIPPING_FIELDS] as const;
type Column = (typeof COLUMNS)[number];

/** The SKU as read below, its bigint columns as numbers (::float8). */
type SkuRow = Pick<Sku, 'id' | 'product_id' | 'code' | 'name' | 'ean' | 'status' | 'ref'> & {
  amount: number;
  compare_at_amount: number | null;
  promotional_amount: number | null;
} & Record<(typeof SKU_SHIPPING_FIELDS)[number], number | null>;

export const catalogSkuUpdate = defineCatalogOperation({
  name: 'catalog.sku.update',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.sku.write',
  summary:
    'Changes a SKU: code, name, ean, amount, compare_at_amount, status, metadata, ref and its shipping attributes ' +
    '(weight_grams, length_cm, width_cm, height_cm; null when unknown). Omitted fields keep their value ' +
    '(extension).',
  input: t.object({
    sku_id: t.id(),
    code: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'unique in the tenant' })),
    name: t.optional(t.nullable(t.string({ maxLength: 500 }))),
    ean: t.optional(t.nullable(t.string({ maxLength: 64 }))),
    amount: t.optional(t.integer({ minimum: 0, description: 'must stay above a promotional amount the SKU has' })),
    compare_at_amount: t.optional(t.nullable(t.integer({ minimum: 0 }))),
    status: t.optional(t.string({ maxLength: 100 })),
    metadata: t.optional(t.record({ description: 'replaces the SKU’s metadata' })),
    ref: t.optional(t.nullable(t.string({ maxLength: 200 }))),
    ...skuShippingInput,
  }),
  result: t.object({
    sku_id: t.string(),
    product_id: t.string(),
    ...skuStateFields,
    changed: t.array(t.string(), {
      maxItems: SKU_CHANGES.length,
      description: 'the fields whose value changed (empty: nothing changed and no event was emitted)',
    }),
  }),
  events: [skuUpdated],
  async handler({ input, actor, db, sql, emit }) {
    const tenantId = actor.tenant_id;
    const found = await sql.one<{ product_id: string }>(`SELECT product_id FROM catalog.sku WHERE id = $1 AND tenant_id = $2`, [input.sku_id, tenantId]);
    if (!found) throw conflict(`sku ${input.sku_id} does not exist in this tenant`, { reason: 'not_found', field: 'sku_id' });
    // The product first, as catalog.sku.create locks it: its prices and listings follow its SKUs.
    const product = await lockProduct(db, actor, found.product_id);
    const sku = await sql.one<SkuRow & { same_metadata: boolean }>(
      `SELECT id, product_id, code, name, ean, amount::float8 AS amount, compare_at_amount::float8 AS compare_at_amount,
              promotional_amount::float8 AS promotional_amount, status, ref, weight_grams::float8 AS weight_grams,
              length_cm::float8 AS length_cm, width_cm::float8 AS width_cm, height_cm::float8 AS height_cm,
              ($3::jsonb IS NOT NULL AND metadata = $3::jsonb) AS same_metadata
       FROM catalog.sku WHERE id = $1 AND product_id = $2 FOR UPDATE`,
      [input.sku_id, product.id, input.metadata === undefined ? null : JSON.stringify(input.metadata)],
    );
    if (!sku) throw conflict(`sku ${input.sku_id} does not exist in this tenant`, { reason: 'not_found', field: 'sku_id' });

    const changed: SkuChange[] = [];
    const sets = assignments();
    const set = (column: string, value: unknown) => sets.add`${sqlText(column)} = ${value}`;
    for (const column of COLUMNS) {
      const value = input[column];
      if (value === undefined || value === sku[column]) continue;
      changed.push(column);
      set(column, value);
    }
    if (input.metadata !== undefined && !sku.same_metadata) {
      changed.push('metadata');
      set('metadata', JSON.stringify(input.metadata));
    }
    const after = { ...sku, ...Object.fromEntries(changed.filter((c) => c !== 'metadata').map((c) => [c, input[c as Column]])) } as SkuRow;
    if (after.promotional_amount !== null && after.amount <= after.promotional_amount) {
      throw conflict(`the amount must stay above the SKU’s promotional amount ${after.promotional_amount} (clear it with catalog.sku.set_promotion first)`, {
        reason: 'out_of_range',
        field: 'amount',
      });
    }
    if (changed.includes('code')) {
      const taken = await sql.one(`SELECT 1 FROM catalog.sku WHERE tenant_id = $1 AND code = $2 AND id <> $3`, [tenantId, after.code, sku.id]);
      if (taken) throw conflict(`a SKU with code ${after.code} exists already`, { reason: 'duplicate', field: 'code' });
    }
    const state = {
      code: after.code,
      amount: after.amount,
      compare_at_amount: after.compare_at_amount,
      status: after.status,
      weight_grams: after.weight_grams,
      length_cm: after.length_cm,
      width_cm: after.width_cm,
      height_cm: after.height_cm,
    };
    if (changed.length) {
      await sql.run(`UPDATE catalog.sku SET ${sets.sql} WHERE id = ${sets.param(sku.id)}`, sets.params);
      if (changed.includes('amount')) {
        await sql.run(REFRESH_PRICES, [product.id]);
      }
      emit(skuUpdated, { sku_id: sku.id, product_id: product.id, changed, sku: state });
    }
    return { sku_id: sku.id, product_id: product.id, ...state, changed };
  },
});
