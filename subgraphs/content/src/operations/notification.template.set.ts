import { storeOfTenant } from '@backoffice/contracts';
import { conflict, t, validationFailed } from '@backoffice/platform';
import { FIELD_VALUE_MAX, channelKeyField, channelOf, checkTemplate, localeField, messageType, typeKeyField, missingRequired } from '../domain/notifications';
import { notificationConfigUpdated } from '../events';
import { defineContentOperation } from '../ports';

/** Sets the template of one message type for one channel and locale, tenant-wide or for one store (extension). */
export const notificationTemplateSet = defineContentOperation({
  name: 'notification.template.set',
  kind: 'command',
  access: 'internal',
  scope: 'tenant.settings.write',
  summary:
    'Sets the template of a message type for a channel and locale, for the whole tenant (store_id null) or one ' +
    "store: fields named by the channel's variant_schema (strings; a select field takes one of its options; " +
    'template fields are Handlebars, HTML-escaped in html fields). Replaces the whole template (extension).',
  input: t.object({
    type_key: typeKeyField,
    channel_key: channelKeyField,
    locale: localeField,
    store_id: t.optional(t.nullable(t.id('a store of the tenant, by id or handle; null or omitted: the whole tenant'))),
    fields: t.record({ description: "field name → value, names from the channel's variant_schema" }),
  }),
  result: t.object({ type_key: t.string(), channel_key: t.string(), locale: t.string(), store_id: t.nullable(t.string()) }),
  events: [notificationConfigUpdated],
  async handler({ input, actor, db, stage, emit, ports }) {
    const tenantId = actor.tenant_id;
    messageType(input.type_key);
    const channel = await channelOf(db, tenantId, input.channel_key);
    const storeId = input.store_id ? await storeOfTenant(ports.stores, tenantId, input.store_id) : null;
    const fields: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.fields)) {
      const declared = channel.variant_schema.find((f) => f.name === name);
      if (!declared)
        throw validationFailed(`fields.${name} is not a field of channel ${channel.key}: ${channel.variant_schema.map((f) => f.name).join(', ')}`, {
          reason: 'unknown_field',
          field: `fields.${name}`,
        });
      if (typeof value !== 'string') throw validationFailed(`fields.${name} must be a string`, { field: `fields.${name}` });
      if (value.length > FIELD_VALUE_MAX)
        throw validationFailed(`fields.${name} is longer than ${FIELD_VALUE_MAX} characters`, { reason: 'too_long', field: `fields.${name}` });
      if (declared.type === 'select' && !declared.options?.some((o) => o.value === value))
        throw validationFailed(`fields.${name} must be one of ${declared.options?.map((o) => o.value).join(', ')}`, { field: `fields.${name}` });
      checkTemplate(declared, value);
      fields[name] = value;
    }
    // A template replaces the whole one below it (never mixed field by field): one without a field
    // the channel requires would stop every message of the type at once.
    const missing = missingRequired(channel, { fields, level: storeId ? 'store' : 'tenant', locale: input.locale });
    if (missing.length)
      throw conflict(`the template lacks required field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} of channel ${channel.key}`, {
        reason: 'required',
        field: `fields.${missing[0]}`,
      });
    stage(
      `INSERT INTO content.notification_template (tenant_id, store_key, type_key, channel_key, locale, fields) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, type_key, channel_key, store_key, locale) DO UPDATE SET fields = EXCLUDED.fields, updated_at = clock_timestamp()`,
      [tenantId, storeId ?? '', input.type_key, channel.key, input.locale, JSON.stringify(fields)],
    );
    emit(notificationConfigUpdated, {
      change: 'template',
      channel_key: channel.key,
      type_key: input.type_key,
      store_id: storeId,
      locale: input.locale,
      enabled: null,
    });
    return { type_key: input.type_key, channel_key: channel.key, locale: input.locale, store_id: storeId };
  },
});
