import { connectionArgs, connectionOf, mapNodes, maskPersonal, t } from '@backoffice/platform';
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
    const params: unknown[] = [actor.tenant_id];
    const where = ['n.tenant_id = $1'];
    const { type_key, channel_key, status, store_id } = input.filter ?? {};
    if (type_key) where.push(`n.type_key = $${params.push(type_key)}`);
    if (channel_key) where.push(`n.channel_key = $${params.push(channel_key)}`);
    if (status) where.push(`n.status = $${params.push(status)}`);
    if (store_id) where.push(`n.store_id = $${params.push(store_id)}`);
    const page = await sql.connection<NotificationRow>(
      {
        list: 'notifications',
        select: 'n.*',
        from: 'content.notification n',
        where: where.join(' AND '),
        params,
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
