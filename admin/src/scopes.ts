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

/** Who sees Settings → Institutional pages (listing them needs it; changing them, content.write). */
export const PAGES_READ = 'content.read';

/** Who sees Settings → Operators (listing them needs it; inviting and changing them, admin.users.write). */
export const OPERATORS_READ = 'admin.users.read';

/** Settings → Shipping: read with logistics.read (zones, methods, the quote), changed with shipping.write. */
export const SHIPPING_READ = 'logistics.read';
export const SHIPPING_WRITE = 'shipping.write';

/** Settings → Payments: the apps are read with order.read (they have no read scope of their own); installed, uninstalled and their windows set with payments.write. */
export const PAYMENTS_READ = 'order.read';
export const PAYMENTS_WRITE = 'payments.write';

/** Who sees Settings → Notifications: what its reads need (owners and admins; each control asks its command's own scope). */
export const NOTIFICATIONS_SCOPE = 'notifications.read';
