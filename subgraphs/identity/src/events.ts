import { defineEvent, t } from '@backoffice/platform';
import { tenantCreated } from '@backoffice/contracts';
import { ALL_SCOPES } from './domain/scopes';

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
  personal_data: t.boolean({ description: 'personal fields of payloads delivered in clear (true) or masked (false)' }),
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

export const webhookSubscriptionDeleted = defineEvent(
  'webhook.subscription.deleted',
  t.object({ subscription_id: t.string() }),
  'A webhook subscription was deleted.',
);

export const webhookSubscriptionDisabled = defineEvent(
  'webhook.subscription.disabled',
  t.object({ subscription_id: t.string(), url: t.string(), failing_since: t.timestamp(), reason: t.string() }),
  'A webhook subscription was disabled after failing for 3 days; enable it again with webhook.subscription.update.',
);

export const STORE_FIELDS = [
  'name',
  'theme_key',
  'guest_checkout_enabled',
  'masked_checkout_enabled',
  'host',
  'notification_sender_name',
  'notification_reply_to',
] as const;

export const storeCreated = defineEvent(
  'tenant.store.created',
  t.object({ store_id: t.string(), handle: t.string(), name: t.string() }),
  'A store was created in the tenant (extension); it has no host until tenant.store.update sets one.',
);

export const storeUpdated = defineEvent(
  'tenant.store.updated',
  t.object({
    store_id: t.string(),
    handle: t.string(),
    changed: t.array(t.enum(STORE_FIELDS), { description: 'the fields whose value changed (never empty: an update changing nothing emits no event)' }),
    name: t.string(),
    host: t.nullable(t.string({ description: 'null: off routing' })),
    previous_host: t.nullable(t.string()),
    theme_key: t.nullable(t.string()),
    guest_checkout_enabled: t.boolean(),
    masked_checkout_enabled: t.boolean(),
    notification_sender_name: t.nullable(t.string()),
    notification_reply_to: t.nullable(t.email({ personal: true })),
  }),
  'A store changed: the store as it is now, which fields changed, and the host it had (routing follows at once).',
);

const operatorPayload = {
  admin_user_id: t.string(),
  email: t.email({ personal: true }),
  name: t.string({ personal: true }),
  role: t.string(),
  locale: t.string(),
};

export const adminUserInvited = defineEvent(
  'admin_user.invited',
  t.object({
    ...operatorPayload,
    status: t.string({ description: 'invited' }),
    store_id: t.string({ description: "the tenant's first store: sender name and reply-to of the mail, and the store the operator logs in at" }),
    store_handle: t.string({ description: 'the `store` a login names' }),
    admin_login_url: t.nullable(
      t.string({ description: 'the link for the invitation mail; null when none was given or it was a loopback address (the mail goes without a link)' }),
    ),
    invited_by: t.string({ description: 'the actor (key or operator) that invited' }),
  }),
  'An operator was invited (status invited); the invitation mail is sent from it. The first login activates the operator.',
);

export const adminUserActivated = defineEvent(
  'admin_user.activated',
  t.object({ ...operatorPayload, method: t.enum(['login_code', 'oidc'] as const) }),
  'An invited operator logged in for the first time (one-time code or OIDC) and is now active.',
);

export const adminUserUpdated = defineEvent(
  'admin_user.updated',
  t.object({ ...operatorPayload, status: t.string(), changed: t.array(t.enum(['name', 'role', 'locale'] as const)) }),
  "An operator's name, role or locale changed (never empty: an update changing nothing emits no event); a role change applies to live sessions at once.",
);

export const adminUserDeactivated = defineEvent(
  'admin_user.deactivated',
  t.object({ admin_user_id: t.string(), deactivated_at: t.timestamp(), sessions_revoked: t.integer({ minimum: 0 }) }),
  'An operator was deactivated: no more logins, every session revoked at once; the email may be invited again.',
);

export const authLoginCode = defineEvent(
  'auth.login_code',
  t.object({
    login_code_id: t.string({ description: "the mail pipeline opens the code with identity's login-code handoff; the code itself is never in an event" }),
    admin_user_id: t.string(),
    email: t.email({ personal: true }),
    name: t.string({ personal: true }),
    locale: t.string(),
    store_id: t.string(),
    store_handle: t.string(),
    expires_at: t.timestamp(),
  }),
  'A one-time login code was issued for an operator: the authentication-code mail is sent from it (no body snapshot is kept).',
);

export const authLoggedOut = defineEvent(
  'auth.logged_out',
  t.object({ admin_user_id: t.string(), session_id: t.string() }),
  'An operator ended a session (auth.logout): its token stopped working at once.',
);

export const identityEvents = [
  apiKeyCreated,
  apiKeyRotated,
  apiKeyRevoked,
  webhookSubscriptionCreated,
  webhookSubscriptionUpdated,
  webhookSubscriptionDeleted,
  webhookSubscriptionDisabled,
  tenantCreated,
  storeCreated,
  storeUpdated,
  adminUserInvited,
  adminUserActivated,
  adminUserUpdated,
  adminUserDeactivated,
  authLoginCode,
  authLoggedOut,
];
