import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { channelView, channelViewOf } from '../domain/notification-config-view';
import { EMAIL_CHANNEL, type Channel } from '../domain/notifications';
import { defineContentOperation } from '../ports';

/** The tenant's message channels as a Relay connection (GraphQL only): the built-in email and those extensions registered. */
export const adminNotificationChannels = defineContentOperation({
  name: 'admin.notification_channels',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    "The tenant's message channels as a Relay connection, by key unless ordered otherwise: the built-in email and those registered, each " +
    'with its template fields and the ones a template must fill (required_fields); filters key (one channel) and extension_id.',
  connection: { field: 'notification_channels' },
  input: connectionArgs(
    'NotificationChannel',
    ['key', 'label'] as const,
    t.object({
      key: t.optional(t.string({ minLength: 1, maxLength: 64, description: 'one channel, by its key' })),
      extension_id: t.optional(t.string({ minLength: 1, maxLength: 120, description: 'channels this extension registered' })),
    }),
  ),
  result: connectionOf(channelView, 'NotificationChannel'),
  events: [],
  async handler({ input, actor, sql }) {
    // After the values of `from` ($1 to $4).
    const where = conditions([actor.tenant_id, EMAIL_CHANNEL.key, EMAIL_CHANNEL.label, JSON.stringify(EMAIL_CHANNEL.variant_schema)]).add`true`;
    if (input.filter?.key) where.add`c.key = ${input.filter.key}`;
    if (input.filter?.extension_id) where.add`c.extension_id = ${input.filter.extension_id}`;
    const page = await sql.connection<Channel>(
      {
        select: 'c.key, c.label, c.notice, c.extension_id, c.variant_schema',
        // The built-in channel is no row of the table: it is listed beside the registered ones (it cannot be registered over).
        from: `(SELECT key, label, notice, extension_id, variant_schema FROM content.notification_channel WHERE tenant_id = $1
                UNION ALL SELECT $2, $3, NULL, NULL, $4::jsonb) c`,
        where: where.sql,
        params: where.params,
        sorts: { key: { sql: 'c.key', type: 'text' }, label: { sql: 'c.label', type: 'text' } },
        defaultOrder: { field: 'key', direction: 'ASC' },
        id: 'c.key',
      },
      input,
    );
    return mapNodes(page, channelViewOf);
  },
});
