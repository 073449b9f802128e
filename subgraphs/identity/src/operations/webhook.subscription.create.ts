import { newId, t, validationFailed } from '@backoffice/platform';
import {
  checkEventTypes,
  checkPersonalData,
  checkUrl,
  descriptionField,
  eventPayloadOf,
  eventTypesField,
  newSigningSecret,
  personalDataField,
  routeWebhooks,
  urlField,
  WEBHOOK_SUBSCRIPTIONS_PER_TENANT,
} from '../domain/webhooks';
import { webhookSubscriptionCreated } from '../events';
import { defineIdentityOperation } from '../ports';

export const webhookSubscriptionCreate = defineIdentityOperation({
  name: 'webhook.subscription.create',
  kind: 'command',
  access: 'internal',
  scope: 'webhooks.write',
  summary:
    'Subscribes a receiver (Standard Webhooks) to event types of this tenant. The signing secret is returned once. Personal fields of payloads are masked unless personal_data (needs pii.read).',
  input: t.object({ url: urlField, event_types: eventTypesField, description: t.optional(descriptionField), personal_data: t.optional(personalDataField) }),
  result: t.object({
    subscription_id: t.string(),
    secret: t.string({ description: '`whsec_` + base64 of 32 random bytes; shown once, never returned again' }),
  }),
  events: [webhookSubscriptionCreated],
  async handler({ input, actor, db, sql, emit, ports }) {
    const settings = ports.webhooks;
    checkUrl(input.url, settings);
    const eventTypes = checkEventTypes(input.event_types, settings);
    const personalData = input.personal_data ?? false;
    checkPersonalData(actor, personalData, true, false);
    // The routing lock first: it also orders this tenant's creations, so the count below holds.
    await db.query(`SELECT pg_advisory_xact_lock(hashtext('identity.webhook-routes'))`);
    const [{ n }] = await sql.rows<{ n: number }>(`SELECT count(*)::int AS n FROM identity.webhook_subscription WHERE tenant_id = $1`, [actor.tenant_id]);
    if (n >= WEBHOOK_SUBSCRIPTIONS_PER_TENANT)
      throw validationFailed(`a tenant has at most ${WEBHOOK_SUBSCRIPTIONS_PER_TENANT} webhook subscriptions`, { reason: 'limit_reached' });
    const id = newId('whs');
    const secret = newSigningSecret();
    const row = { id, url: input.url, event_types: eventTypes, description: input.description ?? null, enabled: true, personal_data: personalData };
    await sql.run(
      `INSERT INTO identity.webhook_subscription (id, tenant_id, url, event_types, description, secret_sealed, personal_data) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, actor.tenant_id, row.url, row.event_types, row.description, settings.secrets.seal(secret), personalData],
    );
    await routeWebhooks(db, settings);
    emit(webhookSubscriptionCreated, eventPayloadOf(row));
    return { subscription_id: id, secret };
  },
});
