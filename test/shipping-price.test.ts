import type { CreatedTenant } from '@backoffice/identity';
import { BackofficeClient } from '../sdk/src';
import { startTestSystem, type TestSystem } from './helpers';

/** Shipping price (docs/shipping.md, docs/admin-graphql.md "Shipping price"): rates, the quote's price, the order's shipping line. */
let t: TestSystem;
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const call = (name: string, input: unknown) => t.command(name, input, shop.token);
const graphql = (query: string, variables: Record<string, unknown>) => t.graphql(query, variables, shop.token);
const ok = (name: string, input: unknown) => t.ok(name, input, shop.token);
const status = async (name: string, input: unknown) => {
  const res = await call(name, input);
  return [res.status, res.body?.error?.kind, res.body?.error?.reason];
};
const eventsOf = async (type: string) => {
  await t.system.runtimes.get('orders')!.relay.kick();
  return (await t.read('/internal/events', { type, limit: '100' }, shop.token)).body.items as Array<{ payload: any }>;
};
const method = async (input: Record<string, unknown>) =>
  (await ok('shipping.method.create', { name: 'Method', dimensional_divisor: 6000, ...input })).method_id as string;
let seq = 0;
const sku = async (attributes: Record<string, unknown>, amount = 1000, currency = 'EUR') => {
  const { product_id } = await ok('catalog.product.create', { title: `Parcel ${++seq}`, handle: `parcel-${seq}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `P-${seq}`, amount, currency, ...attributes });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 100 });
  return sku_id as string;
};
const quoteByText = (items: string) => t.read('/internal/shipping/quote', { store_id: shop.store_id, postal_code: '01310-100', items }, shop.token);
/** REST takes `lines` as one `line.<sku_id>=<qty>` parameter each. */
const quoteByLines = (lines: Array<{ sku_id: string; qty: number }>) =>
  t.read(
    '/internal/shipping/quote',
    { store_id: shop.store_id, postal_code: '01310-100', ...Object.fromEntries(lines.map((l) => [`line.${l.sku_id}`, String(l.qty)])) },
    shop.token,
  );
const prices = (body: any) => body.methods.map((m: any) => [m.name, m.billable_weight_grams, m.shipping_amount]);
const reasons = (body: any) => body.refused.map((r: any) => [r.name, r.reason]);
// Billable weight up to 2 kg: 790; up to 10 kg: 1490; up to 30 kg: 2990; above: not offered.
const BANDS = [
  { up_to_grams: 2000, amount: 790 },
  { up_to_grams: 10_000, amount: 1490 },
  { up_to_grams: 30_000, amount: 2990 },
];

describe('rates on methods', () => {
  it('are set on create, shown by the methods read, replaced or cleared by update, and emit only when they change', async () => {
    const flat = await method({ name: 'Flat', rates: { currency: 'EUR', flat_amount: 1290 } });
    const banded = await method({ name: 'Banded', rates: { currency: 'EUR', bands: BANDS } });
    const free = await method({ name: 'Free' });
    const read = (await t.read('/internal/shipping/methods', {}, shop.token)).body.items;
    expect(read.map((m: any) => [m.method_id, m.rates])).toEqual([
      [flat, { currency: 'EUR', flat_amount: 1290, bands: null }],
      [banded, { currency: 'EUR', flat_amount: null, bands: BANDS }],
      [free, null],
    ]);
    // The same rates again (jsonb keeps its own key order): no change, no event.
    expect((await ok('shipping.method.update', { method_id: banded, rates: { bands: BANDS, currency: 'EUR' } })).rates.bands).toEqual(BANDS);
    expect((await ok('shipping.method.update', { method_id: flat, rates: { currency: 'EUR', bands: [{ up_to_grams: 500, amount: 100 }] } })).rates).toEqual({
      currency: 'EUR',
      flat_amount: null,
      bands: [{ up_to_grams: 500, amount: 100 }],
    });
    expect((await ok('shipping.method.update', { method_id: flat, rates: null })).rates).toBeNull();
    // Omitted: kept.
    expect((await ok('shipping.method.update', { method_id: banded, transit_days: 2 })).rates.bands).toEqual(BANDS);
    const changed = (await eventsOf('shipping.config.updated')).filter((e) => e.payload.change === 'updated').map((e) => e.payload.changed);
    expect(changed.sort()).toEqual([['rates'], ['rates'], ['transit_days']]);
  });

  it('are bounded: one form, 1 to 20 bands ascending, amounts 0 to 100,000,000 minor units, an upper-case currency', async () => {
    const base = { name: 'Bad', dimensional_divisor: 6000 };
    const band = (up_to_grams: number, amount = 100) => ({ up_to_grams, amount });
    for (const rates of [
      { currency: 'EUR' },
      { currency: 'EUR', flat_amount: 100, bands: [band(1)] },
      { currency: 'EUR', bands: [] },
      { currency: 'EUR', bands: [band(2000), band(1000)] },
      { currency: 'EUR', bands: [band(1000), band(1000)] },
      { currency: 'EUR', bands: Array.from({ length: 21 }, (_, i) => band(i + 1)) },
      { currency: 'EUR', bands: [band(0)] },
      { currency: 'EUR', bands: [band(100_000_001)] },
      { currency: 'EUR', flat_amount: -1 },
      { currency: 'EUR', flat_amount: 100_000_001 },
      { currency: 'EUR', flat_amount: 1.5 },
      { currency: 'eur', flat_amount: 100 },
      { flat_amount: 100 },
      { currency: 'EUR', flat_amount: 100, discount: 1 },
    ]) {
      expect([rates, ...(await status('shipping.method.create', { ...base, rates }))]).toEqual([rates, 400, 'validation_failed', undefined]);
    }
    const id = await method({ rates: { currency: 'EUR', bands: Array.from({ length: 20 }, (_, i) => band((i + 1) * 1000, 100_000_000)) } });
    expect(await status('shipping.method.update', { method_id: id, rates: { currency: 'EUR', bands: [band(2), band(1)] } })).toEqual([
      400,
      'validation_failed',
      undefined,
    ]);
    expect((await ok('shipping.method.update', { method_id: id, rates: { currency: 'EUR', flat_amount: 0 } })).rates.flat_amount).toBe(0);
  });
});

describe('the quote', () => {
  it('prices each offered method: flat, the band of the billable weight, 0 without rates; above the last band not offered', async () => {
    await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000000', postal_code_to: '01999999' });
    await method({ name: 'Flat', rates: { currency: 'EUR', flat_amount: 1290 } });
    await method({ name: 'Banded', rates: { currency: 'EUR', bands: BANDS } });
    await method({ name: 'Free' });
    await method({ name: 'Reais', rates: { currency: 'BRL', flat_amount: 500 } });
    // 1.5 kg in a 20 cm cube: 1.5 kg billable (the volume bills 1334 g).
    const small = await sku({ weight_grams: 1500, length_cm: 20, width_cm: 20, height_cm: 20 });
    // 500 g in a 40 cm cube: 10,667 g billable by volume, in the third band though it weighs little.
    const bulky = await sku({ weight_grams: 500, length_cm: 40, width_cm: 40, height_cm: 40 });
    const weightless = await sku({ length_cm: 10, width_cm: 10, height_cm: 10 });

    const a = (await quoteByText(`${small}:1`)).body;
    expect(a.currency).toBe('EUR');
    expect(prices(a)).toEqual([
      ['Flat', 1500, 1290],
      ['Banded', 1500, 790],
      ['Free', 1500, 0],
    ]);
    expect(reasons(a)).toEqual([['Reais', 'currency_mismatch']]);
    expect(prices((await quoteByText(`${bulky}:1`)).body)).toContainEqual(['Banded', 10_667, 2990]);
    // Two bulky units: 80 × 40 × 40 bills 21,334 g, still in the last band; three (25 kg) too; four bill 42,667 g: above it.
    expect(prices((await quoteByText(`${bulky}:2`)).body)).toContainEqual(['Banded', 21_334, 2990]);
    const heavy = (await quoteByText(`${bulky}:4`)).body;
    expect(reasons(heavy)).toEqual([
      ['Banded', 'above_last_band'],
      ['Reais', 'currency_mismatch'],
    ]);
    expect(prices(heavy)).toEqual([
      ['Flat', 42_667, 1290],
      ['Free', 42_667, 0],
    ]);
    // No billable weight: a band cannot be chosen; a flat price needs none.
    const unknown = (await quoteByText(`${weightless}:1`)).body;
    expect(reasons(unknown)).toEqual([
      ['Banded', 'unknown_billable_weight'],
      ['Reais', 'currency_mismatch'],
    ]);
    expect(prices(unknown)).toEqual([
      ['Flat', null, 1290],
      ['Free', null, 0],
    ]);
  });

  it('takes its items as text or as lines, with the same answer over REST, GraphQL and the SDK, and refuses both or neither', async () => {
    await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000000', postal_code_to: '01999999' });
    await method({ name: 'Banded', rates: { currency: 'EUR', bands: BANDS } });
    const a = await sku({ weight_grams: 1500, length_cm: 20, width_cm: 20, height_cm: 20 });
    const b = await sku({ weight_grams: 500, length_cm: 40, width_cm: 40, height_cm: 40 });
    const lines = [
      { sku_id: a, qty: 2 },
      { sku_id: b, qty: 1 },
    ];
    const byText = await quoteByText(`${a}:2,${b}:1`);
    expect(byText.status).toBe(200);
    const byLines = await quoteByLines(lines);
    expect([byLines.status, byLines.body]).toEqual([200, byText.body]);
    const gql = await graphql(
      `query($store_id: ID!, $lines: [ReadInternalShippingQuoteInputLines!], $items: String) {
        read_internal_shipping_quote(input: { store_id: $store_id, postal_code: "01310-100", lines: $lines, items: $items }) {
          store_id postal_code currency zone_ids parcel { weight_grams length_cm width_cm height_cm }
          methods { method_id name kind carrier_id billable_weight_grams transit_days estimated_delivery_date shipping_amount }
          refused { method_id name reason }
        }
      }`,
      { store_id: shop.store_id, lines },
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.read_internal_shipping_quote).toEqual(byText.body);
    const client = new BackofficeClient({ baseUrl: t.system.url, token: shop.token });
    expect(await client.call('read.internal.shipping.quote', { store_id: shop.store_id, postal_code: '01310-100', lines })).toEqual(byText.body);

    // Both, neither, or lines out of their bounds: validation_failed.
    const refusedRead = async (query: Record<string, string>) => {
      const res = await t.read('/internal/shipping/quote', { store_id: shop.store_id, postal_code: '01310100', ...query }, shop.token);
      return [res.status, res.body.error?.kind];
    };
    expect(await refusedRead({ items: `${a}:1`, [`line.${b}`]: '1' })).toEqual([400, 'validation_failed']);
    expect(await refusedRead({})).toEqual([400, 'validation_failed']);
    expect(await refusedRead({ [`line.${a}`]: '0' })).toEqual([400, 'validation_failed']);
    expect(await refusedRead({ [`line.${a}`]: '1001' })).toEqual([400, 'validation_failed']);
    expect(await refusedRead({ [`line.${a}`]: 'two' })).toEqual([400, 'validation_failed']);
    expect(await refusedRead({ lines: `${a}:1` })).toEqual([400, 'validation_failed']);
    const twice = await graphql(
      `query($s: String!, $a: String!) { read_internal_shipping_quote(input: { store_id: $s, postal_code: "1", lines: [{ sku_id: $a, qty: 1 }, { sku_id: $a, qty: 2 }] }) { currency } }`,
      {
        s: shop.store_id,
        a,
      },
    );
    expect(twice.body.errors[0].extensions.code).toBe('validation_failed');
  });
});

describe('the order’s shipping line', () => {
  const address = { name: 'Ana Lima', line1: 'Rua A 1', city: 'São Paulo', postal_code: '01310-100', country: 'BR' };
  const order = (sku_id: string, qty: number, extra: Record<string, unknown> = {}) =>
    call('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty }], ...extra });

  it('adds the method’s price to the total (after the coupon, which discounts the items only), kept on the order, its reads and events', async () => {
    await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000000', postal_code_to: '01999999' });
    const banded = await method({ name: 'Banded', rates: { currency: 'EUR', bands: BANDS } });
    const item = await sku({ weight_grams: 1500, length_cm: 20, width_cm: 20, height_cm: 20 }, 2000);
    await ok('coupon.create', { code: 'TEN', percent_off: 10 });
    const placed = await order(item, 3, { shipping_address: address, shipping_method_id: banded, coupon_code: 'TEN' });
    expect(placed.status).toBe(200);
    // 3 × 1.5 kg = 4.5 kg billable: the second band, 1490.
    expect(placed.body).toMatchObject({ currency: 'EUR', subtotal_amount: 6000, discount_amount: 600, shipping_amount: 1490, total_amount: 6890 });
    const { order_id } = placed.body;
    expect((await t.read('/internal/order', { order_id }, shop.token)).body).toMatchObject({
      subtotal_amount: 6000,
      discount_amount: 600,
      shipping_amount: 1490,
      total_amount: 6890,
      shipping_method_id: banded,
    });
    expect((await t.read('/internal/orders', {}, shop.token)).body.items).toEqual([
      expect.objectContaining({ order_id, shipping_amount: 1490, total_amount: 6890 }),
    ]);
    const gql = await graphql(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { subtotal_amount discount_amount shipping_amount total_amount } }`,
      { id: order_id },
    );
    expect(gql.body.data.read_internal_order).toEqual({ subtotal_amount: 6000, discount_amount: 600, shipping_amount: 1490, total_amount: 6890 });
    expect((await eventsOf('order.created'))[0].payload).toMatchObject({ order_id, total_amount: 6890, shipping_amount: 1490 });
    await ok('order.mark_paid', { order_id });
    expect((await eventsOf('order.paid'))[0].payload).toMatchObject({ order_id, total_amount: 6890, shipping_amount: 1490 });
    // Rates changed later: the order keeps the price it was taken at.
    await ok('shipping.method.update', { method_id: banded, rates: { currency: 'EUR', flat_amount: 1 } });
    expect((await t.read('/internal/order', { order_id }, shop.token)).body.total_amount).toBe(6890);
  });

  it('is 0 with a method without rates or without a method, so the total is as before; GraphQL takes the same order', async () => {
    await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000000', postal_code_to: '01999999' });
    const free = await method({ name: 'Free' });
    const item = await sku({ weight_grams: 1500 }, 2000);
    const expected = { subtotal_amount: 4000, discount_amount: 0, shipping_amount: 0, total_amount: 4000 };
    expect((await order(item, 2, { shipping_address: address, shipping_method_id: free })).body).toMatchObject(expected);
    expect((await order(item, 2)).body).toMatchObject(expected);
    const flat = await method({ name: 'Flat', rates: { currency: 'EUR', flat_amount: 990 } });
    const gql = await graphql(`mutation($input: OrderCreateInput!) { order_create(input: $input) { subtotal_amount shipping_amount total_amount } }`, {
      input: {
        store_id: shop.store_id,
        customer: { email: 'buyer@example.com' },
        items: [{ sku_id: item, qty: 1 }],
        shipping_address: address,
        shipping_method_id: flat,
      },
    });
    expect(gql.body.data.order_create).toEqual({ subtotal_amount: 2000, shipping_amount: 990, total_amount: 2990 });
    const rows = await t.sql(
      `SELECT subtotal_amount::int, discount_amount::int, shipping_amount::int, total_amount::int FROM orders."order" WHERE tenant_id = $1 ORDER BY created_at`,
      [shop.tenant_id],
    );
    expect(rows).toEqual([
      { subtotal_amount: 4000, discount_amount: 0, shipping_amount: 0, total_amount: 4000 },
      { subtotal_amount: 4000, discount_amount: 0, shipping_amount: 0, total_amount: 4000 },
      { subtotal_amount: 2000, discount_amount: 0, shipping_amount: 990, total_amount: 2990 },
    ]);
  });

  it('refuses a method that cannot price the parcel with its reason, holding nothing', async () => {
    await ok('shipping.zone.create', { name: 'SP', postal_code_from: '01000000', postal_code_to: '01999999' });
    const banded = await method({ name: 'Banded', rates: { currency: 'EUR', bands: BANDS } });
    const reais = await method({ name: 'Reais', rates: { currency: 'BRL', flat_amount: 500 } });
    const bulky = await sku({ weight_grams: 500, length_cm: 40, width_cm: 40, height_cm: 40 });
    expect(
      await status('order.create', {
        store_id: shop.store_id,
        customer: { email: 'b@example.com' },
        items: [{ sku_id: bulky, qty: 4 }],
        shipping_address: address,
        shipping_method_id: banded,
      }),
    ).toEqual([409, 'conflict', 'above_last_band']);
    expect(
      await status('order.create', {
        store_id: shop.store_id,
        customer: { email: 'b@example.com' },
        items: [{ sku_id: bulky, qty: 1 }],
        shipping_address: address,
        shipping_method_id: reais,
      }),
    ).toEqual([409, 'conflict', 'currency_mismatch']);
    expect((await t.read('/internal/inventory', { sku_id: bulky }, shop.token)).body.items[0]).toMatchObject({ reserved: 0 });
  });
});
