import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks headers of one delivery: `webhook-id` (the event id, stable across retries),
 * `webhook-timestamp` (seconds), `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * for each live secret, space-separated: during a rotation both the new and the old one sign).
 */
export function signedHeaders(id: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
}
