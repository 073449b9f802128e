import { join } from 'node:path';
import { metrics, type SubgraphDefinition, type SubgraphRuntime } from '@backoffice/platform';
import { Authenticator } from './domain/authenticate';
import { identityEntities } from './entities';
import { Identity1763800000001 } from './migrations/1763800000001-identity';
import { KeyTenantWithoutFk1795300000001 } from './migrations/1795300000001-key-tenant-without-fk';
import { identityEvents, storeCreated, storeUpdated, webhookSubscriptionDeleted } from './events';
import { TENANT_CREATE } from './domain/tenants';
import { iamApiKeyCreate } from './operations/iam.api_key.create';
import { iamApiKeyRevoke } from './operations/iam.api_key.revoke';
import { iamApiKeyRotate } from './operations/iam.api_key.rotate';
import { readInternalWhoami } from './operations/read.internal.whoami';
import { readInternalWebhooks } from './operations/read.internal.webhooks';
import { readInternalWebhooksDeliveries } from './operations/read.internal.webhooks.deliveries';
import { webhookDeliveryRetry } from './operations/webhook.delivery.retry';
import { webhookSubscriptionCreate } from './operations/webhook.subscription.create';
import { webhookSubscriptionDelete } from './operations/webhook.subscription.delete';
import { webhookSubscriptionRotateSecret } from './operations/webhook.subscription.rotate_secret';
import { webhookSubscriptionUpdate } from './operations/webhook.subscription.update';
import { Webhooks1795400000001 } from './migrations/1795400000001-webhooks';
import { WebhookPersonalData1795700000001 } from './migrations/1795700000001-webhook-personal-data';
import { webhookDispatch } from './consumers/webhooks';
import { webhookDeliver } from './tasks/webhook.deliver';
import { identityPorts, type IdentityPorts } from './ports';
import { tenantStoreCreate } from './operations/tenant.store.create';
import { tenantStoreUpdate } from './operations/tenant.store.update';
import { readInternalStores } from './operations/read.internal.stores';
import { readStoresResolve } from './operations/read.stores.resolve';
import { readAuthMethods } from './operations/read.auth.methods';
import { StoreHosts1795800000001 } from './migrations/1795800000001-store-hosts';
import { identityResolvers, identityTypeDefs } from './domain/references';
import type { StoreDirectory } from '@backoffice/contracts';
import { LocalStoreDirectory } from './domain/store-directory';
import { Operators1795900000001 } from './migrations/1795900000001-operators';
import { LoginFailures1795900000002 } from './migrations/1795900000002-login-failures';
import { adminUserInvite } from './operations/admin_user.invite';
import { adminUserUpdate } from './operations/admin_user.update';
import { adminUserDeactivate } from './operations/admin_user.deactivate';
import { readInternalAdminUsers } from './operations/read.internal.admin_users';
import { authLoginCodeRequest } from './operations/auth.login_code.request';
import { authLoginCodeVerify } from './operations/auth.login_code.verify';
import { authOidcStart } from './operations/auth.oidc.start';
import { authOidcCallback } from './operations/auth.oidc.callback';
import { authLogout } from './operations/auth.logout';
import { adminStores } from './operations/admin.stores';
import { adminApiKeys } from './operations/admin.api_keys';
import { adminOperators } from './operations/admin.operators';
import { adminWebhookSubscriptions } from './operations/admin.webhook_subscriptions';
import { sweepExpiredLoginsJob } from './jobs/auth.sweep_expired';
import { closeLoginLimiters } from './domain/operators';

export { Authenticator, authenticatorOf, inProcessIdentity } from './domain/authenticate';
export { createTenant, type CreatedTenant } from './domain/tenants';
export { ALL_SCOPES, SCOPES } from './domain/scopes';
export type { IdentityPorts } from './ports';
export { TOKEN_PREFIX } from './domain/tokens';
export { loginCodeHandoff, loginCodeHandoffOf, SESSION_PREFIX } from './domain/operators';
export { ownerSignIn, type SignIn } from './domain/sign-in-link';
export { webhookSecretKey, webhookSettings, type WebhookSettings } from './domain/webhook-settings';

/** Tenants, stores, API keys (actors) and their token generations, and webhook subscriptions. */
export const identity: SubgraphDefinition<IdentityPorts> = {
  name: 'identity',
  summary: 'Tenants, stores, API keys (actors) and their token generations, and webhook subscriptions.',
  defaultPort: 4001,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    iamApiKeyCreate,
    iamApiKeyRotate,
    iamApiKeyRevoke,
    readInternalWhoami,
    webhookSubscriptionCreate,
    webhookSubscriptionUpdate,
    webhookSubscriptionDelete,
    webhookSubscriptionRotateSecret,
    webhookDeliveryRetry,
    readInternalWebhooks,
    readInternalWebhooksDeliveries,
    tenantStoreCreate,
    tenantStoreUpdate,
    readInternalStores,
    readStoresResolve,
    adminUserInvite,
    adminUserUpdate,
    adminUserDeactivate,
    readInternalAdminUsers,
    authLoginCodeRequest,
    authLoginCodeVerify,
    authOidcStart,
    authOidcCallback,
    readAuthMethods,
    authLogout,
    adminStores,
    adminApiKeys,
    adminOperators,
    adminWebhookSubscriptions,
  ],
  events: identityEvents,
  ports: identityPorts,
  entities: identityEntities,
  migrations: [
    Identity1763800000001,
    KeyTenantWithoutFk1795300000001,
    Webhooks1795400000001,
    WebhookPersonalData1795700000001,
    StoreHosts1795800000001,
    Operators1795900000001,
    LoginFailures1795900000002,
  ],
  typeDefs: identityTypeDefs,
  resolvers: identityResolvers as SubgraphDefinition['resolvers'],
  consumers: [webhookDispatch],
  tasks: [webhookDeliver],
  jobs: [sweepExpiredLoginsJob],
  emitters: [TENANT_CREATE],
  hooks: (runtime) => {
    const authenticator = new Authenticator(runtime.dataSource, { log: runtime.log });
    const stores = new LocalStoreDirectory(runtime.dataSource, runtime.log);
    return {
      authenticator,
      stores,
      start: () => authenticator.start(),
      stop: async () => {
        await stores.stop();
        await authenticator.stop();
        await closeLoginLimiters();
      },
      committed(events) {
        authenticator.committed(events);
        // This process's directory forgets a changed store before the command's caller hears back.
        stores.forget(events.filter((event) => event.type === storeCreated.name || event.type === storeUpdated.name).map((event) => event.payload));
        // A deleted subscription's metric series go with it.
        for (const event of events)
          if (event.type === webhookSubscriptionDeleted.name) metrics.forgetWebhookSubscription(String(event.payload.subscription_id));
      },
    };
  },
};
export { LocalStoreDirectory, resolveStore, storesOfTenant, storeSendersOf } from './domain/store-directory';

/**
 * The store directory for subgraphs started in identity's process (catalog, orders, content given it
 * as their `stores` port): identity's table asked directly, remembered while listening to
 * STORES_CHANNEL, and forgotten at once on this process's own store changes.
 */
export function storeDirectoryOf(runtime: SubgraphRuntime): StoreDirectory {
  const { stores } = runtime.hooks as { stores?: unknown };
  if (!(stores instanceof LocalStoreDirectory)) throw new Error(`${runtime.definition.name} is not the identity subgraph`);
  return stores.get();
}
