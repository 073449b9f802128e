import { conflict, newId, t } from '@backoffice/platform';
import { brandCreated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogBrandCreate = defineCatalogOperation({
  name: 'catalog.brand.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Creates a brand products can refer to (extension).',
  input: t.object({ name: t.string({ minLength: 1, maxLength: 200 }) }),
  result: t.object({ brand_id: t.string() }),
  events: [brandCreated],
  async handler({ input, actor, sql, emit }) {
    const brandId = newId('brd');
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.brand (id, tenant_id, name) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, name) DO NOTHING RETURNING id`,
      [brandId, actor.tenant_id, input.name],
    );
    if (!row) throw conflict(`a brand named ${input.name} exists already`, { reason: 'duplicate', field: 'name' });
    emit(brandCreated, { brand_id: brandId, name: input.name });
    return { brand_id: brandId };
  },
});
