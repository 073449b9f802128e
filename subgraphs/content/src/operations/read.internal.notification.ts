import { maskPersonal, notFound, t, sqlOf } from '@backoffice/platform';
import { notificationDetail, notificationOut } from '../domain/notification-view';
import { defineContentOperation } from '../ports';
import type { NotificationRow } from '../domain/notification-view';

export const readInternalNotification = defineContentOperation({
  name: 'read.internal.notification',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    'One notification record with its snapshot (subject and bodies; null for an authentication code, whose body is never stored); recipient and bodies masked without pii.read (extension).',
  restPath: '/internal/notification',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({ notification_id: t.id() }),
  result: notificationDetail,
  events: [],
  async handler({ input, actor, db }) {
    const [row] = await sqlOf(db).rows<NotificationRow>(`SELECT * FROM content.notification WHERE tenant_id = $1 AND id = $2`, [
      actor.tenant_id,
      input.notification_id,
    ]);
    if (!row) throw notFound(`notification ${input.notification_id} does not exist`, { field: 'notification_id' });
    const result = { ...notificationOut(row), subject: row.subject, body_html: row.body_html, body_text: row.body_text };
    return actor.scopes.includes('pii.read') ? result : maskPersonal(notificationDetail, result);
  },
});
