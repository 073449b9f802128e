import { t } from '@backoffice/platform';
import type { WebhookDelivery } from '../entities';

import { DELIVERY_STATUSES, deliveryStatus } from './webhooks';

/** A delivery of an event to a subscription, the federation entity `WebhookDelivery`: never the envelope (it may hold personal data). */
export const deliveryView = t.entity(
  'WebhookDelivery',
  {
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
  },
  'delivery_id',
);

export type DeliveryRow = Omit<WebhookDelivery, 'tenant_id' | 'envelope'>;
/** The columns of a DeliveryRow (never the envelope). */
export const DELIVERY_COLUMNS =
  'id, subscription_id, event_id, event_type, status, attempts, last_attempt_at, last_response_status, last_error, created_at, delivered_at';

const iso = (at: Date | null) => at?.toISOString() ?? null;

export function deliveryViewOf(r: DeliveryRow) {
  return {
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
  };
}
