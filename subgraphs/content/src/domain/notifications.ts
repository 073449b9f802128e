import { present, conflict, t, validationFailed, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { compileTemplate, renderTemplate, TemplateError } from './templates';

/*
 * Message notifications: channels (the built-in `email` and those extensions register), templates per
 * message type, channel, locale and store, enablement per type and channel, and the record of every
 * message. Rules in docs/notifications.md.
 */

export const KEY_PATTERN = '^[a-z][a-z0-9_]*$';
export const channelKeyField = t.string({
  minLength: 1,
  maxLength: 64,
  pattern: KEY_PATTERN,
  description: 'lowercase letter, then lowercase letters, digits, underscores',
});
export const typeKeyField = t.string({
  minLength: 1,
  maxLength: 64,
  description: 'a message type: order.paid, order.cancelled, shipment.created, admin_user.invited, auth.login_code',
});
export const localeField = t.string({
  minLength: 2,
  maxLength: 35,
  pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$',
  description: 'a language tag: en, pt-BR, es are shipped; a locale falls back to its language (before the first -), then en',
});

/** The locale of messages to customers: the instance's DEFAULT_LOCALE, else en. */
export function instanceLocale(env: NodeJS.ProcessEnv = process.env): string {
  const value = env.DEFAULT_LOCALE?.trim();
  return value && new RegExp(present(localeField.pattern, 'the locale pattern')).test(value) && value.length <= 35 ? value : 'en';
}
export const FIELD_TYPES = ['text', 'multiline', 'html', 'select', 'variable_list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDeclaration {
  name: string;
  label: string;
  type: FieldType;
  help?: string;
  options?: Array<{ value: string; label: string }>;
  required?: boolean;
  template?: boolean;
}

export interface Channel {
  key: string;
  label: string;
  notice: string | null;
  extension_id: string | null;
  variant_schema: FieldDeclaration[];
}

/** The channel every tenant has from the start; it cannot be registered over. */
export const EMAIL_CHANNEL: Channel = {
  key: 'email',
  label: 'Email',
  notice: null,
  extension_id: null,
  variant_schema: [
    { name: 'subject', label: 'Subject', type: 'text', required: true, template: true },
    { name: 'html', label: 'HTML body', type: 'html', required: true, template: true, help: 'Handlebars: {{variable}} is HTML-escaped' },
    { name: 'text', label: 'Plain-text body', type: 'multiline', required: false, template: true },
  ],
};

/** Bounds of a template field's value and of a channel's declaration. */
export const FIELD_VALUE_MAX = 100_000;
export const CHANNEL_FIELDS_MAX = 40;
/** Choices of one select field. */
export const FIELD_OPTIONS_MAX = 100;
export const CHANNELS_MAX = 50;

export interface MessageType {
  key: string;
  /** An authentication code: its body is never stored, so it cannot be resent. */
  authentication: boolean;
  /** Sent whatever the enablement says (operators could not get in otherwise). */
  always: boolean;
  /** The variables a template of this type can use (docs/notifications.md). */
  variables: Record<string, string>;
}

const COMMON = {
  store_name: "the store's name",
  sender_name: 'the name the mail is sent under (sender name, else store name, else tenant name)',
  recipient_name: "the recipient's name (may be empty)",
  recipient_email: "the recipient's address",
};
const ORDER = { order_id: 'the order', customer_name: "the customer's name (may be empty)" };

export const MESSAGE_TYPES: Record<string, MessageType> = {
  'order.paid': {
    key: 'order.paid',
    authentication: false,
    always: false,
    variables: { ...COMMON, ...ORDER, total: 'the total, formatted (e.g. 129.90 BRL)', total_amount: 'the total in minor units', currency: 'ISO currency' },
  },
  'order.cancelled': {
    key: 'order.cancelled',
    authentication: false,
    always: false,
    variables: { ...COMMON, ...ORDER, reason: 'payment_expired, or the reason given to order.cancel' },
  },
  'shipment.created': {
    key: 'shipment.created',
    authentication: false,
    always: false,
    variables: { ...COMMON, ...ORDER, shipment_id: 'the new parcel', estimated_delivery_date: 'YYYY-MM-DD, or empty' },
  },
  'admin_user.invited': {
    key: 'admin_user.invited',
    authentication: false,
    always: true,
    variables: {
      ...COMMON,
      name: "the operator's name",
      role: 'owner, admin or staff',
      store_handle: 'the store to name at login',
      admin_login_url: 'the link; empty when none was given or it was a loopback address',
    },
  },
  'auth.login_code': {
    key: 'auth.login_code',
    authentication: true,
    always: true,
    variables: {
      ...COMMON,
      name: "the operator's name",
      code: 'the 6-digit code',
      expires_at: 'when it expires (ISO 8601)',
      minutes: 'minutes it is valid (10)',
    },
  },
};

export function messageType(key: string): MessageType {
  const type = Object.hasOwn(MESSAGE_TYPES, key) ? MESSAGE_TYPES[key] : undefined;
  // An input naming no type at all: the caller's mistake, as an enum would say.
  if (!type) throw validationFailed(`type_key: unknown message type ${key}: one of ${Object.keys(MESSAGE_TYPES).join(', ')}`, { field: 'type_key' });
  return type;
}

/** `pt-BR` → pt-BR, pt, en. */
export function localeChain(locale: string): string[] {
  const chain = [locale];
  const language = locale.split('-')[0];
  if (language !== locale) chain.push(language);
  if (!chain.includes('en')) chain.push('en');
  return chain;
}

export async function channelOf(db: EntityManager, tenantId: string, key: string): Promise<Channel> {
  if (key === EMAIL_CHANNEL.key) return EMAIL_CHANNEL;
  const [row] = await sqlOf(db).rows<Channel>(
    `SELECT key, label, notice, extension_id, variant_schema FROM content.notification_channel WHERE tenant_id = $1 AND key = $2`,
    [tenantId, key],
  );
  if (!row) throw conflict(`notification channel ${key} is not registered in this tenant`, { reason: 'not_found', field: 'channel_key' });
  return row;
}

export type TemplateFields = Record<string, string>;
export interface ResolvedTemplate {
  fields: TemplateFields;
  /** Where it came from: store, tenant or default, and the locale it was found in. */
  level: 'store' | 'tenant' | 'default';
  locale: string;
}

/**
 * The template a message uses: the store's, then the tenant's, then the default shipped one; at each
 * level the locale, then its language, then en. A whole template is taken, never fields mixed.
 */
export async function resolveTemplate(
  db: EntityManager,
  tenantId: string,
  storeId: string | null,
  typeKey: string,
  channelKey: string,
  locale: string,
): Promise<ResolvedTemplate | null> {
  const chain = localeChain(locale);
  const rows = await sqlOf(db).rows<{ store_key: string; locale: string; fields: TemplateFields }>(
    `SELECT store_key, locale, fields FROM content.notification_template
     WHERE tenant_id = $1 AND type_key = $2 AND channel_key = $3 AND store_key = ANY($4::text[]) AND locale = ANY($5::text[])`,
    [tenantId, typeKey, channelKey, storeId ? [storeId, ''] : [''], chain],
  );
  for (const level of storeId ? [storeId, ''] : ['']) {
    for (const candidate of chain) {
      const row = rows.find((r) => r.store_key === level && r.locale === candidate);
      if (row) return { fields: row.fields, level: level ? 'store' : 'tenant', locale: candidate };
    }
  }
  if (channelKey !== EMAIL_CHANNEL.key) return null;
  for (const candidate of chain) {
    const fields = DEFAULT_TEMPLATES[typeKey]?.[candidate];
    if (fields) return { fields, level: 'default', locale: candidate };
  }
  return null;
}

/** The fields every template of the channel must fill (what `NotificationChannel.required_fields` shows). */
export function requiredFields(channel: Channel): string[] {
  return channel.variant_schema.filter((f) => f.required).map((f) => f.name);
}

/** The channel's required fields the template lacks (empty or blank counts as lacking). */
export function missingRequired(channel: Channel, template: ResolvedTemplate | null): string[] {
  return requiredFields(channel).filter((name) => !template?.fields[name]?.trim());
}

/** Is the channel on for the type: the store's setting, then the tenant's, then on (the default of every type). */
export async function isEnabled(db: EntityManager, tenantId: string, storeId: string | null, typeKey: string, channelKey: string): Promise<boolean> {
  const rows = await sqlOf(db).rows<{ store_key: string; enabled: boolean }>(
    `SELECT store_key, enabled FROM content.notification_setting WHERE tenant_id = $1 AND type_key = $2 AND channel_key = $3 AND store_key = ANY($4::text[])`,
    [tenantId, typeKey, channelKey, storeId ? [storeId, ''] : ['']],
  );
  const store = rows.find((r) => storeId && r.store_key === storeId);
  const tenant = rows.find((r) => r.store_key === '');
  return (store ?? tenant)?.enabled ?? true;
}

/** A field whose value is a template rendered per message. */
export const isTemplateField = (field: FieldDeclaration) => field.template !== false && field.type !== 'select' && field.type !== 'variable_list';

/** Checks a template field's value against the template rules (validation_failed naming the field otherwise). */
export function checkTemplate(field: FieldDeclaration, value: string): void {
  if (!isTemplateField(field)) return;
  try {
    compileTemplate(value, field.type === 'html');
  } catch (error) {
    if (error instanceof TemplateError)
      throw validationFailed(`fields.${field.name} is not an allowed template: it ${error.message}`, { field: `fields.${field.name}` });
    throw error;
  }
}

/**
 * Renders each template field of the channel: HTML-escaped in `html` fields, as written elsewhere.
 * A template outside the rules (kept before they existed) or a field rendering past its byte bound
 * throws TemplateError: the message is recorded failed with the reason.
 */
export function render(channel: Channel, template: TemplateFields, variables: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of channel.variant_schema) {
    const source = template[field.name];
    if (source === undefined) continue;
    if (!isTemplateField(field)) {
      out[field.name] = source;
      continue;
    }
    const html = field.type === 'html';
    out[field.name] = renderTemplate(compileTemplate(source, html), html, variables, field.name);
  }
  return out;
}

