import { assertRoom, conflict, newId, t, validationFailed } from '@backoffice/platform';
import { CATALOG_LIMITS } from '../domain/catalog-limits';
import { lockProduct } from '../domain/products';
import { productUpdated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogOptionCreate = defineCatalogOperation({
  name: 'catalog.option.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Adds an option axis to an existing product; every existing SKU takes default_value.',
  input: t.object({
    product_id: t.id(),
    name: t.string({ minLength: 1, maxLength: 200 }),
    values: t.array(t.string({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: CATALOG_LIMITS.optionValues.max }),
    default_value: t.string({ minLength: 1, maxLength: 200 }),
  }),
  result: t.object({ option_id: t.string() }),
  events: [productUpdated],
  async handler({ input, actor, db, sql, stage, emit }) {
    if (new Set(input.values).size !== input.values.length) throw validationFailed('values lists a value twice', { reason: 'duplicate', field: 'values' });
    if (!input.values.includes(input.default_value)) throw validationFailed('default_value must be one of values', { field: 'default_value' });
    const product = await lockProduct(db, actor, input.product_id);
    await assertRoom(db, CATALOG_LIMITS.options, { sql: 'SELECT count(*)::int AS n FROM catalog.option WHERE product_id = $1', params: [product.id] });
    const optionId = newId('opt');
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.option (id, tenant_id, product_id, name, "values", default_value, position)
       SELECT $1, $2, $3, $4, $5, $6, count(*) FROM catalog.option WHERE product_id = $3
       ON CONFLICT (product_id, name) DO NOTHING RETURNING id`,
      [optionId, actor.tenant_id, product.id, input.name, input.values, input.default_value],
    );
    if (!row) throw conflict(`product ${product.id} has an option ${input.name} already`, { reason: 'duplicate', field: 'name' });
    stage(`UPDATE catalog.sku SET option_values = option_values || jsonb_build_object($2::text, $3::text) WHERE product_id = $1`, [
      product.id,
      input.name,
      input.default_value,
    ]);
    emit(productUpdated, { product_id: product.id, changed: ['options'], option_id: optionId });
    return { option_id: optionId };
  },
});
