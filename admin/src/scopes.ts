/**
 * Every scope a key can carry, in the order identity declares them (subgraphs/identity/src/domain/scopes.ts,
 * the `scopes` of IamApiKeyCreateInput in schema/api.graphql); test/admin-keys-browser.test.ts checks they agree.
 */
export const KNOWN_SCOPES = [
  'admin.users.write',
  'admin.users.read',
  'audit.read',
  'events.read',
  'tenant.store.write',
  'tenant.settings.write',
  'shipping.write',
  'content.write',
  'content.read',
  'extensions.write',
  'extensions.egress.consent',
  'order.read',
  'order.write',
  'inventory.reserve',
  'inventory.write',
  'payments.write',
  'promotions.write',
  'catalog.admin.read',
  'catalog.product.write',
  'catalog.sku.write',
  'composition.write',
  'logistics.read',
  'notifications.read',
  'pii.read',
  'webhooks.write',
  'webhooks.read',
] as const;

/** Who sees the developers' screens (API keys, webhooks, audit log): operators who may manage keys, owners by their role. */
export const DEVELOPER_SCOPE = 'admin.users.write';

/** Who sees Settings → Notifications: what its reads need (owners and admins; each control asks its command's own scope). */
export const NOTIFICATIONS_SCOPE = 'notifications.read';
