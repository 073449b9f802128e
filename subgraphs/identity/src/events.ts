import { defineEvent, t } from '@backoffice/platform';
import { ALL_SCOPES } from './scopes';

/** Every event identity emits, with its payload. No payload carries a token or its secret. */

export const apiKeyCreated = defineEvent(
  'iam.api_key.created',
  t.object({
    api_key_id: t.string(),
    credential_id: t.string(),
    name: t.string(),
    scopes: t.array(t.enum(ALL_SCOPES)),
    expires_at: t.nullable(t.timestamp()),
  }),
  'An API key (an actor) was created with its first token generation.',
);

export const apiKeyRotated = defineEvent(
  'iam.api_key.rotated',
  t.object({
    api_key_id: t.string(),
    credential_id: t.string({ description: 'the new token generation' }),
    expires_at: t.nullable(t.timestamp()),
    previous_expires_at: t.timestamp(),
    overlap_hours: t.integer({ minimum: 0 }),
  }),
  'A key got a new token generation; earlier generations stop working at previous_expires_at (or earlier).',
);

export const apiKeyRevoked = defineEvent(
  'iam.api_key.revoked',
  t.object({ api_key_id: t.string(), revoked_at: t.timestamp() }),
  'A key was revoked: every token generation stopped working.',
);

const subscriptionPayload = {
  subscription_id: t.string(),
  url: t.string(),
  event_types: t.array(t.string()),
  description: t.nullable(t.string()),
  enabled: t.boolean(),
};

export const webhookSubscriptionCreated = defineEvent(
  'webhook.subscription.created',
  t.object(subscriptionPayload),
  'A webhook subscription was created (its secret is never in an event).',
);

export const webhookSubscriptionUpdated = defineEvent(
  'webhook.subscription.updated',
  t.object({ ...subscriptionPayload, secret_rotated: t.boolean({ description: 'true when the change was a secret rotation' }) }),
  'A webhook subscription changed: its url, event types, description, enabled flag, or its secret (rotated).',
);

export const webhookSubscriptionDeleted = defineEvent('webhook.subscription.deleted', t.object({ subscription_id: t.string() }), 'A webhook subscription was deleted.');

export const webhookSubscriptionDisabled = defineEvent(
  'webhook.subscription.disabled',
  t.object({ subscription_id: t.string(), url: t.string(), failing_since: t.timestamp(), reason: t.string() }),
  'A webhook subscription was disabled after failing for 3 days; enable it again with webhook.subscription.update.',
);

export const identityEvents = [
  apiKeyCreated,
  apiKeyRotated,
  apiKeyRevoked,
  webhookSubscriptionCreated,
  webhookSubscriptionUpdated,
  webhookSubscriptionDeleted,
  webhookSubscriptionDisabled,
];
