import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { CreatedTenant } from '@backoffice/identity';
import { maskEventPayload, maskPersonal, payloadSchemas, resultProblem, t as schema } from '@backoffice/platform';
import { orderCreated, orderPaid } from '../subgraphs/orders/src/events';
import { addressFor, customerFor } from '../subgraphs/orders/src/domain/order-view';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * Personal fields (spec rule 7) beyond the order reads: declared once on a schema (`personal`), masked
 * by the platform's `maskPersonal` in the events read without `pii.read`, and in webhook deliveries
 * unless the subscription has `personal_data` (which only a key holding `pii.read` may set).
 */

describe('maskPersonal', () => {
  const address = schema.object({ line1: schema.string(), city: schema.string(), country: schema.string({ personal: false }) }, { personal: true });
  const payload = schema.object({
    order_id: schema.string(),
    total: schema.integer(),
    customer: schema.object(
      {
        email: schema.email(),
        name: schema.optional(schema.string()),
        vip: schema.boolean(),
        tags: schema.array(schema.string()),
        tier: schema.enum(['gold', 'silver'] as const),
      },
      { personal: true },
    ),
    address: schema.nullable(address),
    note: schema.string({ personal: true }),
    contact: schema.nullable(schema.email({ personal: true })),
    public_note: schema.string(),
    extra: schema.optional(schema.record({ personal: true })),
  });
  const value = {
    order_id: 'ord_1',
    total: 1250,
    customer: { email: 'ana.lima@lima-family.example', name: 'Ana Lima', vip: true, tags: ['returning'], tier: 'gold' as const },
    address: { line1: 'Rua A, 1', city: 'Recife', country: 'BR' },
    note: 'call after 6pm',
    contact: null,
    public_note: 'gift wrap',
    extra: { birthday: '1990-01-01', nested: { phone: '+55 81 5555' }, count: 2 },
  };

  it('masks what the schema marks personal, keeping the shape, the email domain and what is marked not personal', () => {
    const masked = maskPersonal(payload, value);
    expect(masked).toEqual({
      order_id: 'ord_1',
      total: 1250,
      customer: { email: '***@lima-family.example', name: '***', vip: true, tags: ['***'], tier: 'gold' },
      address: { line1: '***', city: '***', country: 'BR' },
      note: '***',
      contact: null,
      public_note: 'gift wrap',
      extra: { birthday: '***', nested: { phone: '***' }, count: 2 },
    });
    // A copy: the value itself is untouched, and the masked one still fits the schema.
    expect(value.customer.email).toBe('ana.lima@lima-family.example');
    expect(resultProblem(payload, masked)).toBeNull();
    expect(maskPersonal(payload, { ...value, address: null, contact: 'x@y.example' })).toMatchObject({ address: null, contact: '***@y.example' });
    // Masking is idempotent (a delivery recorded masked stays the same).
    expect(maskPersonal(payload, masked)).toEqual(masked);
  });

  it('is an annotation of the JSON schema that validation ignores', () => {
    expect(payload.properties.customer['x-personal']).toBe(true);
    expect(payload.properties.note['x-personal']).toBe(true);
    expect(address.properties.country['x-personal']).toBe(false);
    expect('personal' in payload.properties.customer).toBe(false);
    expect(resultProblem(payload, value)).toBeNull();
    expect(JSON.stringify(orderCreated.payload.properties.customer)).toContain('"x-personal":true');
    expect(JSON.stringify(orderPaid.payload.properties.customer)).toContain('"x-personal":true');
  });

  it('masks an event payload by its declaration, and the whole payload of an undeclared type', () => {
    const schemas = payloadSchemas([orderPaid]);
    const paid = { order_id: 'ord_1', store_id: 'sto_1', currency: 'EUR', total_amount: 10, customer: { email: 'a@b.example', name: 'A' } };
    expect(maskEventPayload(schemas, 'order.paid', paid)).toEqual({ ...paid, customer: { email: '***@b.example', name: '***' } });
    expect(maskEventPayload(schemas, 'gone.event', { id: 'x', n: 1 })).toEqual({ id: '***', n: 1 });
  });

  it('gives the order reads their convention (customer and address)', () => {
    expect(customerFor({ email: 'buyer@example.com', name: 'Ana' }, false)).toEqual({ email: '***@example.com', name: '***', phone: null });
    expect(customerFor({ email: 'buyer@example.com', name: 'Ana' }, true)).toEqual({ email: 'buyer@example.com', name: 'Ana', phone: null });
    const home = { name: 'Ana', line1: 'Rua A, 1', city: 'Recife', postal_code: '50000-000', country: 'BR' };
    expect(addressFor(home, false)).toEqual({ name: '***', line1: '***', line2: null, city: '***', region: null, postal_code: '***', country: 'BR' });
    expect(addressFor(home, true)).toEqual({ ...home, line2: null, region: null });
    expect(addressFor(null, false)).toBeNull();
  });
});

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { event_id: string; type: string; payload: Record<string, any> };
}

