import type { CreatedTenant } from '@backoffice/identity';
import { startTestSystem, type TestSystem } from './helpers';

/** Rules of issue 9 (and the stamped delivery date of issue 10) that orders.test.ts does not prove. */

let t: TestSystem;
/** Each test runs in a tenant of its own: expiry starts per tenant, and event counts stay exact. */
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const call = (name: string, input: unknown, token = shop.token) => t.command(name, input, token);
const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
/** The status and kind a command answered with ('200 ok' for success). */
const kind = async (name: string, input: unknown) => {
  const res = await call(name, input);
  return res.status === 200 ? '200 ok' : `${res.status} ${res.body?.error?.kind}`;
};
/** The payloads of the tenant's events of a type, newest first. */
const eventsOf = async (type: string) => {
  await t.system.runtimes.get('orders')!.relay.kick();
  const res = await t.read('/internal/events', { type, limit: '100' }, shop.token);
  if (res.status !== 200) throw new Error(`events: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { items: any[] }).items.map((e) => e.payload);
};
const level = async (sku_id: string) => (await t.read('/internal/inventory', { sku_id }, shop.token)).body.items[0];
const readOrder = async (order_id: string) => {
  const res = await t.read('/internal/order', { order_id }, shop.token);
  if (res.status !== 200) throw new Error(`read: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const uses = async () =>
  (await t.sql(`SELECT code, uses FROM orders.coupon WHERE tenant_id = $1 ORDER BY code`, [shop.tenant_id])).map((r) => [r.code, r.uses]);
/** Milliseconds between an ISO time and `from` + `seconds`. */
const off = (iso: string, seconds: number, from = Date.now()) => Math.abs(Date.parse(iso) - from - seconds * 1000);
const inDays = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
};
let seq = 0;
/** A published product with one SKU (stock in the default warehouse when given). */
const sellable = async (amount: number, stock?: number, currency = 'EUR') => {
  const { product_id } = await ok('catalog.product.create', { title: `Cup ${++seq}`, handle: `cup-${seq}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `CUP-${seq}`, amount, currency });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  if (stock !== undefined) await ok('inventory.adjust', { sku_id, on_hand: stock });
  return sku_id as string;
};
const order = (items: Array<{ sku_id: string; qty: number }>, extra: Record<string, unknown> = {}) =>
  call('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items, ...extra });
const placed = async (items: Array<{ sku_id: string; qty: number }>, extra: Record<string, unknown> = {}) => {
  const res = await order(items, extra);
  if (res.status !== 200) throw new Error(`order.create: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

describe('events', () => {
  it('inventory.warehouse.created and inventory.adjusted carry what was done; a refused adjustment emits nothing', async () => {
    const { warehouse_id } = await ok('inventory.warehouse.create', { code: 'north-side', name: 'North side' });
    expect((await eventsOf('inventory.warehouse.created')).filter((p) => p.code !== 'default')).toEqual([
      { warehouse_id, code: 'north-side', name: 'North side' },
    ]);
    // A code taken: refused, no second event.
    expect(await kind('inventory.warehouse.create', { code: 'north-side', name: 'Again' })).toBe('409 conflict');
    expect((await eventsOf('inventory.warehouse.created')).filter((p) => p.code !== 'default')).toHaveLength(1);

    const sku_id = await sellable(100);
    await ok('inventory.adjust', { sku_id, warehouse_id, on_hand: 10 });
    await ok('inventory.adjust', { sku_id, warehouse_id, delta: -3 });
    await ok('inventory.reserve', { items: [{ sku_id, qty: 5 }], warehouse_id });
    expect(await kind('inventory.adjust', { sku_id, warehouse_id, on_hand: 4 })).toBe('409 conflict');
    expect(await eventsOf('inventory.adjusted')).toEqual([
      { sku_id, warehouse_id, on_hand: 7, reserved: 0, available: 7, previous_on_hand: 10 },
      { sku_id, warehouse_id, on_hand: 10, reserved: 0, available: 10, previous_on_hand: 0 },
    ]);
  });

  it('payment.app.installed and payment.app.uninstalled, the latter once however often it is asked', async () => {
    const methods = [
      { method: 'pix', reservation_window_seconds: 600 },
      { method: 'boleto', reservation_window_seconds: null },
    ];
    const { app_id } = await ok('payment.app.install', { app_key: 'acme_pay', name: 'Acme', methods });
    expect(await eventsOf('payment.app.installed')).toEqual([{ app_id, app_key: 'acme_pay', methods }]);
    expect(await ok('payment.app.uninstall', { app_id })).toEqual({ app_id, installed: false });
    expect(await ok('payment.app.uninstall', { app_id })).toEqual({ app_id, installed: false });
    expect(await eventsOf('payment.app.uninstalled')).toEqual([{ app_id, app_key: 'acme_pay' }]);
  });

  it('coupon.created, and none for a refused coupon', async () => {
    const { coupon_id } = await ok('coupon.create', { code: 'Spring-10', percent_off: 10 });
    expect(await kind('coupon.create', { code: 'SPRING-10', percent_off: 20 })).toBe('409 conflict');
    expect(await kind('coupon.create', { code: 'other', percent_off: 10, amount_off: 100, currency: 'EUR' })).toBe('400 validation_failed');
    expect(await eventsOf('coupon.created')).toEqual([{ coupon_id, code: 'Spring-10' }]);
  });

  it('inventory.commit emits inventory.committed once; inventory.release repeated emits inventory.released once', async () => {
    const sku_id = await sellable(100, 10);
    const committing = await ok('inventory.reserve', { items: [{ sku_id, qty: 2 }] });
    const releasing = await ok('inventory.reserve', { items: [{ sku_id, qty: 3 }] });
    const { warehouse_id } = await level(sku_id);

    expect(await ok('inventory.commit', { reservation_id: committing.reservation_id })).toEqual({
      reservation_id: committing.reservation_id,
      status: 'committed',
    });
    expect(await ok('inventory.commit', { reservation_id: committing.reservation_id })).toEqual({
      reservation_id: committing.reservation_id,
      status: 'committed',
    });
    expect(await eventsOf('inventory.committed')).toEqual([
      { reservation_id: committing.reservation_id, warehouse_id, items: [{ sku_id, qty: 2 }], order_id: null },
    ]);

    for (let i = 0; i < 3; i += 1)
      expect(await ok('inventory.release', { reservation_id: releasing.reservation_id })).toEqual({
        reservation_id: releasing.reservation_id,
        status: 'released',
      });
    expect(await eventsOf('inventory.released')).toEqual([
      { reservation_id: releasing.reservation_id, warehouse_id, items: [{ sku_id, qty: 3 }], reason: 'released', order_id: null },
    ]);
    // A committed hold cannot be released, and that emits nothing either.
    expect(await kind('inventory.release', { reservation_id: committing.reservation_id })).toBe('409 conflict');
    expect(await eventsOf('inventory.released')).toHaveLength(1);
    expect(await level(sku_id)).toMatchObject({ on_hand: 8, reserved: 0, available: 8 });
  });
});

describe('order.create conflicts', () => {
  it('items priced in different currencies: conflict, nothing held', async () => {
    const euros = await sellable(1000, 5, 'EUR');
    const dollars = await sellable(1000, 5, 'USD');
    const res = await order([
      { sku_id: euros, qty: 1 },
      { sku_id: dollars, qty: 1 },
    ]);
    expect([res.status, res.body.error.kind]).toEqual([409, 'conflict']);
    expect(res.body.error.message).toMatch(/currenc/);
    expect(await level(euros)).toMatchObject({ on_hand: 5, reserved: 0 });
    expect(await level(dollars)).toMatchObject({ on_hand: 5, reserved: 0 });
    expect(await t.sql(`SELECT id FROM orders."order" WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
    // Each alone sells: the refusal was the mix.
    expect((await placed([{ sku_id: dollars, qty: 1 }])).currency).toBe('USD');
  });

  it('a SKU that is not active: conflict naming it, nothing held', async () => {
    const live = await sellable(1000, 5);
    const retired = await sellable(1000, 5);
    await ok('catalog.sku.update', { sku_id: retired, status: 'inactive' });
    const res = await order([
      { sku_id: live, qty: 1 },
      { sku_id: retired, qty: 1 },
    ]);
    expect([res.status, res.body.error.kind]).toEqual([409, 'conflict']);
    expect(res.body.error.message).toContain(retired);
    expect(await level(live)).toMatchObject({ on_hand: 5, reserved: 0 });
    await ok('catalog.sku.update', { sku_id: retired, status: 'active' });
    expect((await order([{ sku_id: retired, qty: 1 }])).status).toBe(200);
  });
});

describe('coupons', () => {
  it('amount_off with a currency takes that amount off, never more than the subtotal, and only in its currency', async () => {
    const sku_id = await sellable(1000, 10);
    const dollars = await sellable(1000, 10, 'USD');
    await ok('coupon.create', { code: 'THREE-EUR', amount_off: 300, currency: 'EUR' });
    await ok('coupon.create', { code: 'HUGE', amount_off: 50_000, currency: 'EUR' });
    expect(await placed([{ sku_id, qty: 2 }], { coupon_code: 'three-eur' })).toMatchObject({
      currency: 'EUR',
      subtotal_amount: 2000,
      discount_amount: 300,
      total_amount: 1700,
    });
    expect(await placed([{ sku_id, qty: 1 }], { coupon_code: 'HUGE' })).toMatchObject({ subtotal_amount: 1000, discount_amount: 1000, total_amount: 0 });
    // A EUR amount on a USD order: refused (docs/orders.md: an amount coupon must be in the order's currency).
    expect(
      await kind('order.create', {
        store_id: shop.store_id,
        customer: { email: 'b@example.com' },
        items: [{ sku_id: dollars, qty: 1 }],
        coupon_code: 'THREE-EUR',
      }),
    ).toBe('409 conflict');
    expect(await uses()).toEqual([
      ['HUGE', 1],
      ['THREE-EUR', 1],
    ]);
    expect(await level(dollars)).toMatchObject({ reserved: 0 });
  });

  it('coupon.create takes exactly one of percent_off and amount_off, and amount_off only with a currency', async () => {
    expect(await kind('coupon.create', { code: 'BOTH', percent_off: 10, amount_off: 100, currency: 'EUR' })).toBe('400 validation_failed');
    expect(await kind('coupon.create', { code: 'NEITHER' })).toBe('400 validation_failed');
    expect(await kind('coupon.create', { code: 'NEITHER', max_uses: 3 })).toBe('400 validation_failed');
    expect(await kind('coupon.create', { code: 'NOCUR', amount_off: 100 })).toBe('400 validation_failed');
    expect(await t.sql(`SELECT code FROM orders.coupon WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
    // The same codes, well formed, are free: the refusals stored nothing.
    expect(await kind('coupon.create', { code: 'BOTH', percent_off: 10 })).toBe('200 ok');
    expect(await kind('coupon.create', { code: 'NOCUR', amount_off: 100, currency: 'EUR' })).toBe('200 ok');
  });

  it('a coupon past its expires_at is refused at checkout (conflict): nothing held, no use counted', async () => {
    const sku_id = await sellable(1000, 10);
    await ok('coupon.create', { code: 'GONE', percent_off: 10, expires_at: new Date(Date.now() - 60_000).toISOString() });
    await ok('coupon.create', { code: 'LATER', percent_off: 10, expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    const res = await order([{ sku_id, qty: 1 }], { coupon_code: 'GONE' });
    expect([res.status, res.body.error.kind]).toEqual([409, 'conflict']);
    expect(res.body.error.message).toContain('GONE');
    expect(await level(sku_id)).toMatchObject({ on_hand: 10, reserved: 0 });
    expect(await t.sql(`SELECT id FROM orders."order" WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
    // One not yet expired applies.
    expect(await placed([{ sku_id, qty: 1 }], { coupon_code: 'LATER' })).toMatchObject({ discount_amount: 100 });
    expect(await uses()).toEqual([
      ['GONE', 0],
      ['LATER', 1],
    ]);
  });

  it('an order expired unpaid gives its coupon use back: a max_uses 1 coupon serves another order', async () => {
    const sku_id = await sellable(1000, 10);
    const { app_id } = await ok('payment.app.install', { app_key: 'manual', name: 'Manual', methods: [{ method: 'pix', reservation_window_seconds: 1 }] });
    await ok('coupon.create', { code: 'ONCE', percent_off: 50, max_uses: 1 });
    await ok('order.expire_unpaid', {});
    const first = await placed([{ sku_id, qty: 1 }], { coupon_code: 'ONCE', payment: { app_id, method: 'pix' } });
    expect(first).toMatchObject({ discount_amount: 500 });
    const refused = await order([{ sku_id, qty: 1 }], { coupon_code: 'ONCE' });
    expect([refused.status, refused.body.error.kind]).toEqual([409, 'conflict']);
    expect(await uses()).toEqual([['ONCE', 1]]);

    await sleep(1200);
    expect((await ok('order.expire_unpaid', {})).expired).toEqual([{ order_id: first.order_id, store_id: shop.store_id }]);
    expect((await readOrder(first.order_id)).status).toBe('cancelled');
    expect(await uses()).toEqual([['ONCE', 0]]);
    expect(await placed([{ sku_id, qty: 1 }], { coupon_code: 'ONCE' })).toMatchObject({ discount_amount: 500 });
    expect(await uses()).toEqual([['ONCE', 1]]);
    expect(await level(sku_id)).toMatchObject({ on_hand: 10, reserved: 1 });
  });
});

describe('payment windows', () => {
  it('payment.window.set with null clears the store override: the declared window applies again, to waiting orders too', async () => {
    const sku_id = await sellable(1000, 10);
    const { app_id } = await ok('payment.app.install', { app_key: 'manual', name: 'Manual', methods: [{ method: 'card', reservation_window_seconds: 3600 }] });
    await ok('order.expire_unpaid', {});
    const override = { store_id: shop.store_id, app_id, method: 'card', reservation_window_seconds: 1 };
    expect(await ok('payment.window.set', override)).toEqual(override);
    const waiting = await placed([{ sku_id, qty: 1 }], { payment: { app_id, method: 'card' } });
    expect(off(waiting.payment_expires_at, 1)).toBeLessThan(5_000);

    const cleared = { ...override, reservation_window_seconds: null };
    expect(await ok('payment.window.set', cleared)).toEqual(cleared);
    expect(await t.sql(`SELECT * FROM orders.payment_window WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([]);
    // Clearing twice: the same answer.
    expect(await ok('payment.window.set', cleared)).toEqual(cleared);
    expect(off((await readOrder(waiting.order_id)).payment_expires_at, 3600)).toBeLessThan(10_000);
    const next = await placed([{ sku_id, qty: 1 }], { payment: { app_id, method: 'card' } });
    expect(off(next.payment_expires_at, 3600)).toBeLessThan(10_000);

    // Past the override's second: nothing expires, the declared hour holds.
    await sleep(1200);
    expect(await ok('order.expire_unpaid', {})).toMatchObject({ expired: [] });
    expect((await readOrder(waiting.order_id)).status).toBe('pending_payment');
  });
});

describe('inventory.reserve expiry', () => {
  it('without expires_in_seconds a hold expires 900 s later; 86400 s is the most, 86401 validation_failed', async () => {
    const sku_id = await sellable(100, 10);
    const held = await ok('inventory.reserve', { items: [{ sku_id, qty: 1 }] });
    expect(held).toMatchObject({ status: 'active' });
    expect(off(held.expires_at, 900)).toBeLessThan(5_000);
    const [stored] = await t.sql(`SELECT expires_at FROM orders.reservation WHERE id = $1`, [held.reservation_id]);
    expect(Math.abs(new Date(stored.expires_at).getTime() - Date.parse(held.expires_at))).toBeLessThan(1_000);

    const longest = await ok('inventory.reserve', { items: [{ sku_id, qty: 1 }], expires_in_seconds: 86_400 });
    expect(off(longest.expires_at, 86_400)).toBeLessThan(5_000);
    expect(await kind('inventory.reserve', { items: [{ sku_id, qty: 1 }], expires_in_seconds: 86_401 })).toBe('400 validation_failed');
    expect(await level(sku_id)).toMatchObject({ on_hand: 10, reserved: 2 });
  });
});

describe('estimated delivery date', () => {
  it('stamped at checkout from transit_days, it is not recalculated when the method changes afterwards', async () => {
    const zone_id = (await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000-000', postal_code_to: '01999-999' })).zone_id;
    const method_id = (await ok('shipping.method.create', { name: 'Courier', dimensional_divisor: 6000, transit_days: 3, zone_ids: [zone_id] })).method_id;
    const sku_id = await sellable(1000, 10);
    const address = { name: 'Ana Lima', line1: 'Rua A 1', city: 'São Paulo', postal_code: '01310-100', country: 'BR' };
    const before = await placed([{ sku_id, qty: 2 }], { shipping_address: address, shipping_method_id: method_id });
    expect(before.estimated_delivery_date).toBe(inDays(3));

    expect(await ok('shipping.method.update', { method_id, transit_days: 10 })).toMatchObject({ transit_days: 10 });
    const view = await readOrder(before.order_id);
    expect(view.shipments).toEqual([expect.objectContaining({ shipment_id: before.shipment_id, estimated_delivery_date: before.estimated_delivery_date })]);
    // A split after the change copies the stamped date, not the method's new one.
    const item = view.items[0].order_item_id;
    expect(await ok('order.shipment.create', { order_id: before.order_id, items: [{ order_item_id: item, qty: 1 }] })).toMatchObject({
      estimated_delivery_date: before.estimated_delivery_date,
    });
    expect((await readOrder(before.order_id)).shipments.map((s: any) => s.estimated_delivery_date)).toEqual([
      before.estimated_delivery_date,
      before.estimated_delivery_date,
    ]);
    // The change itself took: an order placed now gets the new date.
    expect((await placed([{ sku_id, qty: 1 }], { shipping_address: address, shipping_method_id: method_id })).estimated_delivery_date).toBe(inDays(10));
  });
});
