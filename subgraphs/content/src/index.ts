import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';

/** Institutional pages, shipping configuration, notifications and extensions. Its operations arrive with their issues. */
export const content: SubgraphDefinition = {
  name: 'content',
  defaultPort: 4004,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [],
  events: [],
  entities: [],
  migrations: [],
};
