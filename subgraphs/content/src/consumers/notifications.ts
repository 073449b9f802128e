import { newId, type ConsumerDefinition, type DomainEvent, sqlOf, tallyOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import {
  EMAIL_CHANNEL,
  formatAmount,
  instanceLocale,
  isEnabled,
  MESSAGE_TYPES,
  missingRequired,
  render,
  resolveTemplate,
  senderOf,
} from '../domain/notifications';
import type { ContentPorts } from '../ports';
import { notificationSend } from '../tasks/notification.send';

/** The events that trigger a message (by type name: the bus routes by type), and order.created, whose customer content keeps. */
export const NOTIFICATION_EVENTS = ['order.created', 'order.paid', 'order.cancelled', 'shipment.created', 'admin_user.invited', 'auth.login_code'] as const;

interface Message {
  type_key: string;
  store_id: string | null;
  recipient: string;
  recipient_name: string | null;
  locale: string;
  source_ref: string | null;
  variables: Record<string, unknown>;
  /** Why it cannot be sent at all (recorded failed, not retried). */
  unsendable?: string;
}

/**
 * The delivery at which an order's later event stops waiting for its order.created (the bus retries
 * 1 s doubling with jitter: 8.5 to 17 minutes of tries). Within a queue they are out of order only across a
 * batch's workers, so an order still unknown by then was placed before notifications existed: its
 * message is recorded failed. Counted in deliveries, not the event's age, so a backlog waits as long.
 */
const ORDER_KNOWN_BY_ATTEMPT = 10;

// biome-ignore lint/suspicious/noExplicitAny: event payloads are validated against their declared schemas before a consumer runs; fields are read by name.
type Payload = Record<string, any>;

async function rememberCustomer(db: EntityManager, tenantId: string, p: Payload): Promise<void> {
  if (!p.customer?.email) return;
  await sqlOf(db).run(
    `INSERT INTO content.notification_order (tenant_id, order_id, store_id, customer_email, customer_name) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (tenant_id, order_id) DO UPDATE SET customer_email = EXCLUDED.customer_email, customer_name = EXCLUDED.customer_name`,
    [tenantId, p.order_id, p.store_id, p.customer.email, p.customer.name ?? null],
  );
}

async function customerOf(
  db: EntityManager,
  tenantId: string,
  orderId: string,
  attempt: number,
): Promise<{ store_id: string; customer_email: string; customer_name: string | null } | null> {
  const [row] = await sqlOf(db).rows<{
    store_id: string;
    customer_email: string;
    customer_name: string | null;
  }>(`SELECT store_id, customer_email, customer_name FROM content.notification_order WHERE tenant_id = $1 AND order_id = $2`, [tenantId, orderId]);
  if (row) return row;
  if (attempt >= ORDER_KNOWN_BY_ATTEMPT) return null;
  // order.created not handled yet (events of one order may arrive out of order): the bus retries.
  throw new Error(`order ${orderId} is not known to the notification pipeline yet (its order.created)`);
}

const UNKNOWN_CUSTOMER = 'the recipient is unknown: the order was placed before message notifications existed';

async function messageOf(db: EntityManager, event: DomainEvent, attempt: number): Promise<Message | null> {
  const { type, tenant_id: tenantId, payload: p } = event as DomainEvent & { payload: Payload };
  const orderVars = (customerName: string | null) => ({ order_id: p.order_id, customer_name: customerName ?? '' });
  switch (type) {
    case 'order.created':
      await rememberCustomer(db, tenantId, p);
      return null;
    case 'order.paid':
      await rememberCustomer(db, tenantId, p);
      return {
        type_key: type,
        store_id: p.store_id,
        recipient: p.customer.email,
        recipient_name: p.customer.name ?? null,
        locale: instanceLocale(),
        source_ref: p.order_id,
        variables: {
          ...orderVars(p.customer.name ?? null),
          total: formatAmount(p.total_amount, p.currency),
          total_amount: p.total_amount,
          currency: p.currency,
        },
      };
    case 'order.cancelled': {
      // The event names its customer (events recorded before it did: the one order.created left).
      const customer = p.customer?.email
        ? { customer_email: p.customer.email as string, customer_name: (p.customer.name as string | undefined) ?? null }
        : await customerOf(db, tenantId, p.order_id, attempt);
      return {
        type_key: type,
        store_id: p.store_id,
        recipient: customer?.customer_email ?? '',
        recipient_name: customer?.customer_name ?? null,
        locale: instanceLocale(),
        source_ref: p.order_id,
        variables: { ...orderVars(customer?.customer_name ?? null), reason: p.reason },
        unsendable: customer ? undefined : UNKNOWN_CUSTOMER,
      };
    }
    case 'shipment.created': {
      const customer = await customerOf(db, tenantId, p.order_id, attempt);
      return {
        type_key: type,
        store_id: customer?.store_id ?? p.store_id ?? null,
        recipient: customer?.customer_email ?? '',
        recipient_name: customer?.customer_name ?? null,
        locale: instanceLocale(),
        source_ref: p.shipment_id,
        variables: { ...orderVars(customer?.customer_name ?? null), shipment_id: p.shipment_id, estimated_delivery_date: p.estimated_delivery_date ?? '' },
        unsendable: customer ? undefined : UNKNOWN_CUSTOMER,
      };
    }
    case 'admin_user.invited':
      return {
        type_key: type,
        store_id: p.store_id,
        recipient: p.email,
        recipient_name: p.name || null,
        locale: p.locale,
        source_ref: p.admin_user_id,
        variables: { name: p.name ?? '', role: p.role, store_handle: p.store_handle, admin_login_url: p.admin_login_url ?? '' },
      };
    case 'auth.login_code':
      return {
        type_key: type,
        store_id: p.store_id,
        recipient: p.email,
        recipient_name: p.name || null,
        locale: p.locale,
        source_ref: p.login_code_id,
        variables: {},
      };
    default:
      return null;
  }
}

/**
 * Turns each triggering event into one notification record on the email channel (when the channel is
 * on for its type, store then tenant; invitations and login codes always), rendered now from the
 * resolved template and kept as the record's snapshot (never for an authentication code: rendered at
 * send time), and queues its sending, all in the transaction that records the event as handled.
 */
export const notificationDispatch: ConsumerDefinition<ContentPorts> = {
  name: 'notifications',
  events: NOTIFICATION_EVENTS,
  async handler({ event, attempt, db, enqueue, ports, log }) {
    const message = await messageOf(db, event, attempt);
    if (!message) return;
    const type = MESSAGE_TYPES[message.type_key];
    if (!type.always && !(await isEnabled(db, event.tenant_id, message.store_id, type.key, EMAIL_CHANNEL.key))) return;
    const store = message.store_id ? await ports.senders.sender(message.store_id) : null;
    const sender = senderOf(store, ports.mail.from);
    const template = await resolveTemplate(db, event.tenant_id, message.store_id, type.key, EMAIL_CHANNEL.key, message.locale);
    const missing = missingRequired(EMAIL_CHANNEL, template);
    let body: { subject: string | null; html: string | null; text: string | null } = { subject: null, html: null, text: null };
    let failed: string | null = message.unsendable ?? (missing.length ? `the resolved template lacks ${missing.join(', ')}` : null);
    if (!failed && !type.authentication && template) {
      try {
        const fields = render(EMAIL_CHANNEL, template.fields, {
          store_name: sender.store_name,
          sender_name: sender.sender_name,
          recipient_name: message.recipient_name ?? '',
          recipient_email: message.recipient,
          ...message.variables,
        });
        body = { subject: fields.subject ?? '', html: fields.html ?? null, text: fields.text ?? null };
      } catch (error) {
        failed = `the template could not be rendered: ${(error as Error).message}`.slice(0, 500);
      }
    }
    const id = newId('ntf');
    const inserted = await sqlOf(db).rows<{ id: string }>(
      `INSERT INTO content.notification (id, tenant_id, store_id, type_key, channel_key, locale, event_id, source_ref, recipient, recipient_name, sender_name, reply_to,
         subject, body_html, body_text, status, last_error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       ON CONFLICT (tenant_id, event_id, type_key, channel_key) WHERE event_id IS NOT NULL DO NOTHING RETURNING id`,
      [
        id,
        event.tenant_id,
        message.store_id,
        type.key,
        EMAIL_CHANNEL.key,
        template?.locale ?? message.locale,
        event.event_id,
        message.source_ref,
        message.recipient,
        message.recipient_name,
        sender.sender_name,
        sender.reply_to,
        body.subject,
        body.html,
        body.text,
        failed ? 'failed' : 'pending',
        failed,
      ],
    );
    // Recorded failed with its reason; the log counts them (a mass expiry of unknown orders fails thousands alike).
    if (failed) tallyOf(log).add(`notifications ${type.key} not sent (${failed})`, `notification ${id} (${type.key}) not sent: ${failed}`);
    else if (inserted.length) enqueue(notificationSend, { notification_id: id });
  },
};
