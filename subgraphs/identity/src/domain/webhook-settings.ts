import { deploymentKey, payloadSchemas, SecretBox, type EventDeclaration, type TSchema } from '@backoffice/platform';
import { targetPolicy, type TargetPolicy } from './webhook-target';

/** What webhook subscriptions and deliveries need from the deployment. */
export interface WebhookSettings {
  /** Seals signing secrets at rest. */
  secrets: SecretBox;
  /** Where deliveries may go (WEBHOOK_ALLOW_INSECURE, WEBHOOK_ALLOW_PRIVATE). */
  policy: TargetPolicy;
  /** Every event type declared in the system: what `event_types` may name (`*`: all of them). */
  eventTypes: readonly string[];
  /** Each declared event type's payload schema: what a delivery masks the personal fields of. */
  payloads: ReadonlyMap<string, TSchema>;
  /** The first retry's base delay, doubling after (WEBHOOK_RETRY_DELAY_SECONDS, default 20: about 3 days over 13 retries). */
  retryDelaySeconds: number;
}

/**
 * The key that seals signing secrets: WEBHOOK_SECRET_KEY (at least 32 characters; required when
 * subgraphs run as separate processes, which must share it), otherwise a key generated once into
 * `<DATA_DIR>/webhook-secret.key` (mode 0600) for a single-process installation. Losing the key
 * makes stored secrets unreadable: subscriptions must then rotate their secret.
 */
export function webhookSecretKey(env = process.env): string {
  return deploymentKey(
    { variable: 'WEBHOOK_SECRET_KEY', file: 'webhook-secret.key', problem: (key) => (key.length < 32 ? 'must have at least 32 characters' : null) },
    env,
  );
}

/** The settings, given every event declaration of the system (the catalog subscriptions choose from). */
export function webhookSettings(events: ReadonlyArray<Pick<EventDeclaration, 'name'> & { payload: object }>, env = process.env): WebhookSettings {
  const delay = Number(env.WEBHOOK_RETRY_DELAY_SECONDS || 20);
  if (!Number.isInteger(delay) || delay < 1 || delay > 3600) throw new Error('WEBHOOK_RETRY_DELAY_SECONDS must be a whole number of seconds from 1 to 3600');
  const payloads = payloadSchemas(events);
  return { secrets: new SecretBox(webhookSecretKey(env)), policy: targetPolicy(env), eventTypes: [...payloads.keys()], payloads, retryDelaySeconds: delay };
}
