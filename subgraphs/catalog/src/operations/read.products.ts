import { AppError, validationFailed } from '@backoffice/platform';
import { shapeItems, type Row } from '../domain/product-document';
import { feedPage, listingInput, productPage, productQuery, productsFromQuery, PROJECTIONS, shapeFacets, type ListingInput, type Projection } from '../domain/product-listing';
import { defineCatalogOperation } from '../ports';

/** `GET /v1/read/products`: the public listing of the products published to a store (see domain/product-listing.ts). */
export const readProducts = defineCatalogOperation({
  name: 'read.products',
  kind: 'read',
  access: 'public',
  scope: null,
  summary:
    'Lists the products published to a store: filters by category subtree, collection, status, SKU options, price range and custom fields; sorts; opt-in facets; projection full (the whole document) or feed.',
  restPath: '/products',
  errors: ['validation_failed', 'not_found', 'unknown_projection', 'internal'],
  input: listingInput,
  result: productPage,
  events: [],
  fromQuery: productsFromQuery,
  projections: { feed: feedPage },
  async handler(call) {
    const input = call.input as ListingInput;
    const projection = input.projection ?? 'full';
    if (!(PROJECTIONS as readonly string[]).includes(projection)) {
      throw new AppError('unknown_projection', `unknown projection ${projection}; declared: ${PROJECTIONS.join(', ')}`);
    }
    if (input.price_min !== undefined && input.price_max !== undefined && input.price_min > input.price_max) {
      throw validationFailed('price_min must not be above price_max');
    }
    const store = await call.ports.stores.resolve(input.store);
    if (!store) throw new AppError('not_found', `store ${input.store} does not exist`);
    const query = productQuery(store, input, projection as Projection);
    const [rows, [{ total }], facetRows] = await Promise.all([
      call.db.query(query.page.text, query.page.values) as Promise<Row[]>,
      call.db.query(query.total.text, query.total.values) as Promise<{ total: number }[]>,
      query.facets ? (call.db.query(query.facets.text, query.facets.values) as Promise<Record<string, unknown>[]>) : Promise.resolve(null),
    ]);
    const limit = input.limit ?? 24;
    return {
      items: shapeItems(rows) as never,
      page: input.page ?? 1,
      limit,
      total,
      ...(facetRows ? { facets: shapeFacets(facetRows[0]) } : {}),
    };
  },
});
