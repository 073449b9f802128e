import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { SecretBox } from './secret-box';
import { targetPolicy, type TargetPolicy } from './target';
import { dataDir } from '../db/locate';

/** What webhook subscriptions and deliveries need from the deployment. */
export interface WebhookSettings {
  /** Seals signing secrets at rest. */
  secrets: SecretBox;
  /** Where deliveries may go (WEBHOOK_ALLOW_INSECURE, WEBHOOK_ALLOW_PRIVATE). */
  policy: TargetPolicy;
  /** Every event type declared in the system: what `event_types` may name (`*`: all of them). */
  eventTypes: readonly string[];
  /** The first retry's base delay, doubling after (WEBHOOK_RETRY_DELAY_SECONDS, default 20: about 3 days over 13 retries). */
  retryDelaySeconds: number;
}

const KEY_FILE = 'webhook-secret.key';

/**
 * The key that seals signing secrets: WEBHOOK_SECRET_KEY (at least 32 characters; required when
 * subgraphs run as separate processes, which must share it), otherwise a key generated once into
 * `<DATA_DIR>/webhook-secret.key` (mode 0600) for a single-process installation. Losing the key
 * makes stored secrets unreadable: subscriptions must then rotate their secret.
 */
export function webhookSecretKey(env = process.env): string {
  const given = env.WEBHOOK_SECRET_KEY;
  if (given !== undefined && given !== '') {
    if (given.length < 32) throw new Error('WEBHOOK_SECRET_KEY must have at least 32 characters');
    return given;
  }
  const dir = env.DATA_DIR ? resolve(env.DATA_DIR) : dataDir();
  const file = join(dir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // `wx`: two processes starting at once do not overwrite each other's key.
    try {
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    chmodSync(file, 0o600);
  }
  return readFileSync(file, 'utf8').trim();
}

export function webhookSettings(eventTypes: readonly string[], env = process.env): WebhookSettings {
  const delay = Number(env.WEBHOOK_RETRY_DELAY_SECONDS || 20);
  if (!Number.isInteger(delay) || delay < 1 || delay > 3600) throw new Error('WEBHOOK_RETRY_DELAY_SECONDS must be a whole number of seconds from 1 to 3600');
  return { secrets: new SecretBox(webhookSecretKey(env)), policy: targetPolicy(env), eventTypes, retryDelaySeconds: delay };
}
