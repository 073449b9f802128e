import { connectionArgs, connectionOf, mapNodes, maskPersonal, t, conditions } from '@backoffice/platform';
import { notificationOut, notificationStatus, notificationView, type NotificationRow } from '../domain/notification-view';
import { defineContentOperation } from '../ports';

/** The tenant's notification records as a Relay connection (GraphQL only): `read.internal.notifications` stays the paged read of REST. */
export const adminNotifications = defineContentOperation({
  name: 'admin.notifications',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    "The tenant's notification records as a Relay connection, newest first unless ordered otherwise; filters type_key, channel_key, status and " +
    'store_id; the recipient is masked without pii.read.',
  connection: { field: 'notifications' },
  input: connectionArgs(
    'Notification',
    ['created_at'] as const,
    t.object({
      type_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
      channel_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
      status: t.optional(notificationStatus),
      store_id: t.optional(t.id()),
    }),
  ),
  result: connectionOf(notificationView, 'Notification'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`n.tenant_id = ${actor.tenant_id}`;
    const { type_key, channel_key, status, store_id } = input.filter ?? {};
    if (type_key) where.add`n.type_key = ${type_key}`;
    if (channel_key) where.add`n.channel_key = ${channel_key}`;
    if (status) where.add`n.status = ${status}`;
    if (store_id) where.add`n.store_id = ${store_id}`;
    const page = await sql.connection<NotificationRow>(
      {
        select: 'n.*',
        from: 'content.notification n',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'n.created_at', type: 'timestamptz' } },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'n.id',
      },
      input,
    );
    const pii = actor.scopes.includes('pii.read');
    return mapNodes(page, (row) => (pii ? notificationOut(row) : maskPersonal(notificationView, notificationOut(row))));
  },
});
