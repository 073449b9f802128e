import { storeOfTenant } from '@backoffice/contracts';
import { conflict, t } from '@backoffice/platform';
import { channelKeyField, channelOf, instanceLocale, localeField, messageType, missingRequired, resolveTemplate, typeKeyField } from '../domain/notifications';
import { notificationConfigUpdated } from '../events';
import { defineContentOperation } from '../ports';

/** Turns one channel on or off for one message type, tenant-wide or for one store. */
export const notificationChannelSetEnabled = defineContentOperation({
  name: 'notification.channel.set_enabled',
  kind: 'command',
  access: 'internal',
  scope: 'tenant.settings.write',
  summary:
    'Turns one channel on or off for one message type, for the whole tenant (store_id null) or one store. Turning ' +
    'on is refused (conflict naming each missing field) when the resolved template (store, then tenant, then ' +
    'default; the locale, then its language, then en) lacks a field the channel declares required; turning off ' +
    'succeeds whatever the template (an unknown type, channel or store is still refused). Every type is on by ' +
    'default; admin_user.invited and auth.login_code are always sent by email.',
  input: t.object({
    type_key: typeKeyField,
    channel_key: channelKeyField,
    enabled: t.boolean(),
    store_id: t.optional(t.nullable(t.id('a store of the tenant, by id or handle; null or omitted: the whole tenant'))),
    locale: t.optional(localeField),
  }),
  result: t.object({ type_key: t.string(), channel_key: t.string(), enabled: t.boolean() }),
  events: [notificationConfigUpdated],
  async handler({ input, actor, db, stage, emit, ports }) {
    const tenantId = actor.tenant_id;
    // Omitted: the locale customers' messages are rendered in (the instance's DEFAULT_LOCALE).
    const locale = input.locale ?? instanceLocale();
    // Refused whichever way it turns: an unknown type, an unregistered channel, another tenant's store.
    messageType(input.type_key);
    const channel = await channelOf(db, tenantId, input.channel_key);
    const storeId = input.store_id ? await storeOfTenant(ports.stores, tenantId, input.store_id) : null;
    // Only turning on needs the resolved template to hold every required field.
    if (input.enabled) {
      const missing = missingRequired(channel, await resolveTemplate(db, tenantId, storeId, input.type_key, channel.key, locale));
      if (missing.length) {
        throw conflict(
          `the ${input.type_key} template of channel ${channel.key} (locale ${locale}) lacks required field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
          { reason: 'required', field: 'enabled' },
        );
      }
    }
    // Off always succeeds whatever the template (the reference); the type, channel and store were checked above.
    stage(
      `INSERT INTO content.notification_setting (tenant_id, store_key, type_key, channel_key, enabled) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, type_key, channel_key, store_key) DO UPDATE SET enabled = EXCLUDED.enabled, updated_at = clock_timestamp()`,
      [tenantId, storeId ?? '', input.type_key, input.channel_key, input.enabled],
    );
    emit(notificationConfigUpdated, {
      change: 'enabled',
      channel_key: input.channel_key,
      type_key: input.type_key,
      store_id: storeId,
      locale: input.locale ?? null,
      enabled: input.enabled,
    });
    return { type_key: input.type_key, channel_key: input.channel_key, enabled: input.enabled };
  },
});
