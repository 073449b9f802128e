import { t } from '@backoffice/platform';
import type { NotificationTemplate } from '../entities';
import { CHANNEL_FIELDS_MAX, EMAIL_CHANNEL, FIELD_OPTIONS_MAX, FIELD_TYPES, isTemplateField, requiredFields, type Channel } from './notifications';

/** A field of a channel's template, as notification.channel.register declared it. */
const channelField = t.entity('NotificationChannelField', {
  name: t.string(),
  label: t.string(),
  type: t.enum(FIELD_TYPES),
  help: t.nullable(t.string()),
  options: t.nullable(
    t.array(t.object({ value: t.string(), label: t.string() }, { 'x-graphql-name': 'NotificationChannelFieldOption' }), { maxItems: FIELD_OPTIONS_MAX }),
  ),
  required: t.boolean(),
  template: t.boolean({ description: 'the value is a template rendered per message (Handlebars)' }),
});

/** A message channel of the tenant (the built-in `email` included). */
export const channelView = t.entity('NotificationChannel', {
  channel_key: t.string(),
  label: t.string(),
  notice: t.nullable(t.string()),
  extension_id: t.nullable(t.string()),
  built_in: t.boolean({ description: 'email: every tenant has it; it cannot be registered over' }),
  variant_schema: t.array(channelField, { maxItems: CHANNEL_FIELDS_MAX }),
  required_fields: t.array(t.string(), {
    maxItems: CHANNEL_FIELDS_MAX,
    description: 'the fields every template of the channel must fill: notification.template.set refuses one lacking them (conflict)',
  }),
});

export function channelViewOf(channel: Channel) {
  return {
    channel_key: channel.key,
    label: channel.label,
    notice: channel.notice,
    extension_id: channel.extension_id,
    built_in: channel.key === EMAIL_CHANNEL.key,
    variant_schema: channel.variant_schema.map((f) => ({
      name: f.name,
      label: f.label,
      type: f.type,
      help: f.help ?? null,
      options: f.options ?? null,
      required: f.required ?? false,
      template: isTemplateField(f),
    })),
    required_fields: requiredFields(channel),
  };
}

/** A template the tenant set for a message type, channel and locale, tenant-wide or for one store (the shipped defaults are not listed). */
export const templateView = t.entity('NotificationTemplate', {
  channel_key: t.string(),
  type_key: t.string(),
  locale: t.string(),
  store_id: t.nullable(t.string({ description: 'null: the whole tenant' })),
  fields: t.record({ description: "field name → value, names from the channel's variant_schema" }),
  updated_at: t.timestamp(),
});

export type TemplateRow = Omit<NotificationTemplate, 'tenant_id'>;

export function templateViewOf(row: TemplateRow) {
  return {
    channel_key: row.channel_key,
    type_key: row.type_key,
    locale: row.locale,
    store_id: row.store_key || null,
    fields: row.fields,
    updated_at: row.updated_at.toISOString(),
  };
}