let t: TestSystem;
let receiver: Server;
let base: string;
const received: Received[] = [];
const ENV = {
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_DELAY_SECONDS: '1',
  WEBHOOK_SECRET_KEY: 'test-key-test-key-test-key-test-key-0002',
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', headers: req.headers, body, event: JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const saved = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
  Object.assign(process.env, ENV);
  try {
    t = await startTestSystem();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await new Promise((ok) => receiver.close(ok));
});

const CUSTOMER = { email: 'ana.lima@lima-family.example', name: 'Ana Lima' };
const MASKED = { email: '***@lima-family.example', name: '***' };

let shop: CreatedTenant;
const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
const keyWith = async (scopes: string[]) => (await ok('iam.api_key.create', { name: `key ${scopes.join(' ')}`, scopes })).token as string;
/** A paid order of the shop: order.created and order.paid carry its customer. */
const paidOrder = async () => {
  const { product_id } = await ok('catalog.product.create', { title: 'Mug', handle: `mug-${Date.now()}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `MUG-${Date.now()}`, amount: 1000, currency: 'EUR' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 5 });
  const { order_id } = await ok('order.create', { store_id: shop.store_id, customer: CUSTOMER, items: [{ sku_id, qty: 1 }] });
  await ok('order.mark_paid', { order_id });
  return order_id as string;
};

describe('GET /v1/read/internal/events', () => {
  it('masks the personal fields of payloads without pii.read, and shows them with it', async () => {
    shop = await t.newTenant();
    const order_id = await paidOrder();
    await t.system.runtimes.get('orders')!.relay.kick();
    const plain = await keyWith(['events.read']);
    const pii = await keyWith(['events.read', 'pii.read']);
    for (const type of ['order.created', 'order.paid']) {
      const hidden = await t.read('/internal/events', { type }, plain);
      expect(hidden.status).toBe(200);
      expect(hidden.body.items).toHaveLength(1);
      expect(hidden.body.items[0].payload).toMatchObject({ order_id, store_id: shop.store_id, currency: 'EUR', total_amount: 1000, customer: MASKED });
      expect(JSON.stringify(hidden.body)).not.toContain('ana.lima@');
      expect(JSON.stringify(hidden.body)).not.toContain('Ana Lima');

      const shown = await t.read('/internal/events', { type }, pii);
      expect(shown.body.items[0].payload).toMatchObject({ order_id, customer: CUSTOMER });
    }
    // The owner key carries every scope, pii.read included.
    expect((await t.read('/internal/events', { type: 'order.paid' }, shop.token)).body.items[0].payload.customer).toEqual(CUSTOMER);
    // Events without personal fields are unchanged.
    const reserved = await t.read('/internal/events', { type: 'inventory.reserved' }, plain);
    expect(reserved.body.items[0].payload).toMatchObject({ order_id, warehouse_id: expect.any(String) });
    // Over GraphQL, the orders subgraph's own part of the read masks the same.
    const gql = await t.graphql(`{ orders_events(input: { type: "order.paid" }) { items { payload } } }`, {}, plain);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.orders_events.items[0].payload.customer).toEqual(MASKED);
  });
});

describe('webhook deliveries', () => {
  it('are masked unless the subscription has personal_data, set only by a key holding pii.read; the signature covers the body sent', async () => {
    shop = await t.newTenant();
    const writer = await keyWith(['webhooks.write', 'webhooks.read']);
    const events = ['order.created', 'order.paid'];

    // Without pii.read, personal_data cannot be set.
    const refused = await t.command('webhook.subscription.create', { url: `${base}/clear`, event_types: events, personal_data: true }, writer);
    expect(refused.status).toBe(403);
    expect(refused.body.error ?? refused.body).toMatchObject({ kind: 'forbidden' });

    const masked = await ok('webhook.subscription.create', { url: `${base}/masked`, event_types: events }, writer);
    // The owner key (every scope) also gets masked payloads unless it asks: the default is masked.
    const ownerDefault = await ok('webhook.subscription.create', { url: `${base}/owner-default`, event_types: ['order.paid'] });
    const clear = await ok('webhook.subscription.create', { url: `${base}/clear`, event_types: events, personal_data: true });
    const listed = await t.read('/internal/webhooks', {}, shop.token);
    const flags = Object.fromEntries(listed.body.items.map((s: any) => [s.subscription_id, s.personal_data]));
    expect(flags).toEqual({ [masked.subscription_id]: false, [ownerDefault.subscription_id]: false, [clear.subscription_id]: true });
    const created = await t.read('/internal/events', { type: 'webhook.subscription.created' }, shop.token);
    expect(created.body.items.find((e: any) => e.payload.subscription_id === clear.subscription_id).payload.personal_data).toBe(true);

    const order_id = await paidOrder();
    const arrivals = await eventually(async () => {
      const mine = received.filter((r) => r.event.payload.order_id === order_id);
      return mine.length >= 5 ? mine : undefined;
    }, 20_000);
    const at = (path: string, type: string) => arrivals.find((r) => r.path === path && r.event.type === type)!;
    const verify = (r: Received, secret: string) =>
      new Webhook(secret).verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });

    for (const type of events) {
      const hidden = at('/masked', type);
      expect(hidden.event.payload).toMatchObject({ order_id, customer: MASKED });
      expect(hidden.body).not.toContain('ana.lima@');
      expect(verify(hidden, masked.secret)).toMatchObject({ type, payload: { customer: MASKED } });

      const shown = at('/clear', type);
      expect(shown.event.payload).toMatchObject({ order_id, customer: CUSTOMER });
      expect(verify(shown, clear.secret)).toMatchObject({ type, payload: { customer: CUSTOMER } });
    }
    expect(at('/owner-default', 'order.paid').event.payload.customer).toEqual(MASKED);
    expect(verify(at('/owner-default', 'order.paid'), ownerDefault.secret)).toBeTruthy();

    // A key without pii.read can neither point the clear subscription elsewhere nor turn personal_data on,
    const redirect = await t.command('webhook.subscription.update', { subscription_id: clear.subscription_id, url: `${base}/stolen` }, writer);
    expect(redirect.status).toBe(403);
    const turnOn = await t.command('webhook.subscription.update', { subscription_id: masked.subscription_id, personal_data: true }, writer);
    expect(turnOn.status).toBe(403);
    // but it may change a masked one's url, and turn personal data off.
    expect((await t.command('webhook.subscription.update', { subscription_id: masked.subscription_id, url: `${base}/masked-2` }, writer)).status).toBe(200);
    const off = await t.command('webhook.subscription.update', { subscription_id: clear.subscription_id, personal_data: false }, writer);
    expect(off.status).toBe(200);
    expect(off.body.personal_data).toBe(false);
    // The owner (pii.read) turns it on again.
    expect((await ok('webhook.subscription.update', { subscription_id: clear.subscription_id, personal_data: true })).personal_data).toBe(true);
  }, 40_000);
});
