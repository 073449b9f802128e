import type { CreatedTenant } from '@backoffice/identity';
import { CATALOG_LIMITS } from '../subgraphs/catalog/src/domain/catalog-limits';
import { LIVE_KEYS_PER_TENANT } from '../subgraphs/identity/src/domain/keys';
import { ORDER_LIMITS } from '../subgraphs/orders/src/domain/order-limits';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Every list an answer holds has a most items (the cost estimate multiplies by it): the command that
 * would add one past it is refused (409 conflict, reason `limit_reached` over GraphQL) and writes nothing; at the limit,
 * a command that adds nothing new (the same media, the same document) still succeeds.
 */
let t: TestSystem;
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const ok = (name: string, input: unknown) => t.ok(name, input, shop.token);
/** Runs `n` commands, a few at a time. */
const times = async (n: number, run: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < n; i += 10) await Promise.all(Array.from({ length: Math.min(10, n - i) }, (_, j) => run(i + j)));
};
const refusedAtLimit = async (name: string, input: unknown, what: string) => {
  const res = await t.command(name, input, shop.token);
  expect([res.status, res.body.error?.kind, res.body.error?.message]).toEqual([409, 'conflict', expect.stringContaining(`at most`)]);
  expect(res.body.error.message).toContain(what);
};
let seq = 0;
const product = async () => (await ok('catalog.product.create', { title: `Limit ${++seq}`, handle: `limit-${seq}`, status: 'active' })).product_id as string;

describe('catalog', () => {
  it(`a product holds at most ${CATALOG_LIMITS.skus.max} SKUs`, async () => {
    const product_id = await product();
    await times(CATALOG_LIMITS.skus.max, (i) => ok('catalog.sku.create', { product_id, code: `S-${i}`, amount: 100, currency: 'EUR' }));
    await refusedAtLimit('catalog.sku.create', { product_id, code: 'ONE-MORE', amount: 100, currency: 'EUR' }, 'SKUs per product');
    expect(await t.sql('SELECT count(*)::int AS n FROM catalog.sku WHERE product_id = $1', [product_id])).toEqual([{ n: CATALOG_LIMITS.skus.max }]);
  });

  it(`a product holds at most ${CATALOG_LIMITS.options.max} options`, async () => {
    const product_id = await product();
    await times(CATALOG_LIMITS.options.max, (i) => ok('catalog.option.create', { product_id, name: `axis ${i}`, values: ['a'], default_value: 'a' }));
    await refusedAtLimit('catalog.option.create', { product_id, name: 'one more', values: ['a'], default_value: 'a' }, 'options per product');
  });

  it(`a SKU holds at most ${CATALOG_LIMITS.skuMedia.max} media; attaching one it holds again still updates it`, async () => {
    const product_id = await product();
    const { sku_id } = await ok('catalog.sku.create', { product_id, code: 'M', amount: 100, currency: 'EUR' });
    const media = (i: number) => ({ owner_type: 'sku', owner_id: sku_id, provider_key: `https://cdn.example.com/${i}.jpg` });
    await times(CATALOG_LIMITS.skuMedia.max, (i) => ok('catalog.media.attach', media(i)));
    await refusedAtLimit('catalog.media.attach', media(CATALOG_LIMITS.skuMedia.max), 'media per SKU');
    expect((await ok('catalog.media.attach', { ...media(0), alt: 'front' })).owner_id).toBe(sku_id);
  });
});

