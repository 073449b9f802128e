import { forbidden, listSize, unauthorized, type Actor, type SubgraphContext, sqlOf } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import type { Store } from '../entities';
import { API_KEY_COLUMNS, apiKeyViewOf, type ApiKeyView, type ApiKeyViewRow } from './api-key-view';
import { adminUserViewOf, roleScopes, type AdminUserRow } from './operators';
import { ALL_SCOPES } from './scopes';
import { storeViewOf, type StoreView } from './stores';
import { DELIVERY_COLUMNS, deliveryViewOf, type DeliveryRow } from './webhook-deliveries';
import { viewOf, type SubscriptionRow } from './webhooks';

/** A subscription's `deliveries` link: its newest ones, at most this many (read.internal.webhooks.deliveries pages the rest). */
export const SUBSCRIPTION_DELIVERIES_MAX = 10;

type OperatorView = ReturnType<typeof adminUserViewOf>;
type SubscriptionView = ReturnType<typeof viewOf>;
type DeliveryView = ReturnType<typeof deliveryViewOf>;

interface Loaders {
  stores: DataLoader<string, StoreView | null>;
  apiKeys: DataLoader<string, ApiKeyView | null>;
  operators: DataLoader<string, OperatorView | null>;
  subscriptions: DataLoader<string, SubscriptionView | null>;
  deliveries: DataLoader<string, DeliveryView | null>;
  /** By subscription id: its newest deliveries. */
  recentDeliveries: DataLoader<string, DeliveryView[]>;
}

/** One set of loaders per request: a list naming many keys, operators or stores costs one statement per type. */
const perRequest = new WeakMap<SubgraphContext, Loaders>();

function byId<R extends { id: string }, V>(rows: R[], ids: readonly string[], view: (row: R) => V): (V | null)[] {
  const found = new Map(rows.map((row) => [row.id, view(row)]));
  return ids.map((id) => found.get(id) ?? null);
}

