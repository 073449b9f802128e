import type { CollectionLimit } from '@backoffice/platform';

/**
 * How many of each a product (or a SKU) holds at most: the product document's lists declare these as
 * their `maxItems` (what the GraphQL cost estimate multiplies by), and the commands that add one refuse
 * past them (409 conflict, `limit_reached`). Far above any real catalog.
 */
export const CATALOG_LIMITS = {
  skus: { what: 'SKUs per product', max: 100 },
  options: { what: 'options per product', max: 20 },
  /** Values of one option (catalog.option.create takes them all at once). */
  optionValues: { what: 'values per option', max: 500 },
  productMedia: { what: 'media per product', max: 50 },
  skuMedia: { what: 'media per SKU', max: 20 },
  /** Categories of one product (create and update set them whole). */
  categories: { what: 'categories per product', max: 50 },
} as const satisfies Record<string, CollectionLimit>;
