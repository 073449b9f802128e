import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';

/** Orders, payments, reservations, shipments and documents. Its operations arrive with their issues. */
export const orders: SubgraphDefinition = {
  name: 'orders',
  defaultPort: 4003,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [],
  events: [],
  entities: [],
  migrations: [],
};
