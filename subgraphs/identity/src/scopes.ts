/**
 * Every scope a key can carry, with what it allows. Identity owns this list: a key can be given only
 * these, and a tenant's owner key carries all of them.
 */
export const SCOPES = {
  'admin.users.write': 'Invite operators; create, rotate and revoke API keys.',
  'audit.read': 'Read the audit trail.',
  'events.read': 'Read recorded events and their delivery trail.',
  'tenant.store.write': 'Update stores.',
  'tenant.settings.write': 'Change tenant settings such as notification channels per message type.',
  'shipping.write': 'Create shipping methods and zones.',
  'content.write': 'Create institutional pages.',
  'content.read': 'Read institutional pages, drafts included.',
  'extensions.write': 'Register notification channels and other extension declarations.',
  'extensions.egress.consent': "Arm an extension's connection credential (owner-gated).",
  'order.read': 'Read orders.',
  'order.write': 'Take, confirm, cancel and mark orders paid, expire unpaid orders, create shipments, tracking and documents, resend notifications.',
  'inventory.reserve': 'Hold, release and commit inventory reservations.',
  'inventory.write': 'Create warehouses and adjust stock on hand.',
  'payments.write': 'Install and uninstall payment apps and set stores’ payment windows.',
  'promotions.write': 'Create coupons.',
  'catalog.admin.read': 'Read the catalog in every status (admin reads).',
  'catalog.product.write': 'Create and change products, options and media.',
  'catalog.sku.write': 'Create SKUs.',
  'composition.write': 'Change composition placements.',
  'logistics.read': 'Read logistics configuration and shipments.',
  'pii.read': 'See personal fields unmasked in internal reads.',
  'webhooks.write': 'Create, change, delete webhook subscriptions, rotate their secrets and redeliver.',
  'webhooks.read': 'Read webhook subscriptions and their deliveries.',
} as const;

export type Scope = keyof typeof SCOPES;
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];
