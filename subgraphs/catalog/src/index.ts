import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { referenceResolvers } from './domain/references';
import { catalogEntities } from './entities';
import { catalogEvents } from './events';
import { Catalog1763800000010 } from './migrations/1763800000010-catalog';
import { Catalog1763800000011 } from './migrations/1763800000011-catalog-read';
import { Catalog1795600000001 } from './migrations/1795600000001-sku-shipping';
import { Catalog1796000000001 } from './migrations/1796000000001-prepared-documents';
import { Catalog1796100000001 } from './migrations/1796100000001-price-terms';
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
import { adminProducts } from './operations/admin.products';
import { catalogSkuCreate } from './operations/catalog.sku.create';
import { catalogSkuSetPromotion } from './operations/catalog.sku.set_promotion';
import { catalogSkuUpdate } from './operations/catalog.sku.update';
import { readProducts } from './operations/read.products';
import { catalogPorts, type CatalogPorts } from './ports';

export type { CatalogPorts } from './ports';
export { catalogSkus } from './domain/checkout-skus';

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
    catalogProduct,
  ],
  events: catalogEvents,
  ports: catalogPorts,
  entities: catalogEntities,
  migrations: [Catalog1763800000010, Catalog1763800000011, Catalog1795600000001, Catalog1796000000001, Catalog1796100000001],
  derived: catalogDerived,
  hooks: (runtime) => {
    const cache = startStorefrontCache(runtime.dataSource, runtime.log);
    return { start: () => cache.start(), stop: () => cache.stop() };
  },
  resolvers: referenceResolvers as SubgraphDefinition['resolvers'],
};
export { seedCatalog } from './seed';