/** The sender name and reply-to of a store with the reference's fallbacks. */
export function senderOf(
  store: { store_name: string; tenant_name: string; notification_sender_name: string | null; notification_reply_to: string | null } | null,
  instanceFrom: string,
): { sender_name: string; reply_to: string; store_name: string } {
  return {
    sender_name: store?.notification_sender_name || store?.store_name || store?.tenant_name || instanceFrom,
    reply_to: store?.notification_reply_to || instanceFrom,
    store_name: store?.store_name ?? '',
  };
}

export function formatAmount(amount: number, currency: string): string {
  const digits = ['JPY', 'KRW', 'CLP', 'VND'].includes(currency.toUpperCase()) ? 0 : 2;
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}

// ---------------------------------------------------------------------------------------------
// Default templates (channel email), per type and locale
// ---------------------------------------------------------------------------------------------

const mail = (subject: string, lines: string[], footer = '{{sender_name}}'): TemplateFields => ({
  subject,
  html: `${lines.map((l) => `<p>${l}</p>`).join('\n')}\n<p>— ${footer}</p>`,
  text: `${lines.map((l) => l.replace(/<[^>]+>/g, '')).join('\n\n')}\n\n— ${footer}`,
});

export const DEFAULT_TEMPLATES: Record<string, Record<string, TemplateFields>> = {
  'order.paid': {
    en: mail('Payment received for order {{order_id}}', [
      'Hello {{customer_name}},',
      'We received your payment of {{total}} for order {{order_id}} at {{store_name}}. Thank you!',
    ]),
    'pt-BR': mail('Pagamento recebido do pedido {{order_id}}', [
      'Olá {{customer_name}},',
      'Recebemos o seu pagamento de {{total}} do pedido {{order_id}} em {{store_name}}. Obrigado!',
    ]),
    es: mail('Pago recibido del pedido {{order_id}}', [
      'Hola {{customer_name}},',
      'Recibimos tu pago de {{total}} del pedido {{order_id}} en {{store_name}}. ¡Gracias!',
    ]),
  },
  'order.cancelled': {
    en: mail('Order {{order_id}} was cancelled', ['Hello {{customer_name}},', 'Your order {{order_id}} at {{store_name}} was cancelled ({{reason}}).']),
    'pt-BR': mail('O pedido {{order_id}} foi cancelado', ['Olá {{customer_name}},', 'O seu pedido {{order_id}} em {{store_name}} foi cancelado ({{reason}}).']),
    es: mail('El pedido {{order_id}} fue cancelado', ['Hola {{customer_name}},', 'Tu pedido {{order_id}} en {{store_name}} fue cancelado ({{reason}}).']),
  },
  'shipment.created': {
    en: mail('A parcel of order {{order_id}} is being prepared', [
      'Hello {{customer_name}},',
      'Parcel {{shipment_id}} of your order {{order_id}} is being prepared.{{#if estimated_delivery_date}} Estimated delivery: {{estimated_delivery_date}}.{{/if}}',
    ]),
    'pt-BR': mail('Um volume do pedido {{order_id}} está sendo preparado', [
      'Olá {{customer_name}},',
      'O volume {{shipment_id}} do seu pedido {{order_id}} está sendo preparado.{{#if estimated_delivery_date}} Entrega prevista: {{estimated_delivery_date}}.{{/if}}',
    ]),
    es: mail('Se está preparando un paquete del pedido {{order_id}}', [
      'Hola {{customer_name}},',
      'El paquete {{shipment_id}} de tu pedido {{order_id}} se está preparando.{{#if estimated_delivery_date}} Entrega estimada: {{estimated_delivery_date}}.{{/if}}',
    ]),
  },
  'admin_user.invited': {
    en: mail('You are invited to {{store_name}}', [
      'Hello {{name}},',
      'You were invited to the back office of {{store_name}} as {{role}}. Log in at store {{store_handle}} with your email.',
      '{{#if admin_login_url}}<a href="{{admin_login_url}}">Log in</a>: {{admin_login_url}}{{/if}}',
    ]),
    'pt-BR': mail('Você foi convidado para {{store_name}}', [
      'Olá {{name}},',
      'Você foi convidado para o back office de {{store_name}} como {{role}}. Entre na loja {{store_handle}} com o seu e-mail.',
      '{{#if admin_login_url}}<a href="{{admin_login_url}}">Entrar</a>: {{admin_login_url}}{{/if}}',
    ]),
    es: mail('Te invitaron a {{store_name}}', [
      'Hola {{name}},',
      'Te invitaron al back office de {{store_name}} como {{role}}. Ingresa en la tienda {{store_handle}} con tu correo.',
      '{{#if admin_login_url}}<a href="{{admin_login_url}}">Ingresar</a>: {{admin_login_url}}{{/if}}',
    ]),
  },
  'auth.login_code': {
    en: mail('Your login code: {{code}}', [
      'Hello {{name}},',
      'Your one-time login code is <strong>{{code}}</strong>. It is valid for {{minutes}} minutes.',
      'If you did not ask for it, ignore this message.',
    ]),
    'pt-BR': mail('Seu código de acesso: {{code}}', [
      'Olá {{name}},',
      'Seu código de acesso é <strong>{{code}}</strong>. Ele vale por {{minutes}} minutos.',
      'Se você não o pediu, ignore esta mensagem.',
    ]),
    es: mail('Tu código de acceso: {{code}}', [
      'Hola {{name}},',
      'Tu código de acceso es <strong>{{code}}</strong>. Es válido por {{minutes}} minutos.',
      'Si no lo pediste, ignora este mensaje.',
    ]),
  },
};
