import { sqlOf, t, validationFailed } from '@backoffice/platform';
import {
  checkEventTypes,
  checkPersonalData,
  checkUrl,
  descriptionField,
  eventPayloadOf,
  eventTypesField,
  lockSubscription,
  personalDataField,
  routeWebhooks,
  subscriptionView,
  urlField,
  viewOf,
  type SubscriptionRow,
} from '../domain/webhooks';
import { webhookSubscriptionUpdated } from '../events';
import { defineIdentityOperation } from '../ports';

export const webhookSubscriptionUpdate = defineIdentityOperation({
  name: 'webhook.subscription.update',
  kind: 'command',
  access: 'internal',
  scope: 'webhooks.write',
  summary:
    'Changes a subscription’s url, event types, description, enabled or personal_data flag; enabling a disabled one ' +
    'clears its failure. Setting personal_data, or changing the url while it is set, needs pii.read.',
  input: t.object({
    subscription_id: t.id(),
    url: t.optional(urlField),
    event_types: t.optional(eventTypesField),
    description: t.optional(t.nullable(descriptionField)),
    enabled: t.optional(t.boolean()),
    personal_data: t.optional(personalDataField),
  }),
  result: subscriptionView,
  events: [webhookSubscriptionUpdated],
  async handler({ input, actor, db, emit, ports }) {
    const settings = ports.webhooks;
    if (
      input.url === undefined &&
      input.event_types === undefined &&
      input.description === undefined &&
      input.enabled === undefined &&
      input.personal_data === undefined
    ) {
      throw validationFailed('give at least one of url, event_types, description, enabled, personal_data', { reason: 'required' });
    }
    if (input.url !== undefined) checkUrl(input.url, settings);
    const eventTypes = input.event_types === undefined ? undefined : checkEventTypes(input.event_types, settings);
    // The routing lock before the row's: every command takes them in this order.
    await db.query(`SELECT pg_advisory_xact_lock(hashtext('identity.webhook-routes'))`);
    const row = await lockSubscription(db, actor, input.subscription_id);
    const personalData = input.personal_data ?? row.personal_data;
    checkPersonalData(actor, personalData, input.personal_data === true && !row.personal_data, input.url !== undefined && input.url !== row.url);
    const enabling = input.enabled === true && !row.enabled;
    const rows = await sqlOf(db).returning<SubscriptionRow>(
      `UPDATE identity.webhook_subscription SET url = $2, event_types = $3, description = $4, enabled = $5,
         failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
         disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
         personal_data = $7,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        row.id,
        input.url ?? row.url,
        eventTypes ?? row.event_types,
        input.description === undefined ? row.description : input.description,
        input.enabled ?? row.enabled,
        enabling,
        personalData,
      ],
    );
    const next = rows[0];
    await routeWebhooks(db, settings);
    emit(webhookSubscriptionUpdated, { ...eventPayloadOf(next), secret_rotated: false });
    return viewOf(next);
  },
});
