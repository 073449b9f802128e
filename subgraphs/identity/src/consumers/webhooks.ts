import { newId, routedConsumer } from '@backoffice/platform';
import { routedTypes, WEBHOOK_CONSUMER } from '../domain/webhooks';
import type { IdentityPorts } from '../ports';
import { webhookDeliver } from '../tasks/webhook.deliver';

/**
 * Turns each event into one delivery per enabled subscription of the event's own tenant that wants
 * its type, and queues each delivery's sending, all in one transaction with the record that the
 * event was handled. It takes only the types some subscription wants (`routes`).
 */
export const webhookDispatch = routedConsumer<IdentityPorts>(
  WEBHOOK_CONSUMER,
  (db, ports) => routedTypes(db, ports.webhooks),
  async ({ event, db, enqueue }) => {
    const subscriptions = (await db.query(
      `SELECT id FROM identity.webhook_subscription WHERE tenant_id = $1 AND enabled AND (event_types @> ARRAY[$2]::text[] OR event_types @> ARRAY['*'])`,
      [event.tenant_id, event.type],
    )) as Array<{ id: string }>;
    if (!subscriptions.length) return;
    const created = (await db.query(
      `INSERT INTO identity.webhook_delivery (id, tenant_id, subscription_id, event_id, event_type, envelope)
       SELECT d.id, $1, d.subscription_id, $2, $3, $4 FROM unnest($5::text[], $6::text[]) AS d(id, subscription_id)
       ON CONFLICT (subscription_id, event_id) DO NOTHING RETURNING id`,
      [event.tenant_id, event.event_id, event.type, JSON.stringify(event), subscriptions.map(() => newId('whd')), subscriptions.map((s) => s.id)],
    )) as Array<{ id: string }>;
    for (const delivery of created) enqueue(webhookDeliver, { delivery_id: delivery.id });
  },
);
