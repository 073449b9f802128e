import { AppError, PreparedJson, present, validationFailed } from '@backoffice/platform';
import {
  EVERY_FACET,
  feedPage,
  listingInput,
  productPage,
  productQuery,
  productsFromQuery,
  PROJECTIONS,
  shapeFacets,
  type ListingInput,
  type Projection,
} from '../domain/product-listing';
import { currentVersion, pageCaching, storefrontCacheOf, storefrontSettings } from '../domain/storefront-cache';
import { defineCatalogOperation } from '../ports';

/** The key of a page: its store and its input, in one spelling whatever the order of the query string. */
function pageKey(storeId: string, input: ListingInput): string {
  const { store: _ref, ...rest } = input;
  return `${storeId} ${JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
}

/**
 * `GET /v1/read/products`: the public listing of the products published to a store (see
 * domain/product-listing.ts). A page is its products' documents as rendered when they last changed,
 * joined as text: never parsed, re-validated or serialized here. Pages are kept per catalog version
 * (domain/storefront-cache.ts) and carry its ETag, so a change is never served once committed.
 */
export const readProducts = defineCatalogOperation({
  name: 'read.products',
  kind: 'read',
  access: 'public',
  scope: null,
  summary:
    'Lists the products published to a store: filters by category subtree, collection, status, SKU options, price ' +
    'range and custom fields; sorts; opt-in facets; projection full (the whole document) or feed. Answers a strong ' +
    'ETag and Cache-Control over REST.',
  restPath: '/products',
  errors: ['validation_failed', 'not_found', 'unknown_projection', 'internal'],
  input: listingInput,
  result: productPage,
  events: [],
  // Over REST, `option.<name>=<value>` and `cf.<name>=<value>` (repeatable: any of the values).
  queryFamilies: { options: 'option.', custom_fields: 'cf.' },
  // The reference: "extra string-valued parameters are accepted" (ignored); `options=` itself is refused.
  extraQueryAccepted: true,
  fromQuery: productsFromQuery,
  queryValues: { facets: EVERY_FACET },
  projections: { feed: feedPage },
  prepared: true,
  async handler(call) {
    const input = call.input as ListingInput;
    const projection = input.projection ?? 'full';
    if (!(PROJECTIONS as readonly string[]).includes(projection)) {
      throw new AppError('unknown_projection', `unknown projection ${projection}; declared: ${PROJECTIONS.join(', ')}`, {}, { field: 'projection' });
    }
    if (input.price_min !== undefined && input.price_max !== undefined && input.price_min > input.price_max) {
      throw validationFailed('price_min must not be above price_max', { reason: 'invalid_combination', field: 'price_min' });
    }
    const store = await call.ports.stores.resolve(input.store);
    if (!store) throw new AppError('not_found', `store ${input.store} does not exist`, {}, { field: 'store' });
    const cache = storefrontCacheOf(call.db);
    const version = await currentVersion(call.db, store.tenant_id);
    const key = pageKey(store.store_id, input);
    const kept = cache?.page(version, key);
    // Sound: a prepared read may answer PreparedJson, text checked against the result schema when it was
    // written; the executor sends it as is. The handler's type knows only the result object.
    if (kept) return kept as never;

    const query = productQuery(store, input, projection as Projection);
    const [[page], counted, facetRows] = await Promise.all([
      call.sql.statement<{ items: string; ids: string; total?: number }>(query.page),
      query.total ? call.sql.one<{ total: number; exact: boolean }>(query.total.text, query.total.values) : undefined,
      query.facets ? call.sql.rows<Record<string, unknown>>(query.facets.text, query.facets.values) : undefined,
    ]);
    const { total, exact } = counted ?? { total: present(page.total, 'the total from the counts'), exact: true };
    const facets = facetRows ? `,"facets":${JSON.stringify(shapeFacets(facetRows[0]))}` : '';
    const text = `{"items":[${page.items}],"page":${input.page ?? 1},"limit":${input.limit ?? 24},"total":${total},"total_exact":${exact}${facets}}`;
    const prepared = new PreparedJson(
      text,
      pageCaching(cache?.settings ?? storefrontSettings(), version, key, store.store_id, page.ids ? page.ids.split(',') : []),
    );
    cache?.keep(version, key, prepared);
    return prepared as never; // PreparedJson, as above
  },
});
