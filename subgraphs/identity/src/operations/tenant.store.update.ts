import { defineOperation, t } from '@backoffice/platform';
import {
  assertHostFree,
  EMPTY_OR_EMAIL_PATTERN,
  hostOf,
  lockStore,
  REPLY_TO_MAX_LENGTH,
  SENDER_NAME_MAX_LENGTH,
  STORE_NAME_MAX_LENGTH,
  THEME_KEY_MAX_LENGTH,
} from '../domain/stores';
import { STORE_FIELDS, storeUpdated } from '../events';
import { HOST_INPUT_MAX_LENGTH } from '@backoffice/contracts';
import { notifyStoreChanged } from '../domain/store-directory';

type Field = (typeof STORE_FIELDS)[number];

/**
 * Partial update of one of the tenant's stores. `host`, `notification_sender_name` and
 * `notification_reply_to` are cleared by an empty string; a host is stored normalized and is unique
 * across tenants. The event, and the notification that makes every process's store directory
 * forget the store, happen only when a value changed.
 */
export const tenantStoreUpdate = defineOperation({
  name: 'tenant.store.update',
  kind: 'command',
  access: 'internal',
  scope: 'tenant.store.write',
  summary:
    'Changes a store: name, theme_key (an unknown key is accepted; the storefront falls back to `default`), guest ' +
    "and masked checkout, host (normalized: lower case, no port, no trailing dot; unique across tenants; '' takes " +
    "the store off routing), notification_sender_name and notification_reply_to ('' clears them). Omitted fields " +
    'keep their value.',
  input: t.object({
    id: t.id("the store's id or handle"),
    name: t.optional(t.string({ minLength: 1, maxLength: STORE_NAME_MAX_LENGTH })),
    theme_key: t.optional(
      t.string({ minLength: 1, maxLength: THEME_KEY_MAX_LENGTH, description: 'an unknown key is accepted: the storefront falls back to `default`' }),
    ),
    guest_checkout_enabled: t.optional(t.boolean()),
    masked_checkout_enabled: t.optional(t.boolean()),
    host: t.optional(
      t.string({
        maxLength: HOST_INPUT_MAX_LENGTH,
        description:
          "a host name (stored lower case, without port or trailing dot; at most 200 characters so), unique across tenants; '' clears it (off routing)",
      }),
    ),
    notification_sender_name: t.optional(
      t.string({ maxLength: SENDER_NAME_MAX_LENGTH, description: "'' clears it (falls back to the store's name, then the tenant's)" }),
    ),
    notification_reply_to: t.optional(
      t.string({
        maxLength: REPLY_TO_MAX_LENGTH,
        pattern: EMPTY_OR_EMAIL_PATTERN,
        description: "an email address, or '' to clear it (falls back to the instance's address)",
      }),
    ),
  }),
  result: t.object({ id: t.string() }),
  events: [storeUpdated],
  async handler({ input, actor, db, stage, emit }) {
    // Checked before any lock: a malformed host is the caller's mistake whatever the store.
    const host = input.host === undefined ? undefined : hostOf(input.host);
    const store = await lockStore(db, actor, input.id);
    const next = {
      name: input.name ?? store.name,
      theme_key: input.theme_key ?? store.theme_key,
      guest_checkout_enabled: input.guest_checkout_enabled ?? store.guest_checkout_enabled,
      masked_checkout_enabled: input.masked_checkout_enabled ?? store.masked_checkout_enabled,
      host: host === undefined ? store.host : host,
      notification_sender_name: input.notification_sender_name === undefined ? store.notification_sender_name : input.notification_sender_name || null,
      notification_reply_to: input.notification_reply_to === undefined ? store.notification_reply_to : input.notification_reply_to || null,
    };
    const changed = STORE_FIELDS.filter((field: Field) => next[field] !== store[field]);
    if (!changed.length) return { id: store.id };
    if (changed.includes('host') && next.host) await assertHostFree(db, next.host, store.id);
    // Every process's directory forgets the store at commit (its old host off routing, its new one found).
    await notifyStoreChanged(db, [store.id, store.handle, store.host, next.host]);
    stage(
      `UPDATE identity.store SET name = $2, theme_key = $3, guest_checkout_enabled = $4, masked_checkout_enabled = $5, host = $6,
         notification_sender_name = $7, notification_reply_to = $8, updated_at = now() WHERE id = $1`,
      [
        store.id,
        next.name,
        next.theme_key,
        next.guest_checkout_enabled,
        next.masked_checkout_enabled,
        next.host,
        next.notification_sender_name,
        next.notification_reply_to,
      ],
    );
    emit(storeUpdated, { store_id: store.id, handle: store.handle, changed: [...changed], previous_host: store.host, ...next });
    return { id: store.id };
  },
});
