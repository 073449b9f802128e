import { assertBelow, conflict, newId, t, validationFailed } from '@backoffice/platform';
import { CATALOG_LIMITS } from '../domain/catalog-limits';
import { lockProduct, REFRESH_PRICES } from '../domain/products';
import { skuShippingInput } from '../domain/sku-shipping';
import { skuCreated } from '../events';
import { defineCatalogOperation } from '../ports';

/** Without a currency, a SKU takes its product's (from its first SKU), else this one. */
const DEFAULT_CURRENCY = 'USD';

export const catalogSkuCreate = defineCatalogOperation({
  name: 'catalog.sku.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.sku.write',
  summary:
    'Adds a SKU to an existing product; optional shipping attributes weight_grams, length_cm, width_cm, height_cm (positive integers, null when unknown).',
  input: t.object({
    product_id: t.id(),
    amount: t.integer({ minimum: 0 }),
    code: t.optional(t.string({ minLength: 1, maxLength: 200 })),
    compare_at_amount: t.optional(t.nullable(t.integer({ minimum: 0 }))),
    currency: t.optional(t.string({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$', description: 'an ISO 4217 code; stored upper case' })),
    ean: t.optional(t.string({ maxLength: 64 })),
    is_default: t.optional(t.boolean()),
    metadata: t.optional(t.record()),
    name: t.optional(t.string({ maxLength: 500 })),
    option_values: t.optional(
      t.array(t.object({ option: t.string({ maxLength: 200 }), value: t.string({ maxLength: 200 }) }), { maxItems: CATALOG_LIMITS.options.max }),
    ),
    ref: t.optional(t.string({ maxLength: 200 })),
    status: t.optional(t.string({ maxLength: 100 })),
    ...skuShippingInput,
  }),
  result: t.object({ sku_id: t.string() }),
  events: [skuCreated],
  async handler({ input, actor, db, sql, emit }) {
    const given = input.option_values ?? [];
    if (new Set(given.map((o) => o.option)).size !== given.length)
      throw validationFailed('option_values names an option twice', { reason: 'duplicate', field: 'option_values' });
    const product = await lockProduct(db, actor, input.product_id);
    const options = await sql.rows<{
      name: string;
      values: string[];
      default_value: string;
    }>(`SELECT name, "values", default_value FROM catalog.option WHERE product_id = $1`, [product.id]);
    const values: Record<string, string> = Object.fromEntries(options.map((o) => [o.name, o.default_value]));
    for (const { option, value } of given) {
      const declared = options.find((o) => o.name === option);
      if (!declared) throw conflict(`product ${product.id} has no option ${option}`, { reason: 'not_found', field: 'option_values' });
      if (!declared.values.includes(value)) throw conflict(`option ${option} has no value ${value}`, { reason: 'not_found', field: 'option_values' });
      values[option] = value;
    }
    const [siblings] = await sql.rows<{ n: number; currency: string | null }>(
      `SELECT count(*)::int AS n, (SELECT currency FROM catalog.sku WHERE product_id = $1 ORDER BY position, id LIMIT 1) AS currency
       FROM catalog.sku WHERE product_id = $1`,
      [product.id],
    );
    assertBelow(CATALOG_LIMITS.skus, siblings.n);
    const skuId = newId('sku');
    // A product always has a default SKU: its first one is, until another is made default.
    const isDefault = siblings.n === 0 || (input.is_default ?? false);
    if (isDefault) await sql.run(`UPDATE catalog.sku SET is_default = false WHERE product_id = $1 AND is_default`, [product.id]);
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.sku (id, tenant_id, product_id, code, name, ean, amount, compare_at_amount, currency, is_default, status, metadata, ref, option_values, position,
                               weight_grams, length_cm, width_cm, height_cm)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) ON CONFLICT (tenant_id, code) DO NOTHING RETURNING id`,
      [
        skuId,
        actor.tenant_id,
        product.id,
        input.code ?? skuId,
        input.name ?? null,
        input.ean ?? null,
        input.amount,
        input.compare_at_amount ?? null,
        (input.currency ?? siblings.currency ?? DEFAULT_CURRENCY).toUpperCase(),
        isDefault,
        input.status ?? 'active',
        JSON.stringify(input.metadata ?? {}),
        input.ref ?? null,
        JSON.stringify(values),
        siblings.n,
        input.weight_grams ?? null,
        input.length_cm ?? null,
        input.width_cm ?? null,
        input.height_cm ?? null,
      ],
    );
    if (!row) throw conflict(`a SKU with code ${input.code} exists already`, { reason: 'duplicate', field: 'code' });
    await sql.run(REFRESH_PRICES, [product.id]);
    emit(skuCreated, { sku_id: skuId, product_id: product.id, code: input.code ?? skuId, amount: input.amount });
    return { sku_id: skuId };
  },
});
