import { escapeLike, t, pageOf, conditions } from '@backoffice/platform';
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
    const where = conditions().add`p.tenant_id = ${actor.tenant_id}`;
    if (input.status) where.add`p.status = ${input.status}`;
    if (input.q) {
      const like = where.param(`%${escapeLike(input.q)}%`);
      where.add`(p.title ILIKE ${like} OR p.handle ILIKE ${like})`;
    }
    const page = await sql.page<Row>(
      {
        select: 'p.id AS product_id, row_number() OVER (ORDER BY p.created_at DESC, p.id DESC) AS ord',
        from: 'catalog.product p',
        where: where.sql,
        orderBy: 'p.created_at DESC, p.id DESC',
        params: where.params,
        // The page's ids first, then each product's document columns in the page's order.
        around: (paged) => `WITH page AS (${paged}) SELECT ${productColumns} FROM page JOIN catalog.product p ON p.id = page.product_id ORDER BY page.ord`,
      },
      input,
    );
    // Sound as admin.products': the document SQL builds the product's shape, and the executor checks the result against it.
    return { ...page, items: shapeItems(page.items) as never };
  },
});
