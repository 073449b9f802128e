import { productStatus } from '../domain/products';
import { connectionArgs, connectionOf, escapeLike, t, conditions, sqlText } from '@backoffice/platform';
import { documentSql, product, shapeItems, type Row } from '../domain/product-document';
import { defineCatalogOperation } from '../ports';

const { productColumns } = documentSql(true);

/** The admin's product list as a Relay connection (GraphQL only): `catalog.products` stays the paged read of REST. */
export const adminProducts = defineCatalogOperation({
  name: 'admin.products',
  kind: 'read',
  access: 'internal',
  scope: 'catalog.admin.read',
  summary:
    'The tenant’s products in every status as a Relay connection, newest first unless ordered otherwise; filters by status, `q` (title or handle), ' +
    'brand, collection and category (with its subtree).',
  connection: { field: 'products' },
  input: connectionArgs(
    'Product',
    ['created_at', 'updated_at', 'title'] as const,
    t.object({
      status: t.optional(productStatus()),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches title and handle' })),
      brand_id: t.optional(t.id('the brand’s products')),
      collection_id: t.optional(t.id('the collection’s products')),
      category_id: t.optional(t.id('the products in this category or below it')),
    }),
  ),
  result: connectionOf(product, 'Product'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions();
    const tenant = where.param(actor.tenant_id);
    where.add`p.tenant_id = ${tenant}`;
    const { status, q, brand_id, collection_id, category_id } = input.filter ?? {};
    if (status) where.add`p.status = ${status}`;
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(p.title ILIKE ${like} OR p.handle ILIKE ${like})`;
    }
    if (brand_id) where.add`p.brand_id = ${brand_id}`;
    if (collection_id) where.add`EXISTS (SELECT 1 FROM catalog.collection_product cp WHERE cp.collection_id = ${collection_id} AND cp.product_id = p.id)`;
    if (category_id) {
      // Another tenant's category has no path here: nothing matches.
      const path = sqlText(`(SELECT path FROM catalog.category WHERE id = ${where.param(category_id)} AND tenant_id = ${tenant})`);
      where.add`EXISTS (SELECT 1 FROM catalog.product_category pc JOIN catalog.category c ON c.id = pc.category_id WHERE pc.product_id = p.id AND c.path <@ ${path})`;
    }
    const page = await sql.connection<Row>(
      {
        select: productColumns,
        from: 'catalog.product p',
        where: where.sql,
        params: where.params,
        sorts: {
          created_at: { sql: 'p.created_at', type: 'timestamptz' },
          updated_at: { sql: 'p.updated_at', type: 'timestamptz' },
          title: { sql: 'p.title', type: 'text' },
        },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'p.id',
      },
      input,
    );
    shapeItems(page.edges.map((edge) => edge.node));
    // Sound as catalog.products' page: the document SQL builds the product's shape, and the executor checks the result against it.
    return page as never;
  },
});
