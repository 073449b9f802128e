import { conflict, t } from '@backoffice/platform';
import { webhookDeliver } from '../tasks/webhook.deliver';
import { defineIdentityOperation } from '../ports';
import { deliveryStatus } from '../domain/webhooks';

export const webhookDeliveryRetry = defineIdentityOperation({
  name: 'webhook.delivery.retry',
  kind: 'command',
  access: 'internal',
  scope: 'webhooks.write',
  summary: 'Sends one delivery again now (with a fresh retry schedule), whatever became of it before.',
  input: t.object({ delivery_id: t.id() }),
  result: t.object({ delivery_id: t.string(), status: deliveryStatus(['pending']) }),
  events: [],
  async handler({ input, actor, sql, enqueue }) {
    const [row] = await sql.rows<{ id: string; enabled: boolean }>(
      `SELECT d.id, s.enabled FROM identity.webhook_delivery d JOIN identity.webhook_subscription s ON s.id = d.subscription_id
       WHERE d.id = $1 AND d.tenant_id = $2 FOR UPDATE OF d`,
      [input.delivery_id, actor.tenant_id],
    );
    if (!row) throw conflict(`webhook delivery ${input.delivery_id} does not exist in this tenant`, { reason: 'not_found', field: 'delivery_id' });
    if (!row.enabled) throw conflict('its subscription is disabled: enable it (webhook.subscription.update) first', { reason: 'not_applicable' });
    await sql.run(`UPDATE identity.webhook_delivery SET status = 'pending', delivered_at = NULL WHERE id = $1`, [row.id]);
    enqueue(webhookDeliver, { delivery_id: row.id });
    return { delivery_id: row.id, status: 'pending' as const };
  },
});
