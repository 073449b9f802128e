import { newId, routedConsumer, sqlOf } from '@backoffice/platform';
import { envelopeFor, routedTypes, WEBHOOK_CONSUMER } from '../domain/webhooks';
import type { IdentityPorts } from '../ports';
import { webhookDeliver } from '../tasks/webhook.deliver';

/**
 * Turns each event into one delivery per enabled subscription of the event's own tenant that wants
 * its type, and queues each delivery's sending, all in one transaction with the record that the
 * event was handled. It takes only the types some subscription wants (`routes`). A subscription
 * without `personal_data` has its delivery recorded with the payload's personal fields masked.
 */
export const webhookDispatch = routedConsumer<IdentityPorts>(
  WEBHOOK_CONSUMER,
  (db, ports) => routedTypes(db, ports.webhooks),
  async ({ event, db, enqueue, ports }) => {
    const subscriptions = await sqlOf(db).rows<{ id: string; personal_data: boolean }>(
      `SELECT id, personal_data FROM identity.webhook_subscription WHERE tenant_id = $1 AND enabled AND (event_types @> ARRAY[$2]::text[] OR event_types @> ARRAY['*'])`,
      [event.tenant_id, event.type],
    );
    if (!subscriptions.length) return;
    const created = await sqlOf(db).rows<{ id: string }>(
      `INSERT INTO identity.webhook_delivery (id, tenant_id, subscription_id, event_id, event_type, envelope)
       SELECT d.id, $1, d.subscription_id, $2, $3, d.envelope::jsonb FROM unnest($4::text[], $5::text[], $6::text[]) AS d(id, subscription_id, envelope)
       ON CONFLICT (subscription_id, event_id) DO NOTHING RETURNING id`,
      [
        event.tenant_id,
        event.event_id,
        event.type,
        subscriptions.map(() => newId('whd')),
        subscriptions.map((s) => s.id),
        subscriptions.map((s) => JSON.stringify(envelopeFor(event, s.personal_data, ports.webhooks))),
      ],
    );
    for (const delivery of created) enqueue(webhookDeliver, { delivery_id: delivery.id });
  },
);
