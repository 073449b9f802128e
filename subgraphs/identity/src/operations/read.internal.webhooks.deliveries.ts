import { t, pageOf } from '@backoffice/platform';
import { defineIdentityOperation } from '../ports';
import { DELIVERY_COLUMNS, deliveryView, deliveryViewOf, type DeliveryRow } from '../domain/webhook-deliveries';
import { DELIVERY_STATUSES, deliveryStatus } from '../domain/webhooks';

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
  result: pageOf(deliveryView),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<DeliveryRow>(
      {
        select: DELIVERY_COLUMNS,
        from: 'identity.webhook_delivery',
        where: `tenant_id = $1 AND ($2::text IS NULL OR subscription_id = $2) AND ($3::text IS NULL OR status = $3)`,
        orderBy: 'created_at DESC, id DESC',
        params: [actor.tenant_id, input.subscription_id ?? null, input.status ?? null],
      },
      input,
    );
    return { ...page, items: page.items.map(deliveryViewOf) };
  },
});
