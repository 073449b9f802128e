import { t } from '@backoffice/platform';
import type { Notification } from '../entities';
/** A row of content.notification (written by the consumer and resend, settled by the send task). */
export type NotificationRow = Notification;

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;
/** A notification's status: one GraphQL enum in the reads and their filter. */
export const notificationStatus = t.enum(NOTIFICATION_STATUSES, { name: 'NotificationStatus' });

/** A notification record as reads show it, the federation entity `Notification`; the recipient is personal (masked without pii.read). */
export const notificationView = t.entity(
  'Notification',
  {
    notification_id: t.string(),
    type_key: t.string(),
    channel_key: t.string(),
    store_id: t.nullable(t.string()),
    locale: t.string(),
    recipient: t.string({ personal: true }),
    recipient_name: t.nullable(t.string({ personal: true })),
    sender_name: t.string(),
    reply_to: t.string(),
    status: notificationStatus,
    attempts: t.integer({ minimum: 0 }),
    // Personal: an SMTP server's refusal names the recipient (`550 <bob@example.com>: unknown`).
    last_error: t.nullable(t.string({ personal: true })),
    resent_from: t.nullable(t.string()),
    body_stored: t.boolean({ description: 'false for an authentication code: no snapshot, cannot be resent' }),
    created_at: t.timestamp(),
    sent_at: t.nullable(t.timestamp()),
  },
  'notification_id',
);

export const notificationDetail = t.object({
  ...notificationView.properties,
  subject: t.nullable(t.string({ personal: true, description: 'rendered: may hold personal variables' })),
  body_html: t.nullable(t.string({ personal: true })),
  body_text: t.nullable(t.string({ personal: true })),
});

export function notificationOut(row: NotificationRow) {
  return {
    notification_id: row.id,
    type_key: row.type_key,
    channel_key: row.channel_key,
    store_id: row.store_id,
    locale: row.locale,
    recipient: row.recipient,
    recipient_name: row.recipient_name,
    sender_name: row.sender_name,
    reply_to: row.reply_to,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    resent_from: row.resent_from,
    body_stored: row.subject !== null || row.body_html !== null || row.body_text !== null,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
  };
}
