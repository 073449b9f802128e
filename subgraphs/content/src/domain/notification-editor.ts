import { present, sqlOf, validationFailed } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { channelOf, EMAIL_CHANNEL, localeField, MESSAGE_TYPES, messageType, render, resolveTemplate, type ResolvedTemplate } from './notifications';
import { TemplateError } from './templates';

/*
 * What the admin's notification settings read beside the channels (NotificationChannel's
 * effective_template and message_types, references.ts): nothing here writes.
 */

/**
 * What the admin's template editor previews: the template a message would use now, rendered by the
 * same interpreter as a real message, with example values (never a customer's) for the type's
 * variables. A variable the type does not have renders empty, as it does when sent.
 */
export const EXAMPLE_VARIABLES: Record<string, string> = {
  store_name: 'Example Store',
  sender_name: 'Example Store',
  recipient_name: 'Ana Souza',
  recipient_email: 'ana@example.com',
  order_id: 'ord_example',
  customer_name: 'Ana Souza',
  total: '129.90 BRL',
  total_amount: '12990',
  currency: 'BRL',
  reason: 'payment_expired',
  shipment_id: 'shp_example',
  estimated_delivery_date: '2026-12-24',
  name: 'Ana Souza',
  role: 'staff',
  store_handle: 'example-store',
  admin_login_url: 'https://admin.example.com/admin/sign-in',
  code: '123456',
  expires_at: '2026-12-24T12:10:00.000Z',
  minutes: '10',
};

export interface TemplatePreview {
  type_key: string;
  /** The locale the template was found in (the asked one, its language, or en). */
  locale: string;
  level: ResolvedTemplate['level'];
  fields: Record<string, string>;
  rendered: Record<string, string>;
}

const LOCALE = new RegExp(present(localeField.pattern, 'the locale pattern'));

/** The effective template of a type on a channel for a locale (and store), rendered; null when none resolves (a registered channel without one). */
export async function previewTemplate(
  db: EntityManager,
  tenantId: string,
  channelKey: string,
  args: { type_key: string; locale: string; store_id?: string | null },
): Promise<TemplatePreview | null> {
  const type = messageType(args.type_key);
  if (args.locale.length < 2 || args.locale.length > 35 || !LOCALE.test(args.locale))
    throw validationFailed(`locale: ${args.locale.slice(0, 40)} is not a language tag (en, pt-BR, es…)`, { field: 'locale' });
  if (args.store_id && args.store_id.length > 200) throw validationFailed('store_id is longer than 200 characters', { field: 'store_id' });
  const channel = await channelOf(db, tenantId, channelKey);
  const template = await resolveTemplate(db, tenantId, args.store_id ?? null, type.key, channel.key, args.locale);
  if (!template) return null;
  const variables = Object.fromEntries(Object.keys(type.variables).map((name) => [name, EXAMPLE_VARIABLES[name] ?? '']));
  let rendered: Record<string, string>;
  try {
    rendered = render(channel, template.fields, variables);
  } catch (error) {
    // A template kept before the rules existed: said as the editor would be told when saving it.
    if (error instanceof TemplateError) throw validationFailed(`the template cannot be rendered: it ${error.message}`, { field: 'fields' });
    throw error;
  }
  return { type_key: type.key, locale: template.locale, level: template.level, fields: template.fields, rendered };
}

export interface TypeSetting {
  type_key: string;
  enabled: boolean;
  /** Sent whatever `enabled` says: invitations and login codes by email (operators could not get in otherwise). */
  always: boolean;
}

/** Every message type with whether the channel is on for it (the store's setting, then the tenant's, then on), in one statement. */
export async function typeSettings(db: EntityManager, tenantId: string, channelKey: string, storeId: string | null): Promise<TypeSetting[]> {
  if (storeId && storeId.length > 200) throw validationFailed('store_id is longer than 200 characters', { field: 'store_id' });
  const rows = await sqlOf(db).rows<{ type_key: string; store_key: string; enabled: boolean }>(
    `SELECT type_key, store_key, enabled FROM content.notification_setting WHERE tenant_id = $1 AND channel_key = $2 AND store_key = ANY($3::text[])`,
    [tenantId, channelKey, storeId ? [storeId, ''] : ['']],
  );
  return Object.values(MESSAGE_TYPES).map((type) => {
    const own = (level: string) => rows.find((r) => r.type_key === type.key && r.store_key === level);
    const always = type.always && channelKey === EMAIL_CHANNEL.key;
    return { type_key: type.key, enabled: always || ((storeId ? own(storeId) : undefined) ?? own(''))?.enabled !== false, always };
  });
}
