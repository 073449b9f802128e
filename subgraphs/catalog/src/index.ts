import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';

/** Products, SKUs, options, media, categories and their publication to stores. Its operations arrive with their issues. */
export const catalog: SubgraphDefinition = {
  name: 'catalog',
  defaultPort: 4002,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [],
  entities: [],
  migrations: [],
};
