import type { TFunction } from 'i18next';

/** The message types the content subgraph sends (its MESSAGE_TYPES): the message log's type filter. */
export const MESSAGE_TYPES = ['order.paid', 'order.cancelled', 'shipment.created', 'admin_user.invited', 'auth.login_code'] as const;

/** Their keys in the locale files, dots made underscores (i18next splits keys on dots). */
type TypeLabel = 'order_paid' | 'order_cancelled' | 'shipment_created' | 'admin_user_invited' | 'auth_login_code';

/** A message type in words; a type this page does not know yet is shown by its key. */
export function typeLabel(t: TFunction, key: string): string {
  return (MESSAGE_TYPES as readonly string[]).includes(key) ? t(`notifications.types.${key.replace(/\./g, '_') as TypeLabel}`) : key;
}
