import { t, pageOf } from '@backoffice/platform';
import { defineIdentityOperation } from '../ports';
import type { WebhookDelivery } from '../entities';
import { DELIVERY_STATUSES, deliveryStatus } from '../domain/webhooks';

const delivery = t.object({
  delivery_id: t.string(),
  subscription_id: t.string(),
  event_id: t.string({ description: 'also the `webhook-id` header of every attempt' }),
  event_type: t.string(),
  status: deliveryStatus(DELIVERY_STATUSES),
  attempts: t.integer({ minimum: 0 }),
  last_attempt_at: t.nullable(t.timestamp()),
  last_response_status: t.nullable(t.integer()),
  last_error: t.nullable(t.string()),
  created_at: t.timestamp(),
  delivered_at: t.nullable(t.timestamp()),
});

export const readInternalWebhooksDeliveries = defineIdentityOperation({
  name: 'read.internal.webhooks.deliveries',
  kind: 'read',
  access: 'internal',
  scope: 'webhooks.read',
  summary: 'Deliveries of the tenant’s webhooks, newest first, with the outcome of each one’s last attempt.',
  restPath: '/internal/webhooks/deliveries',
  input: t.object({
    subscription_id: t.optional(t.id()),
    status: t.optional(deliveryStatus(DELIVERY_STATUSES)),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 1000, default: 1 })),
  }),
  result: pageOf(delivery),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<Omit<WebhookDelivery, 'tenant_id' | 'envelope'>>(
      {
        select: 'id, subscription_id, event_id, event_type, status, attempts, last_attempt_at, last_response_status, last_error, created_at, delivered_at',
        from: 'identity.webhook_delivery',
        where: `tenant_id = $1 AND ($2::text IS NULL OR subscription_id = $2) AND ($3::text IS NULL OR status = $3)`,
        orderBy: 'created_at DESC, id DESC',
        params: [actor.tenant_id, input.subscription_id ?? null, input.status ?? null],
      },
      input,
    );
    const iso = (at: Date | null) => at?.toISOString() ?? null;
    return {
      ...page,
      items: page.items.map((r) => ({
        delivery_id: r.id,
        subscription_id: r.subscription_id,
        event_id: r.event_id,
        event_type: r.event_type,
        status: r.status,
        attempts: r.attempts,
        last_attempt_at: iso(r.last_attempt_at),
        last_response_status: r.last_response_status,
        last_error: r.last_error,
        created_at: r.created_at.toISOString(),
        delivered_at: iso(r.delivered_at),
      })),
    };
  },
});
