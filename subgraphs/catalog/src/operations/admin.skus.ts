import { connectionArgs, connectionOf, escapeLike, mapNodes, t } from '@backoffice/platform';
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
    const params: unknown[] = [actor.tenant_id];
    const where = ['s.tenant_id = $1'];
    const { product_id, status, q } = input.filter ?? {};
    if (product_id) where.push(`s.product_id = $${params.push(product_id)}`);
    if (status) where.push(`s.status = $${params.push(status)}`);
    if (q) where.push(`(s.code ILIKE $${params.push(`%${escapeLike(q)}%`)} OR s.name ILIKE $${params.length} OR s.ean ILIKE $${params.length})`);
    const page = await sql.connection<{ doc: Record<string, unknown> }>(
      {
        list: 'skus',
        select: `${skuObject} AS doc`,
        from: 'catalog.sku s',
        where: where.join(' AND '),
        params,
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
