import type { CreatedTenant } from '@backoffice/identity';
import type { PaymentVerifier } from '@backoffice/orders';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * `order.payment.confirm` with payment apps whose verification takes time or says no: the system is
 * started with a verifier of its own, as a deployment plugs in its providers'.
 */
let t: TestSystem;
let shop: CreatedTenant;
let release: () => void = () => undefined;
const verifier: PaymentVerifier = {
  async verify({ app_key }) {
    if (app_key === 'slowpay') await new Promise<void>((resolve) => (release = resolve));
    return app_key !== 'declining';
  },
};
beforeAll(async () => {
  t = await startTestSystem({ payments: verifier });
  shop = await t.newTenant();
});
afterAll(() => t.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (name: string, input: unknown) => t.ok(name, input, shop.token);
let seq = 0;
/** An order of one unit awaiting payment through the app, by a method whose window is one second. */
const unpaidOrder = async (app_key: string) => {
  const { product_id } = await ok('catalog.product.create', { title: `Mug ${++seq}`, handle: `mug-${seq}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `MUG-${seq}`, amount: 1000, currency: 'EUR' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 5 });
  const { app_id } = await ok('payment.app.install', { app_key, name: app_key, methods: [{ method: 'pix', reservation_window_seconds: 1 }] });
  const placed = await ok('order.create', {
    store_id: shop.store_id,
    customer: { email: 'buyer@example.com' },
    items: [{ sku_id, qty: 1 }],
    payment: { app_id, method: 'pix' },
  });
  return { order_id: placed.order_id as string, sku_id };
};
const statusOf = async (order_id: string) => (await t.sql(`SELECT status FROM orders."order" WHERE id = $1`, [order_id]))[0].status;
const attemptOf = async (order_id: string) => (await t.sql(`SELECT status, failure_reason FROM orders.payment_attempt WHERE order_id = $1`, [order_id]))[0];

it('spares an order while its app verifies the payment, past its window, then pays it', async () => {
  const { order_id, sku_id } = await unpaidOrder('slowpay');
  const confirming = t.command('order.payment.confirm', { order_id, provider_reference: 'psp-1' }, shop.token);
  await eventually(async () => ((await attemptOf(order_id)).status === 'confirming' ? true : undefined));
  await sleep(1200);
  // The window ran out while the app was still verifying: expiry leaves the order alone.
  expect(await ok('order.expire_unpaid', {})).toMatchObject({ expired: [], spared: [order_id] });
  expect(await statusOf(order_id)).toBe('pending_payment');

  release();
  const answer = await confirming;
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ order_id, status: 'paid', orphaned: false });
  expect(await statusOf(order_id)).toBe('paid');
  expect((await t.read('/internal/inventory', { sku_id }, shop.token)).body.items[0]).toMatchObject({ on_hand: 4, reserved: 0 });
});

it('leaves the order awaiting payment when the app declines, its attempt failed', async () => {
  const { order_id } = await unpaidOrder('declining');
  const refused = await t.command('order.payment.confirm', { order_id }, shop.token);
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatchObject({ kind: 'conflict', message: expect.stringContaining('did not verify') });
  expect(await attemptOf(order_id)).toEqual({ status: 'failed', failure_reason: 'declined' });
  expect(await statusOf(order_id)).toBe('pending_payment');
  expect(await t.sql(`SELECT count(*)::int AS n FROM orders.outbox_event WHERE type = 'order.paid' AND payload->>'order_id' = $1`, [order_id])).toEqual([
    { n: 0 },
  ]);
});
