import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { documentSql, shapeSku, sku } from '../domain/product-document';
import { defineCatalogOperation } from '../ports';

const { skuObject } = documentSql(true);

/** The admin's SKU list across products as a Relay connection (GraphQL only). */
export const adminSkus = defineCatalogOperation({
  name: 'admin.skus',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary:
    'The tenant’s SKUs of every product as a Relay connection, newest first unless ordered otherwise; filters by product, status and `q` (code, name or EAN).',
  connection: { field: 'skus' },
  input: connectionArgs(
    'Sku',
    ['created_at', 'code', 'amount'] as const,
    t.object({
      product_id: t.optional(t.id()),
      status: t.optional(t.string({ minLength: 1, maxLength: 100 })),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches code, name and EAN' })),
    }),
  ),
  result: connectionOf(sku, 'Sku'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`s.tenant_id = ${actor.tenant_id}`;
    const { product_id, status, q } = input.filter ?? {};
    if (product_id) where.add`s.product_id = ${product_id}`;
    if (status) where.add`s.status = ${status}`;
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(s.code ILIKE ${like} OR s.name ILIKE ${like} OR s.ean ILIKE ${like})`;
    }
    const page = await sql.connection<{ doc: Record<string, unknown> }>(
      {
        select: `${skuObject} AS doc`,
        from: 'catalog.sku s',
        where: where.sql,
        params: where.params,
        sorts: {
          created_at: { sql: 's.created_at', type: 'timestamptz' },
          code: { sql: 's.code', type: 'text' },
          amount: { sql: 's.amount', type: 'bigint' },
        },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 's.id',
      },
      input,
    );
    // Sound as admin.products': the document SQL builds the SKU's shape, and the executor checks the result against it.
    return mapNodes(page, (row) => shapeSku(row.doc)) as never;
  },
});
