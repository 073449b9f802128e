import { defineEvent, t } from '@backoffice/platform';
import { EDITABLE } from './domain/pages';

/** Every event content emits, with its payload. Events go only to the tenant's own consumers and subscribers. */

// Pages: payloads name the page, never who changed it (the envelope's actor_id does).

export const pageCreated = defineEvent(
  'content.page.created',
  t.object({ page_id: t.string(), store_id: t.string(), slug: t.string(), title: t.string(), template_key: t.string(), published: t.boolean() }),
  'An institutional page was registered.',
);

export const pageUpdated = defineEvent(
  'content.page.updated',
  t.object({
    page_id: t.string(),
    store_id: t.string(),
    slug: t.string(),
    published: t.boolean(),
    changed: t.array(t.enum(EDITABLE), { minItems: 1, description: 'the fields whose value changed' }),
  }),
  'An institutional page changed (only when a value changed).',
);

export const pageArchived = defineEvent(
  'content.page.archived',
  t.object({ page_id: t.string(), store_id: t.string(), slug: t.string() }),
  'An institutional page was archived: no longer served to the storefront, listed only when archived pages are asked for.',
);

export const pageUnarchived = defineEvent(
  'content.page.unarchived',
  t.object({ page_id: t.string(), store_id: t.string(), slug: t.string(), published: t.boolean() }),
  'An archived institutional page was brought back.',
);

export const pageEvents = [pageCreated, pageUpdated, pageArchived, pageUnarchived];

// Extensions and composition. The vault (extension.connection.set, .revoke) emits nothing: a
// credential must never come near an event (reference section 6).
const MANIFEST_COMPONENT = t.object({ component: t.string(), slot: t.string(), position: t.integer() });

export const manifestRegistered = defineEvent(
  'extension.manifest.registered',
  t.object({
    extension_id: t.string(),
    components: t.array(MANIFEST_COMPONENT),
    created: t.boolean({ description: 'first registration of the extension in the tenant' }),
    dropped_placements: t.integer({ minimum: 0, description: 'placements of components the manifest no longer has, deleted with it' }),
  }),
  "An extension's manifest was registered, or registered again with other components (only when it changed).",
);

export const compositionUpdated = defineEvent(
  'composition.updated',
  t.object({
    store_id: t.string(),
    extension_id: t.string(),
    component: t.string(),
    change: t.enum(['placed', 'removed'] as const, { description: 'a placement was set (created or moved), or deleted' }),
    placement_id: t.string({ description: 'the placement set or deleted' }),
    slot: t.nullable(
      t.string({ description: 'where the hook sits now: the placement, or after a removal its manifest default (null: no longer in the manifest)' }),
    ),
    position: t.nullable(t.integer()),
  }),
  "A store's composition changed: a hook was placed, moved, or returned to its manifest default (only when something changed).",
);

export const compositionEvents = [manifestRegistered, compositionUpdated];

// Notifications. Payloads never carry a recipient or a rendered body.
export const notificationConfigUpdated = defineEvent(
  'notification.config.updated',
  t.object({
    change: t.enum(['channel', 'enabled', 'template'] as const, {
      description: 'a channel registered (or again), a channel turned on or off for a type, or a template set',
    }),
    channel_key: t.string(),
    type_key: t.nullable(t.string()),
    store_id: t.nullable(t.string({ description: 'null: the whole tenant' })),
    locale: t.nullable(t.string()),
    enabled: t.nullable(t.boolean()),
  }),
  "The tenant's notification configuration changed: a channel's declaration, a channel's enablement for a message type, or a template.",
);

export const notificationResendRequested = defineEvent(
  'notification.resend_requested',
  t.object({ notification_id: t.string({ description: 'the new record' }), resent_from: t.string(), type_key: t.string(), channel_key: t.string() }),
  'A sent message is sent again from its recorded snapshot (a new record, delivered after commit with retries).',
);

export const notificationEvents = [notificationConfigUpdated, notificationResendRequested];

/** Every event of the content subgraph. */
export const contentEvents = [...pageEvents, ...compositionEvents, ...notificationEvents];
