import { notFound, t, sqlOf } from '@backoffice/platform';
import { documentSql, product, shapeItems, type Row } from '../domain/product-document';
import { defineCatalogOperation } from '../ports';

const { productColumns } = documentSql(true);

export const catalogProduct = defineCatalogOperation({
  name: 'catalog.product',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary: 'One product of the tenant, in any status, with its SKUs, options and media (admin read, extension).',
  restPath: '/internal/catalog/product',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({ product_id: t.id() }),
  result: product,
  events: [],
  async handler({ input, actor, db }) {
    const rows = await sqlOf(db).rows<Row>(`SELECT ${productColumns} FROM catalog.product p WHERE p.id = $1 AND p.tenant_id = $2`, [
      input.product_id,
      actor.tenant_id,
    ]);
    if (!rows.length) throw notFound(`product ${input.product_id} does not exist`, { field: 'product_id' });
    // Sound as admin.products': the document SQL builds the product's shape, and the executor checks the result against it.
    return shapeItems(rows)[0] as never;
  },
});
