import { escapeLike, t, pageOf } from '@backoffice/platform';
import { documentSql, product, shapeItems, type Row } from '../domain/product-document';
import { defineCatalogOperation } from '../ports';
import { productStatus } from '../domain/products';

const { productColumns } = documentSql(true);

export const catalogProducts = defineCatalogOperation({
  name: 'catalog.products',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary: 'The tenant’s products in every status, newest first, each with its SKUs, options and media (admin read, extension).',
  restPath: '/internal/catalog/products',
  input: t.object({
    status: t.optional(productStatus()),
    q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches title and handle' })),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, default: 1 })),
  }),
  result: pageOf(product),
  events: [],
  async handler({ input, actor, sql }) {
    const values: unknown[] = [actor.tenant_id];
    const where = ['p.tenant_id = $1'];
    if (input.status) where.push(`p.status = $${values.push(input.status)}`);
    if (input.q) where.push(`(p.title ILIKE $${values.push(`%${escapeLike(input.q)}%`)} OR p.handle ILIKE $${values.length})`);
    const page = await sql.page<Row>(
      {
        select: 'p.id AS product_id, row_number() OVER (ORDER BY p.created_at DESC, p.id DESC) AS ord',
        from: 'catalog.product p',
        where: where.join(' AND '),
        orderBy: 'p.created_at DESC, p.id DESC',
        params: values,
        // The page's ids first, then each product's document columns in the page's order.
        around: (paged) => `WITH page AS (${paged}) SELECT ${productColumns} FROM page JOIN catalog.product p ON p.id = page.product_id ORDER BY page.ord`,
      },
      input,
    );
    // Sound as admin.products': the document SQL builds the product's shape, and the executor checks the result against it.
    return { ...page, items: shapeItems(page.items) as never };
  },
});
