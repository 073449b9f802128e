import { conflict, newId, t, sqlOf } from '@backoffice/platform';
import { MESSAGE_TYPES } from '../domain/notifications';
import { notificationResendRequested } from '../events';
import { defineContentOperation } from '../ports';
import { notificationSend } from '../tasks/notification.send';
import type { NotificationRow } from '../domain/notification-view';

/** Sends a recorded message again from its snapshot: a new record, linked to the original, delivered after commit with retries. */
export const notificationResend = defineContentOperation({
  name: 'notification.resend',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary:
    'Sends a message again, repeating its recorded snapshot (recipient, sender name, reply-to, subject and bodies), ' +
    'never re-rendering the current template: a NEW record linked by resent_from, delivered just after commit and ' +
    'retried. Refused with conflict for a record whose body was never stored (an authentication code), or that does ' +
    'not exist in the tenant.',
  input: t.object({ notification_id: t.id() }),
  result: t.object({ notification_id: t.string({ description: 'the new record' }), type_key: t.string(), channel_key: t.string(), requested: t.boolean() }),
  events: [notificationResendRequested],
  async handler({ input, actor, db, stage, emit, enqueue }) {
    const tenantId = actor.tenant_id;
    const [original] = await sqlOf(db).rows<NotificationRow>(`SELECT * FROM content.notification WHERE tenant_id = $1 AND id = $2 FOR SHARE`, [
      tenantId,
      input.notification_id,
    ]);
    if (!original) throw conflict(`notification ${input.notification_id} does not exist in this tenant`, { reason: 'not_found', field: 'notification_id' });
    if (original.subject === null && original.body_html === null && original.body_text === null) {
      const why = MESSAGE_TYPES[original.type_key]?.authentication
        ? 'an authentication code is never repeated; ask for a new one'
        : 'it was never rendered (its last_error says why)';
      throw conflict(`notification ${original.id} (${original.type_key}) has no stored body: ${why}`, { reason: 'not_applicable' });
    }
    const id = newId('ntf');
    stage(
      `INSERT INTO content.notification (id, tenant_id, store_id, type_key, channel_key, locale, event_id, source_ref, recipient, recipient_name, sender_name, reply_to,
         subject, body_html, body_text, resent_from)
       SELECT $1, tenant_id, store_id, type_key, channel_key, locale, NULL, source_ref, recipient, recipient_name, sender_name, reply_to, subject, body_html, body_text, id
       FROM content.notification WHERE id = $2`,
      [id, original.id],
    );
    enqueue(notificationSend, { notification_id: id });
    emit(notificationResendRequested, { notification_id: id, resent_from: original.id, type_key: original.type_key, channel_key: original.channel_key });
    return { notification_id: id, type_key: original.type_key, channel_key: original.channel_key, requested: true };
  },
});
