import { escapeLike, t } from '@backoffice/platform';
import { documentSql, product, shapeItems, type Row } from '../domain/product-document';
import { defineCatalogOperation } from '../ports';

const { productColumns } = documentSql(true);

export const adminProducts = defineCatalogOperation({
  name: 'catalog.products',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary: 'The tenant’s products in every status, newest first, each with its SKUs, options and media (admin read, extension).',
  restPath: '/internal/catalog/products',
  input: t.object({
    status: t.optional(t.enum(['draft', 'active', 'archived'] as const)),
    q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches title and handle' })),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, default: 1 })),
  }),
  result: t.object({ items: t.array(product), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const values: unknown[] = [actor.tenant_id];
    const where = ['p.tenant_id = $1'];
    if (input.status) where.push(`p.status = $${values.push(input.status)}`);
    if (input.q) where.push(`(p.title ILIKE $${values.push(`%${escapeLike(input.q)}%`)} OR p.handle ILIKE $${values.length})`);
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = await Promise.all([
      db.query(
        `WITH page AS (
           SELECT p.id AS product_id, row_number() OVER (ORDER BY p.created_at DESC, p.id DESC) AS ord FROM catalog.product p
           WHERE ${filter} ORDER BY p.created_at DESC, p.id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit})
         SELECT ${productColumns} FROM page JOIN catalog.product p ON p.id = page.product_id ORDER BY page.ord`,
        values,
      ) as Promise<Row[]>,
      db.query(`SELECT count(*)::int AS total FROM catalog.product p WHERE ${filter}`, values) as Promise<{ total: number }[]>,
    ]);
    return { items: shapeItems(rows) as never, page, limit, total };
  },
});
