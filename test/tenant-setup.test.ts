import type { CreatedTenant } from '@backoffice/identity';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/** Orders sets a new tenant up on identity's `tenant.created`: its default warehouse, and payment expiry from its birth. */
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ok = (shop: CreatedTenant, name: string, input: unknown) => t.ok(name, input, shop.token);
const startOf = async (tenantId: string) =>
  (await t.sql<{ started_at: Date }>(`SELECT started_at FROM orders.expiry_start WHERE tenant_id = $1`, [tenantId]))[0]?.started_at;
/** An order of one unit awaiting payment by a method whose window is one second. */
const unpaidOrder = async (shop: CreatedTenant) => {
  const { product_id } = await ok(shop, 'catalog.product.create', { title: 'Mug', handle: 'mug', status: 'active' });
  const { sku_id } = await ok(shop, 'catalog.sku.create', { product_id, code: 'MUG', amount: 1000, currency: 'EUR' });
  await ok(shop, 'catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok(shop, 'inventory.adjust', { sku_id, on_hand: 5 });
  const { app_id } = await ok(shop, 'payment.app.install', { app_key: 'manual', name: 'Manual', methods: [{ method: 'pix', reservation_window_seconds: 1 }] });
  return (
    await ok(shop, 'order.create', {
      store_id: shop.store_id,
      customer: { email: 'buyer@example.com' },
      items: [{ sku_id, qty: 1 }],
      payment: { app_id, method: 'pix' },
    })
  ).order_id as string;
};

it('gives a new tenant its default warehouse and starts payment expiry at its creation', async () => {
  const shop = await t.newTenant();
  const [{ created_at }] = await t.sql<{ created_at: Date }>(`SELECT created_at FROM identity.tenant WHERE id = $1`, [shop.tenant_id]);
  await eventually(async () => (await startOf(shop.tenant_id)) ?? undefined);
  expect((await startOf(shop.tenant_id))!.getTime()).toBe(created_at.getTime());
  expect(await t.sql(`SELECT code FROM orders.warehouse WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([{ code: 'default' }]);
  // The code is taken from the start.
  expect((await t.command('inventory.warehouse.create', { code: 'default', name: 'Another' }, shop.token)).status).toBe(409);

  // The tenant's very first order expires when its window runs out: no sweep had to run before it.
  const order_id = await unpaidOrder(shop);
  await sleep(1200);
  const swept = await ok(shop, 'order.expire_unpaid', {});
  expect(swept).toMatchObject({ expired: [{ order_id, store_id: shop.store_id }], predating: 0 });
});

it('classes again an order placed before the setup arrived, and keeps the earliest start', async () => {
  const shop = await t.newTenant();
  await eventually(async () => (await startOf(shop.tenant_id)) ?? undefined);
  // As if the order were placed before the event arrived: no start yet, so it is classed predating.
  await t.sql(`DELETE FROM orders.expiry_start WHERE tenant_id = $1`, [shop.tenant_id]);
  const order_id = await unpaidOrder(shop);
  expect(await t.sql(`SELECT payment_expiry FROM orders."order" WHERE id = $1`, [order_id])).toEqual([{ payment_expiry: 'predating' }]);
  // A first sweep in the meantime records a later start.
  expect(await ok(shop, 'order.expire_unpaid', {})).toMatchObject({ expired: [], predating: 1 });

  // Now the event arrives (delivered again, and forgotten as handled): the tenant's birth wins over
  // the sweep's later start, and the order is timed and expires.
  const [{ event_id }] = await t.sql(`SELECT event_id FROM identity.outbox_event WHERE tenant_id = $1 AND type = 'tenant.created'`, [shop.tenant_id]);
  await t.sql(`DELETE FROM orders.consumer_delivery WHERE consumer = 'tenant-setup' AND event_id = $1`, [event_id]);
  await t.sql(`UPDATE identity.outbox_event SET status = 'pending', next_attempt_at = now() WHERE event_id = $1`, [event_id]);
  await t.system.runtimes.get('identity')!.relay.kick();
  await eventually(async () =>
    (await t.sql(`SELECT payment_expiry FROM orders."order" WHERE id = $1`, [order_id]))[0].payment_expiry === 'timed' ? true : undefined,
  );
  await sleep(1200);
  expect(await ok(shop, 'order.expire_unpaid', {})).toMatchObject({ expired: [{ order_id }], predating: 0 });
  expect(await t.sql(`SELECT count(*)::int AS n FROM orders.warehouse WHERE tenant_id = $1 AND code = 'default'`, [shop.tenant_id])).toEqual([{ n: 1 }]);
});