function loadersOf(context: SubgraphContext, dataSource: DataSource, actor: Actor): Loaders {
  let found = perRequest.get(context);
  if (found) return found;
  const sql = sqlOf(dataSource);
  const tenant = actor.tenant_id;
  found = {
    stores: new DataLoader(async (ids) =>
      byId(await sql.rows<Store>(`SELECT * FROM identity.store WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]), ids, (row) =>
        storeViewOf(row, actor),
      ),
    ),
    apiKeys: new DataLoader(async (ids) =>
      byId(
        await sql.rows<ApiKeyViewRow>(`SELECT ${API_KEY_COLUMNS} FROM identity.api_key k WHERE k.id = ANY($1::text[]) AND k.tenant_id = $2`, [ids, tenant]),
        ids,
        apiKeyViewOf,
      ),
    ),
    operators: new DataLoader(async (ids) =>
      byId(await sql.rows<AdminUserRow>(`SELECT * FROM identity.admin_user WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]), ids, (row) =>
        adminUserViewOf(row, actor),
      ),
    ),
    subscriptions: new DataLoader(async (ids) =>
      byId(
        await sql.rows<SubscriptionRow>(`SELECT * FROM identity.webhook_subscription WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]),
        ids,
        viewOf,
      ),
    ),
    deliveries: new DataLoader(async (ids) =>
      byId(
        await sql.rows<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM identity.webhook_delivery WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]),
        ids,
        deliveryViewOf,
      ),
    ),
    recentDeliveries: new DataLoader(async (subscriptionIds) => {
      // The newest few of each subscription in one statement: a lateral scan per subscription, not every delivery.
      const rows = await sql.rows<DeliveryRow>(
        `SELECT d.* FROM unnest($1::text[]) AS s(id)
         CROSS JOIN LATERAL (SELECT ${DELIVERY_COLUMNS} FROM identity.webhook_delivery
           WHERE subscription_id = s.id AND tenant_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3) d`,
        [subscriptionIds, tenant, SUBSCRIPTION_DELIVERIES_MAX],
      );
      return subscriptionIds.map((id) => rows.filter((row) => row.subscription_id === id).map(deliveryViewOf));
    }),
  };
  perRequest.set(context, found);
  return found;
}

/** The caller's loaders, once it holds `scope` (null: any valid key); refusals are the field's GraphQL error. */
function loaders(context: SubgraphContext, dataSource: DataSource, scope: string | null): Loaders {
  const actor = context.call?.actor;
  if (!actor) throw unauthorized().toGraphQLError();
  if (scope && !actor.scopes.includes(scope)) throw forbidden(scope).toGraphQLError();
  return loadersOf(context, dataSource, actor);
}

type Kind = Exclude<keyof Loaders, 'recentDeliveries'>;
/** The read scope of each entity's list: the same a reference or a command's result field needs. */
const SCOPES: Record<Kind, string | null> = {
  stores: null,
  apiKeys: 'admin.users.read',
  operators: 'admin.users.read',
  subscriptions: 'webhooks.read',
  deliveries: 'webhooks.read',
};

/**
 * Identity's entities (`Store`, `ApiKey`, `Operator`, `WebhookSubscription`, `WebhookDelivery`):
 * other subgraphs name them by key and the gateway asks identity for the rest, and commands' results
 * name what they changed. Only the caller's tenant is searched (another tenant's is null); the caller
 * needs its list's read scope (a store: any valid key of the tenant, as `read.internal.stores`).
 */
export function identityResolvers({ dataSource }: { dataSource: DataSource }) {
  // Async, so a refusal is the one field's (null, with its error), never the whole list's.
  const reference = (kind: Kind, key: string) => async (ref: Record<string, string>, context: SubgraphContext) =>
    loaders(context, dataSource, SCOPES[kind])[kind].load(ref[key]);
  // A command's result: loaded afresh (an earlier mutation of the same request may have loaded it before its change).
  const changed = (kind: Kind, key: string) => async (result: Record<string, string>, _args: unknown, context: SubgraphContext) => {
    const loader = loaders(context, dataSource, SCOPES[kind])[kind];
    return loader.clear(result[key]).load(result[key]);
  };
  return {
    Store: { __resolveReference: reference('stores', 'store_id') },
    ApiKey: { __resolveReference: reference('apiKeys', 'api_key_id') },
    Operator: {
      __resolveReference: reference('operators', 'admin_user_id'),
      scopes: (operator: { role: string }) => roleScopes(operator.role),
    },
    WebhookSubscription: {
      __resolveReference: reference('subscriptions', 'subscription_id'),
      deliveries: async (subscription: { subscription_id: string }, _args: unknown, context: SubgraphContext) =>
        loaders(context, dataSource, 'webhooks.read').recentDeliveries.load(subscription.subscription_id),
    },
    WebhookDelivery: { __resolveReference: reference('deliveries', 'delivery_id') },
    TenantStoreCreateResult: { store: changed('stores', 'id') },
    TenantStoreUpdateResult: { store: changed('stores', 'id') },
    IamApiKeyCreateResult: { api_key: changed('apiKeys', 'api_key_id') },
    IamApiKeyRotateResult: { api_key: changed('apiKeys', 'api_key_id') },
    IamApiKeyRevokeResult: { api_key: changed('apiKeys', 'api_key_id') },
    AdminUserInviteResult: { operator: changed('operators', 'admin_user_id') },
    AdminUserUpdateResult: { operator: changed('operators', 'admin_user_id') },
    AdminUserDeactivateResult: { operator: changed('operators', 'admin_user_id') },
    WebhookSubscriptionCreateResult: { webhook_subscription: changed('subscriptions', 'subscription_id') },
    WebhookSubscriptionRotateSecretResult: { webhook_subscription: changed('subscriptions', 'subscription_id') },
    WebhookDeliveryRetryResult: { webhook_delivery: changed('deliveries', 'delivery_id') },
  };
}

/** The hand-written part of identity's schema: the links and the entity each command's result names. */
export const identityTypeDefs = `
extend type Operator {
  "The scopes a session of the operator carries (from its role)."
  scopes: [String!]! ${listSize(ALL_SCOPES.length)}
}

extend type WebhookSubscription {
  "Its newest deliveries, newest first, at most ${SUBSCRIPTION_DELIVERIES_MAX} (read.internal.webhooks.deliveries pages them all). Scope: webhooks.read."
  deliveries: [WebhookDelivery!]! ${listSize(SUBSCRIPTION_DELIVERIES_MAX)}
}

extend type TenantStoreCreateResult {
  "The store created."
  store: Store
}

extend type TenantStoreUpdateResult {
  "The store as it is now."
  store: Store
}

extend type IamApiKeyCreateResult {
  "The key created (never its token beyond the result's own). Scope: admin.users.read."
  api_key: ApiKey
}

extend type IamApiKeyRotateResult {
  "The key as it is now. Scope: admin.users.read."
  api_key: ApiKey
}

extend type IamApiKeyRevokeResult {
  "The key as it is now. Scope: admin.users.read."
  api_key: ApiKey
}

extend type AdminUserInviteResult {
  "The operator invited. Scope: admin.users.read."
  operator: Operator
}

extend type AdminUserUpdateResult {
  "The operator as it is now. Scope: admin.users.read."
  operator: Operator
}

extend type AdminUserDeactivateResult {
  "The operator as it is now. Scope: admin.users.read."
  operator: Operator
}

extend type WebhookSubscriptionCreateResult {
  "The subscription created (never its secret beyond the result's own). Scope: webhooks.read."
  webhook_subscription: WebhookSubscription
}

extend type WebhookSubscriptionRotateSecretResult {
  "The subscription as it is now. Scope: webhooks.read."
  webhook_subscription: WebhookSubscription
}

extend type WebhookDeliveryRetryResult {
  "The delivery as it is now. Scope: webhooks.read."
  webhook_delivery: WebhookDelivery
}`;
