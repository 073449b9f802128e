import { t } from '@backoffice/platform';
import { defineIdentityOperation } from '../ports';

const STATUSES = ['pending', 'delivered', 'failed'] as const;

const delivery = t.object({
  delivery_id: t.string(),
  subscription_id: t.string(),
  event_id: t.string({ description: 'also the `webhook-id` header of every attempt' }),
  event_type: t.string(),
  status: t.enum(STATUSES),
  attempts: t.integer({ minimum: 0 }),
  last_attempt_at: t.nullable(t.timestamp()),
  last_response_status: t.nullable(t.integer()),
  last_error: t.nullable(t.string()),
  created_at: t.timestamp(),
  delivered_at: t.nullable(t.timestamp()),
});

interface DeliveryRow {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  status: (typeof STATUSES)[number];
  attempts: number;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

export const webhookDeliveriesRead = defineIdentityOperation({
  name: 'read.internal.webhooks.deliveries',
  kind: 'read',
  access: 'internal',
  scope: 'webhooks.read',
  summary: 'Deliveries of the tenant’s webhooks, newest first, with the outcome of each one’s last attempt.',
  restPath: '/internal/webhooks/deliveries',
  input: t.object({
    subscription_id: t.optional(t.id()),
    status: t.optional(t.enum(STATUSES)),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 1000, default: 1 })),
  }),
  result: t.object({ items: t.array(delivery), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const params: unknown[] = [actor.tenant_id, input.subscription_id ?? null, input.status ?? null];
    const where = `tenant_id = $1 AND ($2::text IS NULL OR subscription_id = $2) AND ($3::text IS NULL OR status = $3)`;
    const [rows, [{ total }]] = (await Promise.all([
      db.query(
        `SELECT id, subscription_id, event_id, event_type, status, attempts, last_attempt_at, last_response_status, last_error, created_at, delivered_at
         FROM identity.webhook_delivery WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
        params,
      ),
      db.query(`SELECT count(*)::int AS total FROM identity.webhook_delivery WHERE ${where}`, params),
    ])) as [DeliveryRow[], Array<{ total: number }>];
    const iso = (at: Date | null) => at?.toISOString() ?? null;
    return {
      items: rows.map((r) => ({
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
      page,
      limit,
      total,
    };
  },
});
