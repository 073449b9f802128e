import { sendWebhook } from '../domain/webhook-send';
import { signedHeaders } from '../domain/webhook-signature';
import { metrics, task, type DomainEvent, sqlOf } from '@backoffice/platform';
import { envelopeFor, routeWebhooks, WEBHOOK_DISABLE_AFTER_MS, type SubscriptionRow } from '../domain/webhooks';
import { webhookSubscriptionDisabled } from '../events';
import type { IdentityPorts } from '../ports';

/**
 * 14 attempts: the first, then 13 retries 20 s × 2^n apart with jitter (pg-boss: each delay is
 * between 1× and 2× its base), about 3 days in all (1.9 to 3.8 days). The base delay is a setting.
 */
export const WEBHOOK_RETRY_LIMIT = 13;

interface DeliveryJob {
  delivery_id: string;
}

interface Loaded
  extends Pick<SubscriptionRow, 'url' | 'enabled' | 'personal_data' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_until' | 'failing_since'> {
  id: string;
  tenant_id: string;
  subscription_id: string;
  status: string;
  envelope: DomainEvent;
}

/**
 * Sends one delivery: signed with every live secret (two during a rotation), to an address checked
 * now, its payload's personal fields masked unless the subscription has `personal_data` now (the
 * signature covers the body sent). The outcome is recorded whatever it is; a failure is thrown so the bus retries it, unless it
 * was the last attempt or the subscription has been failing for 3 days (it is then disabled).
 */
export const webhookDeliver = task<DeliveryJob, IdentityPorts>(
  'webhook.deliver',
  (ports) => ({ limit: WEBHOOK_RETRY_LIMIT, delaySeconds: ports.webhooks.retryDelaySeconds, backoff: true }),
  async ({ data, lastAttempt, dataSource, ports, transaction }) => {
    const sql = sqlOf(dataSource);
    const delivery = await sql.one<Loaded>(
      `SELECT d.id, d.tenant_id, d.subscription_id, d.status, d.envelope, s.url, s.enabled, s.personal_data, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_until, s.failing_since
       FROM identity.webhook_delivery d JOIN identity.webhook_subscription s ON s.id = d.subscription_id WHERE d.id = $1`,
      [data.delivery_id],
    );
    // Deleted with its subscription, or already settled (a manual retry got there first).
    if (delivery?.status !== 'pending') return;
    if (!delivery.enabled) {
      await sql.run(
        `UPDATE identity.webhook_delivery SET status = 'failed', last_error = 'the subscription is disabled' WHERE id = $1 AND status = 'pending'`,
        [delivery.id],
      );
      return;
    }
    const { secrets } = ports.webhooks;
    const live = [
      delivery.secret_sealed,
      ...(delivery.previous_secret_sealed && delivery.previous_secret_until && delivery.previous_secret_until > new Date()
        ? [delivery.previous_secret_sealed]
        : []),
    ];
    const envelope = envelopeFor(delivery.envelope, delivery.personal_data, ports.webhooks);
    const body = JSON.stringify(envelope);
    const headers = signedHeaders(
      envelope.event_id,
      new Date(),
      body,
      live.map((sealed) => secrets.open(sealed)),
    );
    const started = process.hrtime.bigint();
    const outcome = await sendWebhook(delivery.url, headers, body, ports.webhooks.policy);
    metrics.webhookDelivery({
      subscription: delivery.subscription_id,
      outcome: outcome.ok ? 'delivered' : outcome.status ? `status_${Math.floor(outcome.status / 100)}xx` : 'no_answer',
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    });

    if (outcome.ok) {
      // The common case in one statement (no transaction of its own): settled, and the subscription healthy again.
      await sql.run(
        `WITH settled AS (
           UPDATE identity.webhook_delivery SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = $2, last_error = NULL,
             status = CASE WHEN status = 'pending' THEN 'delivered' ELSE status END, delivered_at = coalesce(delivered_at, now())
           WHERE id = $1 RETURNING subscription_id)
         UPDATE identity.webhook_subscription SET failing_since = NULL WHERE id = (SELECT subscription_id FROM settled) AND failing_since IS NOT NULL`,
        [delivery.id, outcome.status],
      );
      return;
    }
    const gaveUp = await transaction({ tenant_id: delivery.tenant_id }, async (db, emit) => {
      const tx = sqlOf(db);
      await tx.run(
        `UPDATE identity.webhook_delivery SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = $2, last_error = $3,
           status = CASE WHEN status = 'pending' THEN $4 ELSE status END
         WHERE id = $1`,
        [delivery.id, outcome.status, outcome.error?.slice(0, 500) ?? null, lastAttempt ? 'failed' : 'pending'],
      );
      const [failing] = await tx.returning<{ id: string; url: string; failing_since: Date }>(
        `UPDATE identity.webhook_subscription SET failing_since = coalesce(failing_since, now()) WHERE id = $1 AND enabled RETURNING id, url, failing_since`,
        [delivery.subscription_id],
      );
      if (!failing || Date.now() - failing.failing_since.getTime() < WEBHOOK_DISABLE_AFTER_MS) return false;
      const reason = `failing since ${failing.failing_since.toISOString()}: ${outcome.error ?? 'no answer'}`.slice(0, 500);
      await tx.run(`UPDATE identity.webhook_subscription SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1`, [failing.id, reason]);
      await tx.run(`UPDATE identity.webhook_delivery SET status = 'failed' WHERE id = $1`, [delivery.id]);
      await routeWebhooks(db, ports.webhooks);
      emit(webhookSubscriptionDisabled, { subscription_id: failing.id, url: failing.url, failing_since: failing.failing_since.toISOString(), reason });
      return true;
    });
    if (!lastAttempt && !gaveUp) throw new Error(outcome.error ?? 'delivery failed');
  },
  { emits: [webhookSubscriptionDisabled] },
);
