import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { catalogEntities } from './entities';
import { Catalog1763800000010 } from './migrations/1763800000010-catalog';
import { Catalog1763800000011 } from './migrations/1763800000011-catalog-read';
import { catalogCommands } from './operations';
import { adminProduct, adminProducts } from './reads/admin';
import { readProducts } from './reads/products';
import { referenceResolvers } from './reads/references';

export { cachedDirectory, remoteDirectory, type StoreDirectory, type StoreRef } from './stores';

/** Products, SKUs, options, media, categories, collections, brands and their publication to stores. */
export const catalog: SubgraphDefinition = {
  name: 'catalog',
  defaultPort: 4002,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [...catalogCommands, readProducts, adminProducts, adminProduct],
  entities: catalogEntities,
  migrations: [Catalog1763800000010, Catalog1763800000011],
  resolvers: referenceResolvers as SubgraphDefinition['resolvers'],
};
export { seedCatalog } from './seed';
