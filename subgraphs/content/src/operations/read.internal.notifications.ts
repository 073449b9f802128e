import { maskPersonal, t } from '@backoffice/platform';
import { NOTIFICATION_STATUSES, notificationOut, notificationView } from '../domain/notification-view';
import { defineContentOperation } from '../ports';
import type { NotificationRow } from '../domain/notification-view';

const pageOfNotifications = t.object({ items: t.array(notificationView), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) });

export const readNotifications = defineContentOperation({
  name: 'read.internal.notifications',
  kind: 'read',
  access: 'internal',
  scope: 'notifications.read',
  summary:
    "The tenant's notification records, newest first: type, channel, recipient (masked without pii.read), sender name and reply-to, status (pending, sent, failed) and attempts, the record it resends; filters type_key and status.",
  restPath: '/internal/notifications',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'internal'],
  input: t.object({
    type_key: t.optional(t.string({ minLength: 1, maxLength: 64 })),
    status: t.optional(t.enum(NOTIFICATION_STATUSES)),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOfNotifications,
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const values: unknown[] = [actor.tenant_id];
    const where = ['tenant_id = $1'];
    if (input.type_key) where.push(`type_key = $${values.push(input.type_key)}`);
    if (input.status) where.push(`status = $${values.push(input.status)}`);
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = (await Promise.all([
      db.query(`SELECT * FROM content.notification WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`, values),
      db.query(`SELECT count(*)::int AS total FROM content.notification WHERE ${filter}`, values),
    ])) as [NotificationRow[], Array<{ total: number }>];
    const result = { items: rows.map(notificationOut), page, limit, total };
    return actor.scopes.includes('pii.read') ? result : maskPersonal(pageOfNotifications, result);
  },
});
