import { urlProblem } from './webhook-target';
import type { WebhookSettings } from './webhook-settings';
import { randomBytes } from 'node:crypto';
import { conflict, forbidden, maskEventPayload, routeConsumer, t, validationFailed, type Actor, type DomainEvent, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import type { WebhookSubscription } from '../entities';

/** A tenant has at most this many subscriptions (each event is delivered to each of them). */
export const WEBHOOK_SUBSCRIPTIONS_PER_TENANT = 20;
/** A subscription failing for this long is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 3 * 86_400_000;
/** After a rotation, the previous secret signs alongside the new one this long. */
export const WEBHOOK_SECRET_OVERLAP_MS = 24 * 3_600_000;
/** The consumer that turns events into deliveries; its event types follow the enabled subscriptions. */
export const WEBHOOK_CONSUMER = 'webhooks';

/** A delivery's states, one GraphQL enum wherever a delivery's status shows. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const deliveryStatus = <const V extends readonly (typeof DELIVERY_STATUSES)[number][]>(only: V) =>
  t.enum(only, { name: 'WebhookDeliveryStatus', among: DELIVERY_STATUSES });

export const urlField = t.string({ minLength: 1, maxLength: 2048, description: 'https (http only to a loopback host when WEBHOOK_ALLOW_INSECURE=1)' });
/** Event types one subscription names. */
const EVENT_TYPES_MAX = 100;
export const eventTypesField = t.array(t.string({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: EVENT_TYPES_MAX,
  uniqueItems: true,
  description: 'declared event types (see the `webhooks` of /v1/openapi.json); `*` for all',
});
export const descriptionField = t.string({ maxLength: 200 });
export const personalDataField = t.boolean({
  description:
    'deliver the personal fields of payloads (customer email, name…) in clear; needs pii.read to set, or to change the url while set. Default false: masked as in reads without pii.read',
});

/** A subscription as reads show it, the federation entity `WebhookSubscription`: never its secret. */
export const subscriptionView = t.entity(
  'WebhookSubscription',
  {
    subscription_id: t.string(),
    url: t.string(),
    event_types: t.array(t.string(), { maxItems: EVENT_TYPES_MAX }),
    description: t.nullable(t.string()),
    enabled: t.boolean(),
    personal_data: t.boolean({ description: 'personal fields of payloads delivered in clear (true) or masked (false)' }),
    disabled_reason: t.nullable(t.string()),
    failing_since: t.nullable(t.timestamp()),
    previous_secret_expires_at: t.nullable(t.timestamp()),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'subscription_id',
);

export type SubscriptionRow = WebhookSubscription;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function viewOf(row: SubscriptionRow) {
  return {
    subscription_id: row.id,
    url: row.url,
    event_types: row.event_types,
    description: row.description,
    enabled: row.enabled,
    personal_data: row.personal_data,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    previous_secret_expires_at: row.previous_secret_until && row.previous_secret_until > new Date() ? row.previous_secret_until.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The payload of created/updated events: what a subscription is, never its secret. */
export const eventPayloadOf = (row: Pick<SubscriptionRow, 'id' | 'url' | 'event_types' | 'description' | 'enabled' | 'personal_data'>) => ({
  subscription_id: row.id,
  url: row.url,
  event_types: row.event_types,
  description: row.description,
  enabled: row.enabled,
  personal_data: row.personal_data,
});

/**
 * Personal data goes in clear only where a key allowed to see it said so: setting `personal_data`,
 * or pointing a subscription that has it at another url, needs `pii.read` (without it, a key holding
 * only webhooks.write could redirect customers' data to itself).
 */
export function checkPersonalData(actor: Actor, personalData: boolean, setting: boolean, urlChanged: boolean): void {
  if (personalData && (setting || urlChanged) && !actor.scopes.includes('pii.read')) throw forbidden('pii.read');
}

/**
 * The envelope a subscription is sent: as recorded, or with the personal fields of its payload
 * masked (by its type's declaration) for a subscription without `personal_data`. Masking is
 * idempotent, so an envelope stored masked stays the same.
 */
export function envelopeFor(envelope: DomainEvent, personalData: boolean, settings: WebhookSettings): DomainEvent {
  return personalData ? envelope : { ...envelope, payload: maskEventPayload(settings.payloads, envelope.type, envelope.payload) };
}

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks form its libraries verify with. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function checkUrl(url: string, settings: WebhookSettings): void {
  const problem = urlProblem(url, settings.policy);
  if (problem) throw validationFailed(problem, { field: 'url' });
}

/** `event_types` as stored: each declared, or `*` alone. */
export function checkEventTypes(types: readonly string[], settings: WebhookSettings): string[] {
  if (types.includes('*')) return ['*'];
  const unknown = types.filter((type) => !settings.eventTypes.includes(type));
  if (unknown.length)
    throw validationFailed(
      `event_types: ${unknown.slice(0, 3).join(', ')} ${unknown.length > 1 ? 'are not declared events' : 'is not a declared event'} (see the webhooks of /v1/openapi.json)`,
      { field: 'event_types' },
    );
  return [...types];
}

/**
 * The subscription a command acts on, locked for the rest of the transaction. One of another
 * tenant is indistinguishable from one that does not exist.
 */
export async function lockSubscription(db: EntityManager, actor: Actor, id: string): Promise<SubscriptionRow> {
  const [row] = await sqlOf(db).rows<SubscriptionRow>(`SELECT * FROM identity.webhook_subscription WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [
    id,
    actor.tenant_id,
  ]);
  if (!row) throw conflict(`webhook subscription ${id} does not exist in this tenant`, { reason: 'not_found', field: 'subscription_id' });
  return row;
}

/**
 * Makes the webhook consumer take exactly the event types some enabled subscription (of any tenant)
 * wants, in the caller's transaction: an event nobody subscribed to stays `unrouted` in its outbox.
 * The lock orders concurrent changes, so the last to commit saw every earlier one.
 */
export async function routeWebhooks(db: EntityManager, settings: WebhookSettings): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('identity.webhook-routes'))`);
  await routeConsumer(db, 'identity', WEBHOOK_CONSUMER, await routedTypes(db, settings));
}

/** The event types enabled subscriptions want, `*` expanded to every declared one. */
export async function routedTypes(db: EntityManager, settings: WebhookSettings): Promise<string[]> {
  const rows = await sqlOf(db).rows<{ type: string }>(`SELECT DISTINCT unnest(event_types) AS type FROM identity.webhook_subscription WHERE enabled`);
  const types = rows.map((r) => r.type);
  return types.includes('*') ? [...settings.eventTypes] : types.filter((type) => settings.eventTypes.includes(type));
}
