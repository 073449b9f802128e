import { join } from 'node:path';
import { listSize, type SubgraphDefinition } from '@backoffice/platform';
import { LINK_BOUND } from './domain/loaders';
import { linkResolvers, resultEntityResolvers } from './domain/links';
import { referenceResolvers } from './domain/references';
import { catalogEntities } from './entities';
import { catalogEvents } from './events';
import { Catalog1763800000010 } from './migrations/1763800000010-catalog';
import { Catalog1763800000011 } from './migrations/1763800000011-catalog-read';
import { Catalog1795600000001 } from './migrations/1795600000001-sku-shipping';
import { Catalog1796000000001 } from './migrations/1796000000001-prepared-documents';
import { Catalog1796100000001 } from './migrations/1796100000001-price-terms';
import { Catalog1796200000001 } from './migrations/1796200000001-ascii-documents';
import { catalogDerived } from './derived';
import { startStorefrontCache } from './domain/storefront-cache';
import { catalogBrandCreate } from './operations/catalog.brand.create';
import { catalogCategoryCreate } from './operations/catalog.category.create';
import { catalogCollectionAddProducts } from './operations/catalog.collection.add_products';
import { catalogCollectionCreate } from './operations/catalog.collection.create';
import { catalogMediaAttach } from './operations/catalog.media.attach';
import { catalogOptionCreate } from './operations/catalog.option.create';
import { catalogProduct } from './operations/catalog.product';
import { catalogProductCreate } from './operations/catalog.product.create';
import { catalogProductPublish } from './operations/catalog.product.publish';
import { catalogProductUnpublish } from './operations/catalog.product.unpublish';
import { catalogProductUpdate } from './operations/catalog.product.update';
import { catalogProducts } from './operations/catalog.products';
import { adminBrands } from './operations/admin.brands';
import { adminCategories } from './operations/admin.categories';
import { adminCollections } from './operations/admin.collections';
import { adminProducts } from './operations/admin.products';
import { adminSkus } from './operations/admin.skus';
import { catalogSkuCreate } from './operations/catalog.sku.create';
import { catalogSkuSetPromotion } from './operations/catalog.sku.set_promotion';
import { catalogSkuUpdate } from './operations/catalog.sku.update';
import { readProducts } from './operations/read.products';
import { catalogPorts, type CatalogPorts } from './ports';

export type { CatalogPorts } from './ports';
export { catalogSkus } from './domain/checkout-skus';

/**
 * The links between the catalog's entities (GraphQL only: REST's fixed documents select the
 * operations' own fields), a product's stores as identity's `Store` by key, and on each command's
 * result the entity it changed. Every plural link lists at most 100 (`LINK_BOUND`).
 */
const typeDefs = `
type Store @key(fields: "store_id", resolvable: false) {
  store_id: ID!
}

"""A product listed in a store."""
type Publication {
  store_id: ID!
  """The store as identity has it now."""
  store: Store!
  """format: date-time"""
  published_at: DateTime!
}

extend type Product {
  """Its brand; null when it has none."""
  brand: Brand
  """The collections holding it, by title (at most 100)."""
  collections: [Collection!]! ${listSize(LINK_BOUND)}
  """The stores it is published to, oldest publication first (at most 100)."""
  stores: [Publication!]! ${listSize(LINK_BOUND)}
}

extend type ProductCategories {
  """The category as an entity: its parent, children and path."""
  category: Category
}

extend type Sku {
  """The product it belongs to."""
  product: Product
  """weight in grams; null when unknown"""
  weight_grams: SafeInt
  """length in centimetres; null when unknown"""
  length_cm: SafeInt
  """width in centimetres; null when unknown"""
  width_cm: SafeInt
  """height in centimetres; null when unknown"""
  height_cm: SafeInt
}

extend type Category {
  """The category one level up; null at the root."""
  parent: Category
  """The categories one level down, by path (at most 100)."""
  children: [Category!]! ${listSize(LINK_BOUND)}
}

extend type Collection {
  """Its products in the collection's order (the first 100: product_count says how many)."""
  products: [Product!]! ${listSize(LINK_BOUND)}
}

extend type CatalogProductCreateResult { product: Product }
extend type CatalogProductUpdateResult { product: Product }
extend type CatalogProductPublishResult { product: Product }
extend type CatalogProductUnpublishResult { product: Product }
extend type CatalogSkuCreateResult { sku: Sku }
extend type CatalogSkuUpdateResult { sku: Sku product: Product }
extend type CatalogSkuSetPromotionResult { sku: Sku }
extend type CatalogCategoryCreateResult { category: Category }
extend type CatalogCollectionCreateResult { collection: Collection }
extend type CatalogCollectionAddProductsResult { collection: Collection }
extend type CatalogBrandCreateResult { brand: Brand }`;

/** Products, SKUs, options, media, categories, collections, brands and their publication to stores. */
export const catalog: SubgraphDefinition<CatalogPorts> = {
  name: 'catalog',
  summary: 'Products, SKUs, options, media, categories, collections, brands and their publication to stores.',
  defaultPort: 4002,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    catalogProductCreate,
    catalogProductUpdate,
    catalogProductPublish,
    catalogProductUnpublish,
    catalogSkuCreate,
    catalogSkuUpdate,
    catalogSkuSetPromotion,
    catalogOptionCreate,
    catalogMediaAttach,
    catalogCategoryCreate,
    catalogCollectionCreate,
    catalogCollectionAddProducts,
    catalogBrandCreate,
    readProducts,
    catalogProducts,
    adminProducts,
    adminSkus,
    adminCategories,
    adminBrands,
    adminCollections,
    catalogProduct,
  ],
  events: catalogEvents,
  ports: catalogPorts,
  entities: catalogEntities,
  migrations: [Catalog1763800000010, Catalog1763800000011, Catalog1795600000001, Catalog1796000000001, Catalog1796100000001, Catalog1796200000001],
  derived: catalogDerived,
  hooks: (runtime) => {
    const cache = startStorefrontCache(runtime.dataSource, runtime.log);
    return { start: () => cache.start(), stop: () => cache.stop() };
  },
  typeDefs,
  resolvers: (runtime) => {
    const links = linkResolvers(runtime);
    const references = referenceResolvers(runtime);
    const merged: Record<string, object> = { ...resultEntityResolvers(runtime), ...links };
    for (const [type, fields] of Object.entries(references)) merged[type] = { ...merged[type], ...fields };
    return merged as ReturnType<NonNullable<SubgraphDefinition['resolvers']>>;
  },
};
export { seedCatalog } from './seed';
