import { maskPersonal, t, pageOf, conditions } from '@backoffice/platform';
import { notificationStatus, notificationOut, notificationView } from '../domain/notification-view';
import { defineContentOperation } from '../ports';
import type { NotificationRow } from '../domain/notification-view';

const pageOfNotifications = pageOf(notificationView);

export const readInternalNotifications = defineContentOperation({
  name: 'read.internal.notifications',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    "The tenant's notification records, newest first: type, channel, recipient (masked without pii.read), sender " +
    'name and reply-to, status (pending, sent, failed) and attempts, the record it resends; filters type_key and ' +
    'status.',
  restPath: '/internal/notifications',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'internal'],
  input: t.object({
    type_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
    status: t.optional(notificationStatus),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOfNotifications,
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`tenant_id = ${actor.tenant_id}`;
    if (input.type_key) where.add`type_key = ${input.type_key}`;
    if (input.status) where.add`status = ${input.status}`;
    const page = await sql.page<NotificationRow>(
      { select: '*', from: 'content.notification', where: where.sql, orderBy: 'created_at DESC, id DESC', params: where.params },
      input,
    );
    const result = { ...page, items: page.items.map(notificationOut) };
    return actor.scopes.includes('pii.read') ? result : maskPersonal(pageOfNotifications, result);
  },
});
