import { EXAMPLE_VARIABLES } from '../../subgraphs/content/src/domain/notification-editor';
import { formatAmount, instanceLocale, localeChain, MESSAGE_TYPES, messageType, senderOf } from '../../subgraphs/content/src/domain/notifications';

/** Notification helpers (docs/notifications.md), without the system. */
describe('amounts in messages', () => {
  it('shows minor units with two decimals and the currency as given', () => {
    expect(formatAmount(12990, 'BRL')).toBe('129.90 BRL');
    expect(formatAmount(5, 'USD')).toBe('0.05 USD');
    expect(formatAmount(0, 'EUR')).toBe('0.00 EUR');
    expect(formatAmount(100, 'EUR')).toBe('1.00 EUR');
    expect(formatAmount(1005, 'EUR')).toBe('10.05 EUR');
    expect(formatAmount(123456789, 'EUR')).toBe('1234567.89 EUR');
    expect(formatAmount(-250, 'BRL')).toBe('-2.50 BRL');
  });

  it('shows JPY, KRW, CLP and VND without decimals, whatever their case', () => {
    expect(formatAmount(1500, 'JPY')).toBe('1500 JPY');
    expect(formatAmount(1500, 'jpy')).toBe('1500 jpy');
    expect(formatAmount(50000, 'KRW')).toBe('50000 KRW');
    expect(formatAmount(990, 'CLP')).toBe('990 CLP');
    expect(formatAmount(25000, 'VND')).toBe('25000 VND');
  });

  it('keeps every cent of amounts up to 10^15 minor units', () => {
    for (const amount of [1, 99, 101, 999_999_999, 10 ** 12 + 7, 10 ** 15 - 1]) {
      const digits = String(amount).padStart(3, '0');
      expect(formatAmount(amount, 'BRL')).toBe(`${digits.slice(0, -2)}.${digits.slice(-2)} BRL`);
    }
  });
});

describe('locales', () => {
  it('falls back from a locale to its language, then to en', () => {
    expect(localeChain('pt-BR')).toEqual(['pt-BR', 'pt', 'en']);
    expect(localeChain('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh', 'en']);
    expect(localeChain('es')).toEqual(['es', 'en']);
    expect(localeChain('en')).toEqual(['en']);
    expect(localeChain('en-GB')).toEqual(['en-GB', 'en']);
  });

  it('takes the instance locale from DEFAULT_LOCALE when it is a language tag, else en', () => {
    expect(instanceLocale({ DEFAULT_LOCALE: 'pt-BR' })).toBe('pt-BR');
    expect(instanceLocale({ DEFAULT_LOCALE: ' es ' })).toBe('es');
    expect(instanceLocale({})).toBe('en');
    expect(instanceLocale({ DEFAULT_LOCALE: '' })).toBe('en');
    expect(instanceLocale({ DEFAULT_LOCALE: 'pt_BR' })).toBe('en');
    expect(instanceLocale({ DEFAULT_LOCALE: 'e' })).toBe('en');
    expect(instanceLocale({ DEFAULT_LOCALE: `en${'-abcdefgh'.repeat(4)}` })).toBe('en');
  });
});

describe('sender', () => {
  const store = { store_name: 'Loja', tenant_name: 'Acme', notification_sender_name: 'Loja da Ana', notification_reply_to: 'ana@example.com' };

  it("names the store's sender name, else the store's name, else the tenant's, else MAIL_FROM", () => {
    expect(senderOf(store, 'no-reply@localhost')).toEqual({ sender_name: 'Loja da Ana', reply_to: 'ana@example.com', store_name: 'Loja' });
    expect(senderOf({ ...store, notification_sender_name: null }, 'x@y').sender_name).toBe('Loja');
    expect(senderOf({ ...store, notification_sender_name: '' }, 'x@y').sender_name).toBe('Loja');
    expect(senderOf({ ...store, notification_sender_name: null, store_name: '' }, 'x@y').sender_name).toBe('Acme');
    expect(senderOf({ ...store, notification_sender_name: null, store_name: '', tenant_name: '' }, 'x@y').sender_name).toBe('x@y');
    expect(senderOf(null, 'no-reply@localhost')).toEqual({ sender_name: 'no-reply@localhost', reply_to: 'no-reply@localhost', store_name: '' });
  });

  it("replies to the store's reply-to, else MAIL_FROM", () => {
    expect(senderOf({ ...store, notification_reply_to: null }, 'no-reply@shop.example').reply_to).toBe('no-reply@shop.example');
    expect(senderOf({ ...store, notification_reply_to: '' }, 'no-reply@shop.example').reply_to).toBe('no-reply@shop.example');
  });
});

describe('message types', () => {
  it('knows the documented types and refuses another, listing them', () => {
    for (const key of ['order.paid', 'order.cancelled', 'shipment.created', 'admin_user.invited', 'auth.login_code']) {
      expect(messageType(key).key).toBe(key);
    }
    expect(messageType('auth.login_code').variables).toHaveProperty('code');
    expect(() => messageType('order.created')).toThrow(
      expect.objectContaining({
        kind: 'validation_failed',
        message: expect.stringMatching(/^type_key: unknown message type order.created: one of order.paid, /),
      }),
    );
    // Names every plain object has are no message types (they were taken before, storing templates of no type).
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(() => messageType(key)).toThrow(expect.objectContaining({ kind: 'validation_failed' }));
    }
  });
});

describe('previews', () => {
  it('have an example value for every variable of every message type', () => {
    for (const type of Object.values(MESSAGE_TYPES))
      for (const name of Object.keys(type.variables)) expect([name, EXAMPLE_VARIABLES[name]]).not.toContainEqual(undefined);
  });
});
