import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

/** One message as the pipeline hands it to the transport. */
export interface OutgoingMail {
  from: { name: string; address: string };
  replyTo: string;
  to: { name: string | null; address: string };
  subject: string;
  html: string | null;
  text: string | null;
}

/**
 * How mail leaves the instance: SMTP when SMTP_URL (or SMTP_HOST, SMTP_PORT, SMTP_USER,
 * SMTP_PASSWORD) is set, `.eml` files under DATA_DIR/mail otherwise. The transport credential comes
 * from the environment only, never from a command.
 */
export interface Mailer {
  /** The instance's sending address (MAIL_FROM): every message's From, and the reply-to of last resort. */
  readonly from: string;
  /** For the start banner, without a password. */
  readonly description: string;
  /** The base delay of a failed send's retries (NOTIFICATION_RETRY_DELAY_SECONDS, default 30; doubled with jitter). */
  readonly retryDelaySeconds: number;
  send(mail: OutgoingMail): Promise<{ message_id: string }>;
  close(): void;
}

export const DEFAULT_MAIL_FROM = 'no-reply@localhost';

/** The mailer the environment describes (read once, when content starts). */
export function mailerFromEnv(env: NodeJS.ProcessEnv = process.env): Mailer {
  const from = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  const delay = Number(env.NOTIFICATION_RETRY_DELAY_SECONDS);
  const retryDelaySeconds = Number.isFinite(delay) && delay >= 1 ? Math.floor(delay) : 30;
  const port = Number(env.SMTP_PORT ?? 587);
  const smtp = env.SMTP_URL?.trim()
    ? { options: env.SMTP_URL.trim(), description: `SMTP ${redacted(env.SMTP_URL.trim())}` }
    : env.SMTP_HOST?.trim()
      ? {
          options: {
            host: env.SMTP_HOST.trim(),
            port,
            secure: port === 465,
            auth: env.SMTP_USER ? { user: env.SMTP_USER, pass: env.SMTP_PASSWORD ?? '' } : undefined,
          },
          description: `SMTP ${env.SMTP_HOST.trim()}:${port}`,
        }
      : null;
  if (smtp) {
    // One call per overload: nodemailer types a URL and an options object apart.
    const transport = typeof smtp.options === 'string' ? nodemailer.createTransport(smtp.options) : nodemailer.createTransport(smtp.options);
    return {
      from,
      retryDelaySeconds,
      description: smtp.description,
      async send(mail) {
        const info = (await transport.sendMail(message(mail))) as { messageId: string };
        return { message_id: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const dir = join(resolve(env.DATA_DIR ?? './.data'), 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    from,
    retryDelaySeconds,
    description: `no SMTP configured (SMTP_URL or SMTP_HOST): messages are written as .eml files under ${dir}`,
    async send(mail) {
      const info = (await transport.sendMail(message(mail))) as { messageId: string; message: Buffer };
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`), info.message, { mode: 0o600 });
      return { message_id: info.messageId };
    },
    close: () => transport.close(),
  };
}

function message(mail: OutgoingMail) {
  return {
    from: { name: mail.from.name, address: mail.from.address },
    replyTo: mail.replyTo,
    to: mail.to.name ? { name: mail.to.name, address: mail.to.address } : mail.to.address,
    subject: mail.subject,
    ...(mail.html !== null ? { html: mail.html } : {}),
    ...(mail.text !== null ? { text: mail.text } : {}),
  };
}

function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'smtp (SMTP_URL)';
  }
}
