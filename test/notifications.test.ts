import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mailerFromEnv } from '@backoffice/content';
import { notificationDispatch } from '../subgraphs/content/src/consumers/notifications';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { CreatedTenant } from '@backoffice/identity';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * Message notifications over real HTTP, sent by the pipeline (events → content's consumer → the send
 * task with retries) through nodemailer to a real SMTP server run here.
 */
interface Received {
  to: string[];
  mail: ParsedMail;
}

let t: TestSystem;
let smtp: SMTPServer;
const received: Received[] = [];
/** Recipients refused (451) this many more times: a failing SMTP server, then a working one. */
const refuse = new Map<string, number>();
const saved = { ...process.env };
const MAIL_FROM = 'mailer@backoffice.test';
let shop: CreatedTenant;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const left = refuse.get(address.address) ?? 0;
      if (left > 0) {
        refuse.set(address.address, left - 1);
        return callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.MAIL_FROM = MAIL_FROM;
  process.env.NOTIFICATION_RETRY_DELAY_SECONDS = '1';
  t = await startTestSystem();
});

afterAll(async () => {
  process.env = saved;
  await t?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

beforeEach(async () => {
  shop = await t.newTenant();
});

const call = (name: string, input: unknown, token: string | null = shop.token) => t.command(name, input, token ?? undefined);
const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
const kind = async (name: string, input: unknown, token: string | null = shop.token) => {
  const res = await t.command(name, input, token as string);
  return res.status === 200 ? 'ok' : `${res.status} ${res.body.error.kind}`;
};
/** The mails that arrived for an address (and match), waiting for at least `count`. */
const mailsTo = (address: string, count = 1, match: (m: ParsedMail) => boolean = () => true) =>
  eventually(async () => {
    const found = received.filter((r) => r.to.includes(address) && match(r.mail)).map((r) => r.mail);
    return found.length >= count ? found : undefined;
  }, 20_000);
const records = async (query: Record<string, string> = {}, token = shop.token) => {
  const res = await t.read('/internal/notifications', { limit: '100', ...query }, token);
  expect(res.status).toBe(200);
  return res.body.items as any[];
};

let seq = 0;
async function paidOrder(customer: { email: string; name?: string }, qty = 1) {
  const n = ++seq;
  const { product_id } = await ok('catalog.product.create', { title: `Mug ${n}`, handle: `mug-${n}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `MUG-${n}`, amount: 12990, currency: 'BRL' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 100 });
  const { order_id } = await ok('order.create', { store_id: shop.store_id, customer, items: [{ sku_id, qty }] });
  return order_id as string;
}

const storeName = async () => (await t.sql(`SELECT name FROM identity.store WHERE id = $1`, [shop.store_id]))[0].name as string;
const handleOf = async () => (await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [shop.store_id]))[0].handle as string;

describe('sending', () => {
  it('order.paid: the customer gets the rendered mail, HTML-escaped, from the store name with the instance reply-to; then from the store settings', async () => {
    const order_id = await paidOrder({ email: 'eve@example.com', name: '<b>Eve</b>' });
    await ok('order.mark_paid', { order_id });
    const [mail] = await mailsTo('eve@example.com');
    expect(mail.subject).toBe(`Payment received for order ${order_id}`);
    expect(mail.from!.value[0]).toEqual({ name: await storeName(), address: MAIL_FROM });
    expect(mail.replyTo!.value[0].address).toBe(MAIL_FROM);
    expect(mail.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>Eve</b>');
    expect(mail.html).toContain('129.90 BRL');
    expect(mail.text).toContain('Hello <b>Eve</b>,');

    // The store's sender name and reply-to, once set.
    await ok('tenant.store.update', { id: shop.store_id, notification_sender_name: 'Eve & Co', notification_reply_to: 'help@eve.example' });
    const second = await paidOrder({ email: 'eve2@example.com', name: 'Eve Two' });
    await ok('order.mark_paid', { order_id: second });
    const [again] = await mailsTo('eve2@example.com');
    expect(again.from!.value[0]).toEqual({ name: 'Eve & Co', address: MAIL_FROM });
    expect(again.replyTo!.value[0].address).toBe('help@eve.example');

    // Cleared: back to the store's name.
    await ok('tenant.store.update', { id: shop.store_id, name: 'Renamed Store', notification_sender_name: '', notification_reply_to: '' });
    const third = await paidOrder({ email: 'eve3@example.com' });
    await ok('order.mark_paid', { order_id: third });
    const [cleared] = await mailsTo('eve3@example.com');
    expect(cleared.from!.value[0]).toEqual({ name: 'Renamed Store', address: MAIL_FROM });
    expect(cleared.replyTo!.value[0].address).toBe(MAIL_FROM);

    const [record] = await eventually(async () => {
      const rows = (await records({ type_key: 'order.paid', status: 'sent' })).filter((r) => r.sender_name === 'Eve & Co');
      return rows.length ? rows : undefined;
    });
    expect(record).toMatchObject({
      type_key: 'order.paid',
      channel_key: 'email',
      status: 'sent',
      attempts: 1,
      body_stored: true,
      resent_from: null,
      reply_to: 'help@eve.example',
    });
  });

  it('order.cancelled and shipment.created reach the customer content learned from order.created', async () => {
    const cancelled = await paidOrder({ email: 'cancel@example.com', name: 'Cy' });
    await ok('order.cancel', { order_id: cancelled, reason: 'customer_request' });
    const [mail] = await mailsTo('cancel@example.com');
    expect(mail.subject).toBe(`Order ${cancelled} was cancelled`);
    expect(mail.text).toContain('(customer_request)');

    const shipped = await paidOrder({ email: 'ship@example.com', name: 'Sam' }, 2);
    const view = (await t.read('/internal/order', { order_id: shipped }, shop.token)).body;
    const split = await ok('order.shipment.create', { order_id: shipped, items: [{ order_item_id: view.items[0].order_item_id, qty: 1 }] });
    const [shipment] = await mailsTo('ship@example.com', 1, (m) => (m.subject ?? '').includes('parcel'));
    expect(shipment.text).toContain(split.shipment_id);
  });

  it('records as failed, without retrying for ever, a cancellation of an order placed before notifications existed', async () => {
    const order_id = await paidOrder({ email: 'before@example.com' });
    // As for an order whose order.created content never saw: it forgets the customer, then gets the
    // 10th delivery of its cancellation (the bus's retries about 8 minutes on).
    await eventually(async () => ((await t.sql(`SELECT 1 FROM content.notification_order WHERE order_id = $1`, [order_id])).length ? true : undefined));
    await t.sql(`DELETE FROM content.notification_order WHERE order_id = $1`, [order_id]);
    const content = t.system.runtimes.get('content')!;
    const event = {
      event_id: `evt_before_${order_id}`,
      type: 'order.cancelled',
      tenant_id: shop.tenant_id,
      occurred_at: new Date().toISOString(),
      actor_id: null,
      request_id: null,
      payload: { order_id, store_id: shop.store_id, reason: 'customer_request' },
    };
    const ports = { senders: { sender: async () => null }, mail: { from: MAIL_FROM } };
    const queued: unknown[] = [];
    await content.dataSource.transaction((db) =>
      notificationDispatch.handler({
        event,
        attempt: 10,
        db,
        log: () => undefined,
        ports: ports as never,
        enqueue: (task: unknown) => void queued.push(task),
        emit: () => undefined,
      } as never),
    );
    expect(queued).toEqual([]);
    const [record] = await t.sql(`SELECT type_key, status, last_error FROM content.notification WHERE source_ref = $1 AND type_key = 'order.cancelled'`, [
      order_id,
    ]);
    expect(record).toMatchObject({ type_key: 'order.cancelled', status: 'failed' });
    expect(record.last_error).toMatch(/recipient is unknown: the order was placed before message notifications existed/);
    // An earlier delivery is retried instead (its order.created may still be on its way).
    const fresh = { ...event, event_id: `evt_fresh_${order_id}` };
    await expect(
      content.dataSource.transaction((db) =>
        notificationDispatch.handler({
          event: fresh,
          attempt: 9,
          db,
          log: () => undefined,
          ports: ports as never,
          enqueue: () => undefined,
          emit: () => undefined,
        } as never),
      ),
    ).rejects.toThrow(/not known to the notification pipeline yet/);
  });

  it('retries a send the SMTP server refused, with backoff, until it goes through', async () => {
    refuse.set('flaky@example.com', 2);
    const order_id = await paidOrder({ email: 'flaky@example.com' });
    await ok('order.mark_paid', { order_id });
    await mailsTo('flaky@example.com');
    const record = await eventually(async () => (await records({ type_key: 'order.paid' })).find((r) => r.status === 'sent'));
    expect(record.attempts).toBe(3);
    expect(refuse.get('flaky@example.com')).toBe(0);
  });
});

describe('operators', () => {
  it('sends the invitation with the link kept, and without the link when it was a loopback address', async () => {
    await ok('admin_user.invite', { email: 'ana@example.com', name: 'Ana', role: 'admin', admin_login_url: 'https://admin.example.com/login' });
    await ok('admin_user.invite', { email: 'leo@example.com', name: 'Leo', role: 'staff', admin_login_url: 'http://localhost:5173/login', locale: 'pt-BR' });
    const [ana] = await mailsTo('ana@example.com');
    expect(ana.html).toContain('href="https://admin.example.com/login"');
    expect(ana.subject).toBe(`You are invited to ${await storeName()}`);
    const [leo] = await mailsTo('leo@example.com');
    expect(leo.subject).toBe(`Você foi convidado para ${await storeName()}`);
    expect(leo.html).not.toContain('href=');
    expect(leo.text).not.toContain('localhost');
  });

  it('mails the login code, which verifies; its record keeps no body and cannot be resent', async () => {
    await ok('admin_user.invite', { email: 'otp@example.com', name: 'Otto', role: 'staff', locale: 'es' });
    const store = await handleOf();
    expect((await t.command('auth.login_code.request', { store, email: 'otp@example.com' }, null as unknown as string)).status).toBe(200);
    const [mail] = await mailsTo('otp@example.com', 1, (m) => /^Tu código de acceso: /.test(m.subject ?? ''));
    expect(mail.subject).toMatch(/^Tu código de acceso: \d{6}$/);
    const code = /(\d{6})/.exec(mail.subject!)![1];
    const session = await t.command('auth.login_code.verify', { store, email: 'otp@example.com', code }, null as unknown as string);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ activated: true });

    const record = await eventually(async () => (await records({ type_key: 'auth.login_code', status: 'sent' }))[0]);
    expect(record.body_stored).toBe(false);
    const detail = await t.read('/internal/notification', { notification_id: record.notification_id }, shop.token);
    expect(detail.body).toMatchObject({ subject: null, body_html: null, body_text: null });
    const [row] = await t.sql(`SELECT subject, body_html, body_text FROM content.notification WHERE id = $1`, [record.notification_id]);
    expect(row).toEqual({ subject: null, body_html: null, body_text: null });
    const refused = await call('notification.resend', { notification_id: record.notification_id });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/authentication code/);
  });
});

describe('notification.resend', () => {
  it('repeats the recorded snapshot after the template changed, as a new record linked to the original', async () => {
    const order_id = await paidOrder({ email: 'again@example.com', name: 'Al' });
    await ok('order.mark_paid', { order_id });
    const [first] = await mailsTo('again@example.com');
    const original = await eventually(async () => (await records({ type_key: 'order.paid', status: 'sent' }))[0]);

    await ok('notification.template.set', {
      type_key: 'order.paid',
      channel_key: 'email',
      locale: 'en',
      store_id: null,
      fields: { subject: 'NEW {{order_id}}', html: '<p>new</p>' },
    });
    const resent = await ok('notification.resend', { notification_id: original.notification_id });
    expect(resent).toEqual({ notification_id: expect.stringMatching(/^ntf_/), type_key: 'order.paid', channel_key: 'email', requested: true });
    expect(resent.notification_id).not.toBe(original.notification_id);
    const both = await mailsTo('again@example.com', 2);
    expect(both[1].subject).toBe(first.subject);
    expect(both[1].html).toBe(first.html);
    const record = await eventually(async () => (await records()).find((r) => r.notification_id === resent.notification_id && r.status === 'sent'));
    expect(record.resent_from).toBe(original.notification_id);

    // The new template is used by the next message.
    const next = await paidOrder({ email: 'new@example.com' });
    await ok('order.mark_paid', { order_id: next });
    const [fresh] = await mailsTo('new@example.com');
    expect(fresh.subject).toBe(`NEW ${next}`);

    const events = (await t.read('/internal/events', { type: 'notification.resend_requested', limit: '10' }, shop.token)).body.items;
    expect(events.map((e: any) => e.payload)).toEqual([
      { notification_id: resent.notification_id, resent_from: original.notification_id, type_key: 'order.paid', channel_key: 'email' },
    ]);
  });

  it('refuses with the right kinds', async () => {
    expect(await kind('notification.resend', { notification_id: 'ntf_nope' })).toBe('409 conflict');
    expect(await kind('notification.resend', {})).toBe('400 validation_failed');
    expect(await kind('notification.resend', { notification_id: 'x' }, null)).toBe('401 unauthorized');
    const { token } = await ok('iam.api_key.create', { name: 'reader', scopes: ['notifications.read'] });
    const forbidden = await t.command('notification.resend', { notification_id: 'x' }, token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toContain('order.write');
  });
});

describe('channels and enablement', () => {
  it('registers a channel (again: updated); set_enabled names each missing required field; off always succeeds', async () => {
    const sms = {
      key: 'sms_gateway',
      label: 'SMS',
      variant_schema: [
        { name: 'body', label: 'Body', type: 'multiline', required: true, template: true },
        { name: 'sender', label: 'Sender', type: 'select', options: [{ value: 'brand', label: 'Brand' }], required: true },
      ],
    };
    expect(await ok('notification.channel.register', sms)).toEqual({ channel_key: 'sms_gateway' });
    expect(await ok('notification.channel.register', { ...sms, label: 'SMS v2', notice: 'costs apply', extension_id: 'ext_sms' })).toEqual({
      channel_key: 'sms_gateway',
    });
    const [row] = await t.sql(`SELECT label, notice, extension_id FROM content.notification_channel WHERE tenant_id = $1`, [shop.tenant_id]);
    expect(row).toEqual({ label: 'SMS v2', notice: 'costs apply', extension_id: 'ext_sms' });

    const on = await call('notification.channel.set_enabled', {
      type_key: 'order.paid',
      channel_key: 'sms_gateway',
      enabled: true,
      store_id: null,
      locale: 'pt-BR',
    });
    expect(on.status).toBe(409);
    expect(on.body.error.kind).toBe('conflict');
    expect(on.body.error.message).toContain('body, sender');
    expect(await ok('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'sms_gateway', enabled: false })).toEqual({
      type_key: 'order.paid',
      channel_key: 'sms_gateway',
      enabled: false,
    });

    // A template with both: on is accepted.
    await ok('notification.template.set', {
      type_key: 'order.paid',
      channel_key: 'sms_gateway',
      locale: 'pt',
      fields: { body: 'Pedido {{order_id}} pago', sender: 'brand' },
    });
    expect(await ok('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'sms_gateway', enabled: true, locale: 'pt-BR' })).toEqual({
      type_key: 'order.paid',
      channel_key: 'sms_gateway',
      enabled: true,
    });

    // A template lacking a required field is refused: it would hide the complete one below it.
    const partial = await call('notification.template.set', {
      type_key: 'order.cancelled',
      channel_key: 'email',
      locale: 'en',
      store_id: shop.store_id,
      fields: { subject: 'Cancelled' },
    });
    expect([partial.status, partial.body.error.kind]).toEqual([409, 'conflict']);
    expect(partial.body.error.message).toContain('lacks required field html');
    expect(await kind('notification.channel.set_enabled', { type_key: 'order.cancelled', channel_key: 'email', enabled: true, store_id: shop.store_id })).toBe(
      'ok',
    );
    // A channel re-registered with a new required field: the template saved before lacks it, and turning on says so.
    await ok('notification.channel.register', {
      ...sms,
      variant_schema: [...sms.variant_schema, { name: 'title', label: 'Title', type: 'text', required: true, template: true }],
    });
    const stale = await call('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'sms_gateway', enabled: true, locale: 'pt-BR' });
    expect([stale.status, stale.body.error.message]).toEqual([409, expect.stringMatching(/lacks required field title$/)]);

    const events = (await t.read('/internal/events', { type: 'notification.config.updated', limit: '20' }, shop.token)).body.items;
    expect(events.map((e: any) => e.payload.change)).toEqual(expect.arrayContaining(['channel', 'enabled', 'template']));
  });

  it('a type turned off for the tenant sends nothing', async () => {
    await ok('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'email', enabled: false });
    const quiet = await paidOrder({ email: 'quiet@example.com' });
    await ok('order.mark_paid', { order_id: quiet });
    await ok('order.cancel', { order_id: await paidOrder({ email: 'quiet@example.com' }) });
    await mailsTo('quiet@example.com', 1, (m) => (m.subject ?? '').includes('cancelled'));
    expect(received.filter((r) => r.to.includes('quiet@example.com') && (r.mail.subject ?? '').startsWith('Payment'))).toEqual([]);
  });

  it('refuses bad declarations, templates and settings with the right kinds', async () => {
    const field = { name: 'body', label: 'Body', type: 'text' };
    expect(await kind('notification.channel.register', { key: 'Bad', label: 'x', variant_schema: [] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: '', variant_schema: [] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x'.repeat(81), variant_schema: [] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', notice: '', variant_schema: [] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', notice: 'n'.repeat(401), variant_schema: [] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', variant_schema: [{ ...field, name: '1x' }] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', variant_schema: [{ ...field, type: 'rich' }] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', variant_schema: [{ ...field, type: 'select' }] })).toBe(
      '400 validation_failed',
    );
    expect(await kind('notification.channel.register', { key: 'ok', label: 'x', variant_schema: [field, field] })).toBe('400 validation_failed');
    expect(await kind('notification.channel.register', { key: 'email', label: 'x', variant_schema: [] })).toBe('409 conflict');
    expect(await kind('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'email', enabled: true, locale: 'x' })).toBe(
      '400 validation_failed',
    );
    expect(await kind('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'email', enabled: true, locale: 'x'.repeat(36) })).toBe(
      '400 validation_failed',
    );
    expect(await kind('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'nope', enabled: true })).toBe('409 conflict');
    expect(await kind('notification.channel.set_enabled', { type_key: 'no.such', channel_key: 'email', enabled: true })).toBe('400 validation_failed');
    // Handlebars' own log and lookup helpers would print to the server's console (a login code, say).
    for (const subject of ['Code {{log code}}', '{{lookup this "code"}}']) {
      expect(
        await kind('notification.template.set', {
          type_key: 'auth.login_code',
          channel_key: 'email',
          locale: 'en',
          fields: { subject, html: '<p>{{code}}</p>' },
        }),
      ).toBe('400 validation_failed');
    }
    const other = await t.newTenant();
    expect(await kind('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'email', enabled: true, store_id: other.store_id })).toBe(
      '409 conflict',
    );
    expect(await kind('notification.template.set', { type_key: 'order.paid', channel_key: 'email', locale: 'en', fields: { nope: 'x' } })).toBe(
      '400 validation_failed',
    );
    expect(await kind('notification.template.set', { type_key: 'order.paid', channel_key: 'email', locale: 'en', fields: { subject: '{{#if}}' } })).toBe(
      '400 validation_failed',
    );
    const { token } = await ok('iam.api_key.create', { name: 'writer', scopes: ['extensions.write'] });
    const forbidden = await t.command('notification.channel.set_enabled', { type_key: 'order.paid', channel_key: 'email', enabled: false }, token);
    expect([forbidden.status, forbidden.body.error.message]).toEqual([403, expect.stringContaining('tenant.settings.write')]);
  });

  it("refuses turning off for an unknown type, an unregistered channel or another tenant's store, writing nothing", async () => {
    const other = await t.newTenant();
    const off = { type_key: 'order.paid', channel_key: 'email', enabled: false };
    expect(await kind('notification.channel.set_enabled', { ...off, type_key: 'no.such' })).toBe('400 validation_failed');
    expect(await kind('notification.channel.set_enabled', { ...off, channel_key: 'nope' })).toBe('409 conflict');
    expect(await kind('notification.channel.set_enabled', { ...off, store_id: other.store_id })).toBe('409 conflict');
    expect(
      await t.sql(`SELECT type_key, channel_key, store_key FROM content.notification_setting WHERE tenant_id = ANY ($1)`, [[shop.tenant_id, other.tenant_id]]),
    ).toEqual([]);
    expect(
      await t.sql(`SELECT payload FROM content.outbox_event WHERE tenant_id = ANY ($1) AND type = 'notification.config.updated'`, [
        [shop.tenant_id, other.tenant_id],
      ]),
    ).toEqual([]);
    // The same call for a known type, a registered channel and the tenant's own store is taken, and writes both.
    expect(await ok('notification.channel.set_enabled', { ...off, store_id: shop.store_id })).toEqual({
      type_key: 'order.paid',
      channel_key: 'email',
      enabled: false,
    });
    expect(await t.sql(`SELECT store_key, enabled FROM content.notification_setting WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([
      { store_key: shop.store_id, enabled: false },
    ]);
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM content.outbox_event WHERE tenant_id = $1 AND type = 'notification.config.updated'`, [shop.tenant_id]),
    ).toEqual([{ n: 1 }]);
  });
});

describe('reads', () => {
  it('lists and shows records; the recipient is masked without pii.read', async () => {
    const order_id = await paidOrder({ email: 'masked@example.com', name: 'Mo' });
    await ok('order.mark_paid', { order_id });
    await mailsTo('masked@example.com');
    const [full] = await eventually(async () => {
      const rows = await records({ status: 'sent' });
      return rows.length ? rows : undefined;
    });
    expect(full).toMatchObject({ recipient: 'masked@example.com', recipient_name: 'Mo' });
    const { token } = await ok('iam.api_key.create', { name: 'reader', scopes: ['notifications.read'] });
    const [masked] = await records({ status: 'sent' }, token);
    expect(masked.notification_id).toBe(full.notification_id);
    expect(masked.recipient).not.toContain('masked@');
    expect(masked.recipient_name).not.toBe('Mo');
    const one = await t.read('/internal/notification', { notification_id: full.notification_id }, token);
    expect(one.status).toBe(200);
    expect(one.body.recipient).not.toContain('masked@');
    // The rendered subject may hold personal variables: masked too.
    expect(one.body.subject).toBe('***');
    expect((await t.read('/internal/notification', { notification_id: 'ntf_nope' }, token)).status).toBe(404);
    expect((await records({ type_key: 'auth.login_code' })).length).toBe(0);
    expect((await t.read('/internal/notifications', { status: 'lost' }, token)).status).toBe(400);
    const { token: noScope } = await ok('iam.api_key.create', { name: 'none', scopes: ['order.read'] });
    expect((await t.read('/internal/notifications', {}, noScope)).status).toBe(403);
    expect((await t.read('/internal/notifications', {}, null as unknown as string)).status).toBe(401);
  });
});

describe('without SMTP', () => {
  it('writes each message as an .eml file under DATA_DIR/mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backoffice-mail-'));
    try {
      const mailer = mailerFromEnv({ DATA_DIR: dir, MAIL_FROM: 'shop@backoffice.test' });
      expect(mailer.description).toContain(`.eml files under ${join(dir, 'mail')}`);
      await mailer.send({
        from: { name: 'Shop & Co', address: mailer.from },
        replyTo: 'help@shop.test',
        to: { name: 'Ana', address: 'ana@example.com' },
        subject: 'Hi',
        html: '<p>Hi</p>',
        text: 'Hi',
      });
      const [file] = readdirSync(join(dir, 'mail'));
      expect(file).toMatch(/\.eml$/);
      const parsed = await simpleParser(readFileSync(join(dir, 'mail', file)));
      expect(parsed.from!.value[0]).toEqual({ name: 'Shop & Co', address: 'shop@backoffice.test' });
      expect(parsed.replyTo!.value[0].address).toBe('help@shop.test');
      expect(parsed.subject).toBe('Hi');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('template bounds', () => {
  const set = (fields: Record<string, string>, type_key = 'order.paid') =>
    t.command('notification.template.set', { type_key, channel_key: 'email', locale: 'en', fields }, shop.token);

  it('refuses partials, iteration over @root and unescaped HTML at set time, naming them', async () => {
    const refused = async (fields: Record<string, string>) => {
      const res = await set({ subject: 'Paid', ...fields });
      expect([res.status, res.body.error.kind]).toEqual([400, 'validation_failed']);
      return res.body.error.message as string;
    };
    expect(await refused({ html: '{{> header}}<p>Paid</p>' })).toMatch(/fields\.html .*partial header/);
    expect(await refused({ html: `${'{{#each @root}}'.repeat(7)}x${'{{/each}}'.repeat(7)}` })).toMatch(/fields\.html/);
    expect(await refused({ html: '{{#each @root}}{{this}}{{/each}}' })).toMatch(/\{\{#each\}\} is not allowed/);
    expect(await refused({ html: '<p>{{{customer_name}}}</p>' })).toMatch(/leaves HTML unescaped/);
    // In the plain-text field a value is written as it is anyway: triple braces change nothing there.
    expect((await set({ subject: '{{{customer_name}}}', html: '<p>{{customer_name}}</p>', text: '{{{customer_name}}}' })).status).toBe(200);
  });

  /** A template kept before the rules existed, written straight to the table as it was then. */
  const keep = (fields: Record<string, string>) =>
    t.sql(
      `INSERT INTO content.notification_template (tenant_id, store_key, type_key, channel_key, locale, fields) VALUES ($1, '', 'order.paid', 'email', 'en', $2)
       ON CONFLICT (tenant_id, type_key, channel_key, store_key, locale) DO UPDATE SET fields = EXCLUDED.fields`,
      [shop.tenant_id, JSON.stringify(fields)],
    );
  const failedRecord = async (email: string) => {
    const order_id = await paidOrder({ email, name: '€'.repeat(200) });
    await ok('order.mark_paid', { order_id });
    return eventually(async () => {
      const [row] = await t.sql(`SELECT id, status, last_error, subject, body_html FROM content.notification WHERE tenant_id = $1 AND source_ref = $2`, [
        shop.tenant_id,
        order_id,
      ]);
      return row?.status === 'failed' ? row : undefined;
    }, 20_000);
  };

  it('renders a kept exponential template within its bounds: recorded failed with the reason, not sent, not resent', async () => {
    await keep({ subject: 'Paid', html: `${'{{#each @root}}'.repeat(7)}{{this}}${'{{/each}}'.repeat(7)}` });
    const record = await failedRecord('loop@example.com');
    expect(record).toMatchObject({ subject: null, body_html: null, last_error: expect.stringContaining('nests blocks deeper than 6') });
    const resend = await call('notification.resend', { notification_id: record.id });
    expect([resend.status, resend.body.error.kind]).toEqual([409, 'conflict']);
    expect(received.filter((r) => r.to.includes('loop@example.com'))).toEqual([]);
  });

  it('records failed, unsent, a message whose field renders past 256 KiB', async () => {
    // Allowed at set time (249 tags, 80,000 characters), but 200 three-byte characters a name make it 390 KB.
    const html = '€'.repeat(80_000) + '{{customer_name}}'.repeat(249);
    expect((await set({ subject: 'Paid', html })).status).toBe(200);
    const record = await failedRecord('big@example.com');
    expect(record).toMatchObject({ subject: null, body_html: null, last_error: expect.stringContaining('html renders to more than 262144 bytes') });
    expect(received.filter((r) => r.to.includes('big@example.com'))).toEqual([]);
  });
});
