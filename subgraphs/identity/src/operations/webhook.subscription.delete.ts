import { t } from '@backoffice/platform';
import { lockSubscription, routeWebhooks } from '../domain/webhooks';
import { webhookSubscriptionDeleted } from '../events';
import { defineIdentityOperation } from '../ports';

export const webhookSubscriptionDelete = defineIdentityOperation({
  name: 'webhook.subscription.delete',
  kind: 'command',
  access: 'internal',
  scope: 'webhooks.write',
  summary: 'Deletes a subscription with its deliveries; deliveries still queued are dropped.',
  input: t.object({ subscription_id: t.id() }),
  result: t.object({ subscription_id: t.string(), deleted: t.boolean() }),
  events: [webhookSubscriptionDeleted],
  async handler({ input, actor, db, sql, emit, ports }) {
    await db.query(`SELECT pg_advisory_xact_lock(hashtext('identity.webhook-routes'))`);
    const row = await lockSubscription(db, actor, input.subscription_id);
    await sql.run(`DELETE FROM identity.webhook_subscription WHERE id = $1`, [row.id]);
    await routeWebhooks(db, ports.webhooks);
    emit(webhookSubscriptionDeleted, { subscription_id: row.id });
    return { subscription_id: row.id, deleted: true };
  },
});
