import { t, sqlOf } from '@backoffice/platform';
import { subscriptionView, viewOf, WEBHOOK_SUBSCRIPTIONS_PER_TENANT, type SubscriptionRow } from '../domain/webhooks';
import { defineIdentityOperation } from '../ports';

export const readInternalWebhooks = defineIdentityOperation({
  name: 'read.internal.webhooks',
  kind: 'read',
  access: 'internal',
  scope: 'webhooks.read',
  summary: `The tenant's webhook subscriptions (at most ${WEBHOOK_SUBSCRIPTIONS_PER_TENANT}), oldest first; never their secrets.`,
  restPath: '/internal/webhooks',
  input: t.object({}),
  result: t.object({ items: t.array(subscriptionView, { maxItems: WEBHOOK_SUBSCRIPTIONS_PER_TENANT }) }),
  events: [],
  async handler({ actor, db }) {
    const rows = await sqlOf(db).rows<SubscriptionRow>(`SELECT * FROM identity.webhook_subscription WHERE tenant_id = $1 ORDER BY created_at, id`, [
      actor.tenant_id,
    ]);
    return { items: rows.map(viewOf) };
  },
});
