import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { Authenticator } from './authenticate';
import { identityEntities } from './entities';
import { Identity1763800000001 } from './migrations/1763800000001-identity';
import { KeyTenantWithoutFk1795300000001 } from './migrations/1795300000001-key-tenant-without-fk';
import { apiKeyCreate } from './operations/api-key-create';
import { apiKeyRevoke } from './operations/api-key-revoke';
import { apiKeyRotate } from './operations/api-key-rotate';
import { whoami } from './operations/whoami';

export { Authenticator, authenticatorOf } from './authenticate';
export { createTenant, type CreatedTenant } from './tenants';
export { ALL_SCOPES, SCOPES } from './scopes';
export { TOKEN_PREFIX } from './tokens';

/** Tenants, stores, API keys (actors) and their token generations. */
export const identity: SubgraphDefinition = {
  name: 'identity',
  defaultPort: 4001,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [apiKeyCreate, apiKeyRotate, apiKeyRevoke, whoami],
  entities: identityEntities,
  migrations: [Identity1763800000001, KeyTenantWithoutFk1795300000001],
  hooks: (runtime) => new Authenticator(runtime.dataSource, { log: runtime.log }),
};
export { resolveStore, storesOfTenant, type StoreRef } from './stores';
