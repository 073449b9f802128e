import type { NotificationRow } from '../domain/notification-view';
import { task, sqlOf } from '@backoffice/platform';
import { EMAIL_CHANNEL, MESSAGE_TYPES, missingRequired, render, resolveTemplate, senderOf } from '../domain/notifications';
import type { ContentPorts } from '../ports';

/** 9 attempts: the first, then 8 retries from NOTIFICATION_RETRY_DELAY_SECONDS (30 s) doubling with jitter (about 2 to 4 hours in all). */
export const NOTIFICATION_RETRY_LIMIT = 8;

/**
 * Sends one notification record by email. Its snapshot is sent as recorded; an authentication code
 * has none: its code is opened from identity's handoff and its template rendered now, never stored.
 * Every attempt is counted; a failure is thrown so the bus retries it, until the last attempt marks
 * the record failed.
 */
export const notificationSend = task<{ notification_id: string }, ContentPorts>(
  'notification.send',
  (ports) => ({ limit: NOTIFICATION_RETRY_LIMIT, delaySeconds: ports.mail.retryDelaySeconds, backoff: true }),
  async ({ data, lastAttempt, dataSource, ports }) => {
    const [row] = await sqlOf(dataSource).rows<NotificationRow>(`SELECT * FROM content.notification WHERE id = $1`, [data.notification_id]);
    if (row?.status !== 'pending' || row.channel_key !== EMAIL_CHANNEL.key) return;
    const settle = (status: 'pending' | 'sent' | 'failed', error: string | null, messageId: string | null = null) =>
      sqlOf(dataSource).run(
        `UPDATE content.notification SET attempts = attempts + 1, last_attempt_at = now(), status = $2, last_error = $3,
           message_id = coalesce($4, message_id), sent_at = CASE WHEN $2 = 'sent' THEN now() ELSE sent_at END
         WHERE id = $1 AND status = 'pending'`,
        [row.id, status, error?.slice(0, 500) ?? null, messageId],
      );
    try {
      let body = { subject: row.subject ?? '', html: row.body_html, text: row.body_text };
      if (MESSAGE_TYPES[row.type_key]?.authentication) {
        const code = row.source_ref ? await ports.loginCodes.open(row.source_ref) : null;
        if (!code) {
          await settle('failed', 'the login code is no longer usable (expired, used or out of attempts)');
          return;
        }
        const template = await resolveTemplate(dataSource.manager, row.tenant_id, row.store_id, row.type_key, EMAIL_CHANNEL.key, row.locale);
        const missing = missingRequired(EMAIL_CHANNEL, template);
        if (!template || missing.length) throw new Error(`the template lacks ${missing.join(', ')}`);
        const store = row.store_id ? await ports.senders.sender(row.store_id) : null;
        const fields = render(EMAIL_CHANNEL, template.fields, {
          store_name: senderOf(store, ports.mail.from).store_name,
          sender_name: row.sender_name,
          recipient_name: code.name,
          recipient_email: code.email,
          name: code.name,
          code: code.code,
          expires_at: code.expires_at,
          minutes: Math.max(1, Math.round((Date.parse(code.expires_at) - Date.now()) / 60_000)),
        });
        body = { subject: fields.subject ?? '', html: fields.html ?? null, text: fields.text ?? null };
      }
      const sent = await ports.mail.send({
        from: { name: row.sender_name, address: ports.mail.from },
        replyTo: row.reply_to,
        to: { name: row.recipient_name, address: row.recipient },
        subject: body.subject,
        html: body.html,
        text: body.text,
      });
      await settle('sent', null, sent.message_id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A definitive refusal (an SMTP 5xx, which nodemailer marks permanent) is not tried again.
      const final = lastAttempt || (error as { permanent?: boolean }).permanent === true;
      await settle(final ? 'failed' : 'pending', message);
      if (!final) throw error instanceof Error ? error : new Error(message);
    }
  },
);