describe('orders', () => {
  /** An order of one item of `qty` units, with its first parcel. */
  const placed = async (qty: number) => {
    const product_id = await product();
    const { sku_id } = await ok('catalog.sku.create', { product_id, code: `O-${seq}`, amount: 100, currency: 'EUR' });
    await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
    await ok('inventory.adjust', { sku_id, on_hand: qty });
    const { order_id } = await ok('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty }] });
    const order = (await t.read('/internal/order', { order_id }, shop.token)).body;
    return { order_id: order_id as string, item: order.items[0].order_item_id as string, first: order.shipments[0].shipment_id as string };
  };

  it(`an order is split into at most ${ORDER_LIMITS.parcels.max} parcels`, async () => {
    const { order_id, item, first } = await placed(ORDER_LIMITS.parcels.max + 1);
    const split = { order_id, from_shipment_id: first, items: [{ order_item_id: item, qty: 1 }] };
    await times(ORDER_LIMITS.parcels.max - 1, () => ok('order.shipment.create', split));
    await refusedAtLimit('order.shipment.create', split, 'parcels per order');
    expect(await t.sql('SELECT count(*)::int AS n FROM orders.shipment WHERE order_id = $1', [order_id])).toEqual([{ n: ORDER_LIMITS.parcels.max }]);
  });

  it(`an order holds at most ${ORDER_LIMITS.documents.max} documents; attaching one it holds again still succeeds`, async () => {
    const { order_id } = await placed(1);
    const document = (i: number) => ({ order_id, kind: 'other', file_url: `https://docs.example.com/${i}.pdf` });
    await times(ORDER_LIMITS.documents.max, (i) => ok('order.document.attach', document(i)));
    await refusedAtLimit('order.document.attach', document(ORDER_LIMITS.documents.max), 'documents per order');
    expect((await ok('order.document.attach', document(0))).attached).toBe(false);
    expect(await t.sql('SELECT count(*)::int AS n FROM orders.order_document WHERE order_id = $1', [order_id])).toEqual([{ n: ORDER_LIMITS.documents.max }]);
  });

  it(`a tenant has at most ${ORDER_LIMITS.warehouses.max} warehouses (its default one included)`, async () => {
    await times(ORDER_LIMITS.warehouses.max - 1, (i) => ok('inventory.warehouse.create', { code: `w-${i}`, name: `Warehouse ${i}` }));
    await refusedAtLimit('inventory.warehouse.create', { code: 'one-more', name: 'One more' }, 'warehouses per tenant');
  });

  it(`a payment app has at most ${ORDER_LIMITS.paymentWindows.max} window overrides; changing one still succeeds`, async () => {
    const methods = Array.from({ length: 20 }, (_, i) => ({ method: `m${i}`, reservation_window_seconds: 3600 }));
    const { app_id } = await ok('payment.app.install', { app_key: 'limits', name: 'Limits', methods });
    const stores = [shop.store_id];
    await times(ORDER_LIMITS.paymentWindows.max / methods.length - 1, async (i) => {
      stores.push((await ok('tenant.store.create', { name: `Store ${i}`, handle: `pw-${seq}-${i}` })).id);
    });
    const window = (store_id: string, method: string, seconds = 600) => ({ store_id, app_id, method, reservation_window_seconds: seconds });
    await times(ORDER_LIMITS.paymentWindows.max, (i) => ok('payment.window.set', window(stores[i % stores.length], `m${Math.floor(i / stores.length)}`)));
    const extra = (await ok('tenant.store.create', { name: 'One more', handle: `pw-${seq}-more` })).id;
    await refusedAtLimit('payment.window.set', window(extra, 'm0'), 'payment window overrides per payment app');
    expect((await ok('payment.window.set', window(stores[0], 'm0', 900))).reservation_window_seconds).toBe(900);
  });
});

describe('identity', () => {
  it(`a tenant has at most ${LIVE_KEYS_PER_TENANT.max} unrevoked API keys; revoking one makes room`, async () => {
    // The keys up to the limit are written directly: minting a thousand tokens through the command takes long.
    const [{ n }] = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM identity.api_key WHERE tenant_id = $1 AND revoked_at IS NULL', [shop.tenant_id]);
    await t.sql(
      `INSERT INTO identity.api_key (id, tenant_id, name, scopes, is_owner, issued_by)
       SELECT 'key_limit_' || g, $1, 'filler ' || g, '{}', false, NULL FROM generate_series(1, $2::int) g`,
      [shop.tenant_id, LIVE_KEYS_PER_TENANT.max - n],
    );
    await refusedAtLimit('iam.api_key.create', { name: 'one more', scopes: [], never_expires: true }, 'unrevoked API keys per tenant');
    await ok('iam.api_key.revoke', { api_key_id: 'key_limit_1' });
    expect((await ok('iam.api_key.create', { name: 'one more', scopes: [], never_expires: true })).name).toBe('one more');
  });
});
