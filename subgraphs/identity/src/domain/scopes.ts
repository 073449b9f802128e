import { t } from '@backoffice/platform';

/**
 * Every scope a key can carry, with what it allows. Identity owns this list: a key can be given only
 * these, and a tenant's owner key carries all of them.
 */
export const SCOPES = {
  'admin.users.write': 'Invite, update and deactivate operators; create, rotate and revoke API keys.',
  'admin.users.read': 'Read operators (admin users); their email and name are masked without pii.read.',
  'audit.read': 'Read the audit trail.',
  'events.read': 'Read recorded events and their delivery trail.',
  'tenant.store.write': 'Create and update stores (name, theme, checkout options, host, notification sender).',
  'tenant.settings.write': 'Change tenant settings such as notification channels per message type.',
  'shipping.write': 'Create and change shipping methods and zones.',
  'content.write': 'Create, change, archive and unarchive institutional pages.',
  'content.read': "Read institutional pages, drafts and archived included, and stores' effective composition.",
  'extensions.write': 'Register notification channels, extension manifests and other extension declarations.',
  'extensions.egress.consent': "Arm and revoke an extension's connection credential (owner-gated: the owner key only); list armed connections.",
  'order.read': 'Read orders.',
  'order.write': 'Take, confirm, cancel and mark orders paid, expire unpaid orders, create shipments, tracking and documents, resend notifications.',
  'inventory.reserve': 'Hold, release and commit inventory reservations.',
  'inventory.write': 'Create warehouses and adjust stock on hand.',
  'payments.write': 'Install and uninstall payment apps and set stores’ payment windows.',
  'promotions.write': 'Create coupons.',
  'catalog.admin.read': 'Read the catalog in every status (admin reads).',
  'catalog.product.write': 'Create and change products, options and media.',
  'catalog.sku.write': 'Create and change SKUs.',
  'composition.write': 'Set, remove and reset composition placements.',
  'logistics.read': 'Read logistics configuration (shipping methods, zones, quotes), stock and shipments.',
  'notifications.read': 'Read notification records (messages sent: type, channel, status, attempts); the recipient is masked without pii.read.',
  'pii.read': 'See personal fields unmasked in internal reads.',
  'webhooks.write': 'Create, change, delete webhook subscriptions, rotate their secrets and redeliver.',
  'webhooks.read': 'Read webhook subscriptions and their deliveries.',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/** A key's or session's scopes as a result shows them: at most every scope once. */
export const scopesView = () => t.array(t.string(), { maxItems: ALL_SCOPES.length });
