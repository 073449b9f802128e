import { join } from 'node:path';
import { metrics, type SubgraphDefinition } from '@backoffice/platform';
import { Authenticator } from './authenticate';
import { identityEntities } from './entities';
import { Identity1763800000001 } from './migrations/1763800000001-identity';
import { KeyTenantWithoutFk1795300000001 } from './migrations/1795300000001-key-tenant-without-fk';
import { identityEvents, webhookSubscriptionDeleted } from './events';
import { apiKeyCreate } from './operations/iam.api_key.create';
import { apiKeyRevoke } from './operations/iam.api_key.revoke';
import { apiKeyRotate } from './operations/iam.api_key.rotate';
import { whoami } from './operations/read.internal.whoami';
import { webhooksRead } from './operations/read.internal.webhooks';
import { webhookDeliveriesRead } from './operations/read.internal.webhooks.deliveries';
import { webhookDeliveryRetry } from './operations/webhook.delivery.retry';
import { webhookSubscriptionCreate } from './operations/webhook.subscription.create';
import { webhookSubscriptionDelete } from './operations/webhook.subscription.delete';
import { webhookSubscriptionRotateSecret } from './operations/webhook.subscription.rotate_secret';
import { webhookSubscriptionUpdate } from './operations/webhook.subscription.update';
import { Webhooks1795400000001 } from './migrations/1795400000001-webhooks';
import { webhookDispatch } from './consumers/webhooks';
import { webhookDeliver } from './tasks/webhook.deliver';
import { identityPorts, type IdentityPorts } from './ports';

export { Authenticator, authenticatorOf } from './authenticate';
export { remoteIdentity, type IdentityClient } from './client';
export { createTenant, type CreatedTenant } from './tenants';
export { ALL_SCOPES, SCOPES } from './scopes';
export type { IdentityPorts } from './ports';
export { TOKEN_PREFIX } from './tokens';

/** Tenants, stores, API keys (actors) and their token generations, and webhook subscriptions. */
export const identity: SubgraphDefinition<IdentityPorts> = {
  name: 'identity',
  defaultPort: 4001,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    apiKeyCreate,
    apiKeyRotate,
    apiKeyRevoke,
    whoami,
    webhookSubscriptionCreate,
    webhookSubscriptionUpdate,
    webhookSubscriptionDelete,
    webhookSubscriptionRotateSecret,
    webhookDeliveryRetry,
    webhooksRead,
    webhookDeliveriesRead,
  ],
  events: identityEvents,
  ports: identityPorts,
  entities: identityEntities,
  migrations: [Identity1763800000001, KeyTenantWithoutFk1795300000001, Webhooks1795400000001],
  consumers: [webhookDispatch],
  tasks: [webhookDeliver],
  hooks: (runtime) => {
    const authenticator = new Authenticator(runtime.dataSource, { log: runtime.log });
    return {
      authenticator,
      start: () => authenticator.start(),
      stop: () => authenticator.stop(),
      committed(events) {
        authenticator.committed(events);
        // A deleted subscription's metric series go with it.
        for (const event of events) if (event.type === webhookSubscriptionDeleted.name) metrics.forgetWebhookSubscription(String(event.payload.subscription_id));
      },
    };
  },
};
export { resolveStore, storesOfTenant, type StoreRef } from './stores';
