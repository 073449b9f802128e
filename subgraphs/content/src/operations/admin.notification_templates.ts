import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { templateView, templateViewOf, type TemplateRow } from '../domain/notification-config-view';
import { defineContentOperation } from '../ports';

/** The templates the tenant set, as a Relay connection (GraphQL only); the shipped defaults of email are not rows and are not listed. */
export const adminNotificationTemplates = defineContentOperation({
  name: 'admin.notification_templates',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    'The templates the tenant set (notification.template.set) as a Relay connection, by message type, channel, store and locale unless ordered ' +
    'otherwise; filters channel_key, type_key, store_id (a store’s own; null: tenant-wide ones) and locale.',
  connection: { field: 'notification_templates' },
  input: connectionArgs(
    'NotificationTemplate',
    ['type_key', 'updated_at'] as const,
    t.object({
      channel_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
      type_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
      store_id: t.optional(t.nullable(t.id('a store’s own templates; null: the tenant-wide ones'))),
      locale: t.optional(t.string({ minLength: 2, maxLength: 35 })),
    }),
  ),
  result: connectionOf(templateView, 'NotificationTemplate'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`t.tenant_id = ${actor.tenant_id}`;
    const { channel_key, type_key, store_id, locale } = input.filter ?? {};
    if (channel_key) where.add`t.channel_key = ${channel_key}`;
    if (type_key) where.add`t.type_key = ${type_key}`;
    if (store_id !== undefined) where.add`t.store_key = ${store_id ?? ''}`;
    if (locale) where.add`t.locale = ${locale}`;
    // The primary key within the tenant, as one unique text (a JSON array: no two keys give the same text).
    const key = 'jsonb_build_array(t.type_key, t.channel_key, t.store_key, t.locale)::text';
    const page = await sql.connection<TemplateRow>(
      {
        select: 't.store_key, t.type_key, t.channel_key, t.locale, t.fields, t.updated_at',
        from: 'content.notification_template t',
        where: where.sql,
        params: where.params,
        sorts: { type_key: { sql: key, type: 'text' }, updated_at: { sql: 't.updated_at', type: 'timestamptz' } },
        defaultOrder: { field: 'type_key', direction: 'ASC' },
        id: key,
      },
      input,
    );
    return mapNodes(page, templateViewOf);
  },
});
