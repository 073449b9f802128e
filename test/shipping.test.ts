import type { CreatedTenant } from '@backoffice/identity';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
/** Each test runs in a tenant of its own: zones and methods are the tenant's. */
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const call = (name: string, input: unknown, token = shop.token) => t.command(name, input, token);
const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
const refused = async (name: string, input: unknown, status: number, kind: string, token = shop.token) => {
  const res = await call(name, input, token);
  expect([name, JSON.stringify(input), res.status, res.body?.error?.kind]).toEqual([name, JSON.stringify(input), status, kind]);
  return res.body.error as { kind: string; message: string };
};
const eventsOf = async (subgraph: 'orders' | 'catalog', type: string) => {
  await t.system.runtimes.get(subgraph)!.relay.kick();
  const res = await t.read('/internal/events', { type, limit: '100' }, shop.token);
  return res.body.items as Array<{ type: string; payload: any }>;
};
const quote = (postal_code: string, items: string, token = shop.token, store_id = shop.store_id) =>
  t.read('/internal/shipping/quote', { store_id, postal_code, items }, token);
const zone = async (postal_code_from: string, postal_code_to: string, name = 'Zone') =>
  (await ok('shipping.zone.create', { name, postal_code_from, postal_code_to })).zone_id as string;
const method = async (input: Record<string, unknown>) =>
  (await ok('shipping.method.create', { name: 'Method', dimensional_divisor: 6000, ...input })).method_id as string;
let seq = 0;
/** A published product with one SKU, shipping attributes as given, stock in the default warehouse. */
const sku = async (attributes: Record<string, unknown> = {}, amount = 1000) => {
  const { product_id } = await ok('catalog.product.create', { title: `Box ${++seq}`, handle: `box-${seq}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `BOX-${seq}`, amount, currency: 'EUR', ...attributes });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 100 });
  return sku_id as string;
};
const inDays = (days: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
};

describe('zones', () => {
  it('normalize postal codes on write and compare them normalized, bounds included', async () => {
    const centro = await zone(' 01310-000 ', '01319 999', 'Centro');
    const zones = await t.read('/internal/shipping/zones', {}, shop.token);
    expect(zones.status).toBe(200);
    expect(zones.body).toMatchObject({
      items: [{ zone_id: centro, name: 'Centro', postal_code_from: '01310000', postal_code_to: '01319999' }],
      page: 1,
      limit: 24,
      total: 1,
    });
    const containing = async (code: string) =>
      ((await t.read('/internal/shipping/zones', { postal_code: code }, shop.token)).body.items as any[]).map((z) => z.zone_id);
    // With or without the hyphen, the same code.
    expect(await containing('01310-100')).toEqual([centro]);
    expect(await containing('01310100')).toEqual([centro]);
    expect(await containing(' 01310 100 ')).toEqual([centro]);
    // Inclusive bounds, and nothing just outside them.
    expect(await containing('01310-000')).toEqual([centro]);
    expect(await containing('01319-999')).toEqual([centro]);
    expect(await containing('01309-999')).toEqual([]);
    expect(await containing('01320-000')).toEqual([]);
    // Another length is another code, never inside.
    expect(await containing('0131010')).toEqual([]);
    // Letters: upper-cased; a single-code zone.
    const london = await zone('sw1a 1aa', 'SW1A-1AA', 'Palace');
    expect(await containing('Sw1A1aa')).toEqual([london]);
    expect((await t.sql(`SELECT postal_code_from, postal_code_to FROM orders.shipping_zone WHERE id = $1`, [london]))[0]).toEqual({
      postal_code_from: 'SW1A1AA',
      postal_code_to: 'SW1A1AA',
    });
  });

  it('refuses a range whose start is after its end, bounds of different lengths, and codes that are not codes', async () => {
    expect(
      (await refused('shipping.zone.create', { name: 'Back', postal_code_from: '01319-999', postal_code_to: '01310-000' }, 400, 'validation_failed')).message,
    ).toContain('after');
    await refused('shipping.zone.create', { name: 'Lengths', postal_code_from: '0131', postal_code_to: '01319999' }, 400, 'validation_failed');
    await refused('shipping.zone.create', { name: 'Dots', postal_code_from: '01.310', postal_code_to: '01.319' }, 400, 'validation_failed');
    await refused('shipping.zone.create', { name: 'Blank', postal_code_from: ' - ', postal_code_to: '01319999' }, 400, 'validation_failed');
    await refused('shipping.zone.create', { name: '', postal_code_from: '1', postal_code_to: '2' }, 400, 'validation_failed');
    await refused('shipping.zone.create', { name: 'Long', postal_code_from: '1'.repeat(33), postal_code_to: '2' }, 400, 'validation_failed');
    expect((await t.read('/internal/shipping/zones', { postal_code: '01.310' }, shop.token)).status).toBe(400);
    expect((await t.read('/internal/shipping/zones', {}, shop.token)).body.total).toBe(0);
    expect(await eventsOf('orders', 'shipping.config.updated')).toEqual([]);
  });
});

describe('methods', () => {
  it('are created as the reference says, bounds refused with validation_failed', async () => {
    const a = await zone('01000000', '01999999');
    const id = await method({
      name: 'Express',
      kind: 'delivery',
      active: true,
      carrier_id: 'carrier-1',
      max_weight_grams: 30000,
      max_length_cm: 100,
      max_width_cm: 60,
      max_height_cm: 60,
      max_dimensions_sum_cm: 200,
      transit_days: 2,
      zone_ids: [a],
    });
    const pickup = await method({ name: 'Counter', kind: 'pickup', dimensional_divisor: 1, carrier_id: null, max_weight_grams: null, transit_days: 0 });
    const read = await t.read('/internal/shipping/methods', {}, shop.token);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ page: 1, limit: 24, total: 2 });
    expect(read.body.items[0]).toEqual({
      method_id: id,
      name: 'Express',
      kind: 'delivery',
      active: true,
      carrier_id: 'carrier-1',
      dimensional_divisor: 6000,
      max_weight_grams: 30000,
      max_length_cm: 100,
      max_width_cm: 60,
      max_height_cm: 60,
      max_dimensions_sum_cm: 200,
      transit_days: 2,
      zone_ids: [a],
      rates: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(read.body.items[1]).toMatchObject({ method_id: pickup, kind: 'pickup', carrier_id: null, max_weight_grams: null, transit_days: 0, zone_ids: [] });
    const base = { name: 'Bad', dimensional_divisor: 6000 };
    for (const bad of [
      { ...base, dimensional_divisor: 0 },
      { ...base, dimensional_divisor: -6000 },
      { ...base, dimensional_divisor: 1.5 },
      { name: 'Bad' },
      { ...base, name: '' },
      { ...base, max_weight_grams: 0 },
      { ...base, max_length_cm: -1 },
      { ...base, max_width_cm: 0 },
      { ...base, max_height_cm: 0 },
      { ...base, max_dimensions_sum_cm: 0 },
      { ...base, max_weight_grams: 2 ** 53 },
      { ...base, kind: 'drone' },
      { ...base, carrier_id: '' },
      { ...base, transit_days: -1 },
      { ...base, transit_days: 366 },
      { ...base, zone_ids: [a, a] },
      { ...base, unknown: 1 },
    ]) {
      await refused('shipping.method.create', bad, 400, 'validation_failed');
    }
    expect((await refused('shipping.method.create', { ...base, zone_ids: [a, 'shz_nope'] }, 409, 'conflict')).message).toContain('shz_nope');
    expect((await t.read('/internal/shipping/methods', {}, shop.token)).body.total).toBe(2);
    const events = await eventsOf('orders', 'shipping.config.updated');
    expect(events.map((e) => e.payload)).toEqual(
      expect.arrayContaining([
        { subject: 'zone', change: 'created', zone_id: a },
        { subject: 'method', change: 'created', method_id: id },
        { subject: 'method', change: 'created', method_id: pickup },
      ]),
    );
    expect(events).toHaveLength(3);
  });

  it('are updated partially: omitted fields keep their value, null clears a limit, zone_ids replaces, active filters', async () => {
    const a = await zone('01000000', '01999999', 'A');
    const b = await zone('02000000', '02999999', 'B');
    const id = await method({ name: 'Express', carrier_id: 'c1', max_weight_grams: 30000, max_length_cm: 100, transit_days: 3, zone_ids: [a] });
    const before = (await t.read('/internal/shipping/methods', {}, shop.token)).body.items[0];
    const off = await ok('shipping.method.update', { method_id: id, active: false });
    expect(off).toEqual({ ...before, active: false, updated_at: expect.any(String) });
    const changed = await ok('shipping.method.update', { method_id: id, max_weight_grams: null, transit_days: 5, zone_ids: [b, a] });
    expect(changed).toMatchObject({
      method_id: id,
      name: 'Express',
      active: false,
      carrier_id: 'c1',
      max_weight_grams: null,
      max_length_cm: 100,
      transit_days: 5,
      dimensional_divisor: 6000,
    });
    expect([...changed.zone_ids].sort()).toEqual([a, b].sort());
    expect((await ok('shipping.method.update', { method_id: id, zone_ids: [] })).zone_ids).toEqual([]);
    // The same values again: answered, nothing written, no event.
    expect(await ok('shipping.method.update', { method_id: id, active: false, transit_days: 5, zone_ids: [] })).toMatchObject({
      active: false,
      transit_days: 5,
    });
    expect((await t.read('/internal/shipping/methods', { active: 'true' }, shop.token)).body.total).toBe(0);
    expect((await t.read('/internal/shipping/methods', { active: 'false' }, shop.token)).body.items.map((m: any) => m.method_id)).toEqual([id]);
    await refused('shipping.method.update', { method_id: id, dimensional_divisor: 0 }, 400, 'validation_failed');
    await refused('shipping.method.update', { method_id: id, transit_days: 400 }, 400, 'validation_failed');
    await refused('shipping.method.update', { method_id: id, name: null }, 400, 'validation_failed');
    await refused('shipping.method.update', { method_id: 'shm_nope', active: true }, 409, 'conflict');
    await refused('shipping.method.update', { method_id: id, zone_ids: ['shz_nope'] }, 409, 'conflict');
    const updates = (await eventsOf('orders', 'shipping.config.updated')).filter((e) => e.payload.change === 'updated').map((e) => e.payload);
    expect(updates).toEqual(
      expect.arrayContaining([
        { subject: 'method', change: 'updated', method_id: id, changed: ['active'] },
        { subject: 'method', change: 'updated', method_id: id, changed: ['max_weight_grams', 'transit_days', 'zone_ids'] },
        { subject: 'method', change: 'updated', method_id: id, changed: ['zone_ids'] },
      ]),
    );
    expect(updates).toHaveLength(3);
  });

  it('need shipping.write to change and logistics.read to read', async () => {
    const { token: reader } = await ok('iam.api_key.create', { name: 'reader', scopes: ['logistics.read'] });
    const { token: writer } = await ok('iam.api_key.create', { name: 'writer', scopes: ['shipping.write'] });
    const forbidden = await call('shipping.zone.create', { name: 'Z', postal_code_from: '1', postal_code_to: '2' }, reader);
    expect([forbidden.status, forbidden.body.error.kind, forbidden.body.error.scope]).toEqual([403, 'forbidden', 'shipping.write']);
    expect((await call('shipping.zone.create', { name: 'Z', postal_code_from: '1', postal_code_to: '2' }, writer)).status).toBe(200);
    expect((await t.read('/internal/shipping/zones', {}, writer)).status).toBe(403);
    expect((await t.read('/internal/shipping/methods', {}, writer)).status).toBe(403);
    expect((await t.read('/internal/shipping/zones', {}, reader)).body.total).toBe(1);
  });
});

describe('quote', () => {
  it('lists the methods serving the postal code with billable weight and estimated date, and the refused with their reason', async () => {
    const sp = await zone('01000-000', '09999-999', 'SP');
    const rj = await zone('20000-000', '28999-999', 'RJ');
    const express = await method({ name: 'Express', max_weight_grams: 30000, max_length_cm: 100, max_dimensions_sum_cm: 300, transit_days: 2, zone_ids: [sp] });
    const economy = await method({ name: 'Economy', dimensional_divisor: 5000, transit_days: 10, zone_ids: [rj] });
    const small = await method({ name: 'Small', max_length_cm: 30, zone_ids: [sp] });
    const summed = await method({ name: 'Summed', max_length_cm: 50, max_dimensions_sum_cm: 100 });
    const anywhere = await method({ name: 'Anywhere', kind: 'pickup', dimensional_divisor: 4000 });
    const inactive = await method({ name: 'Off', active: false });
    // Light and bulky: 500 g in a 40 cm cube. Heavy and small: 40 kg in a 10 cm cube.
    const bulky = await sku({ weight_grams: 500, length_cm: 40, width_cm: 40, height_cm: 40 });
    const heavy = await sku({ weight_grams: 40000, length_cm: 10, width_cm: 10, height_cm: 10 });

    const res = await quote('01310-100', `${bulky}:1`);
    expect(res.status).toBe(200);
    expect(res.body.postal_code).toBe('01310100');
    expect(res.body.zone_ids).toEqual([sp]);
    expect(res.body.parcel).toEqual({ weight_grams: 500, length_cm: 40, width_cm: 40, height_cm: 40 });
    // 40 × 40 × 40 cm³ / 6000 cm³ per kg = 10.667 kg: the volumetric weight wins over the 500 g.
    expect(res.body.methods).toEqual([
      {
        method_id: express,
        name: 'Express',
        kind: 'delivery',
        carrier_id: null,
        billable_weight_grams: 10667,
        transit_days: 2,
        estimated_delivery_date: inDays(2),
        shipping_amount: 0,
      },
      {
        method_id: anywhere,
        name: 'Anywhere',
        kind: 'pickup',
        carrier_id: null,
        billable_weight_grams: 16000,
        transit_days: null,
        estimated_delivery_date: null,
        shipping_amount: 0,
      },
    ]);
    expect(res.body.refused).toEqual([
      { method_id: economy, name: 'Economy', reason: 'no_zone' },
      { method_id: small, name: 'Small', reason: 'too_long' },
      { method_id: summed, name: 'Summed', reason: 'dimensions_sum' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(inactive);

    // The same code without its hyphen: the same answer.
    expect((await quote('01310100', `${bulky}:1`)).body).toEqual(res.body);

    // Heavy: the actual weight wins, and it is above Express's limit.
    const heavyQuote = (await quote('01310-100', `${heavy}:1`)).body;
    expect(heavyQuote.refused).toContainEqual({ method_id: express, name: 'Express', reason: 'too_heavy' });
    expect(heavyQuote.methods).toEqual([
      expect.objectContaining({ method_id: small, billable_weight_grams: 40000 }),
      expect.objectContaining({ method_id: summed, billable_weight_grams: 40000 }),
      expect.objectContaining({ method_id: anywhere, billable_weight_grams: 40000 }),
    ]);

    // Two bulky units stack: an 80 × 40 × 40 box of 1 kg (Express's sum 160 ≤ 300).
    const two = (await quote('01310-100', `${bulky}:2`)).body;
    expect(two.parcel).toEqual({ weight_grams: 1000, length_cm: 80, width_cm: 40, height_cm: 40 });
    expect(two.methods[0]).toMatchObject({ method_id: express, billable_weight_grams: 21334 });
    // Mixed items: the longest sides, and the shortest sides summed.
    const mixed = (await quote('01310-100', `${bulky}:1,${heavy}:3`)).body;
    expect(mixed.parcel).toEqual({ weight_grams: 120500, length_cm: 70, width_cm: 40, height_cm: 40 });

    // Rio: only Economy (by zone) and the methods serving every zone.
    const rio = (await quote('20040-020', `${bulky}:1`)).body;
    expect(rio.methods.map((m: any) => [m.method_id, m.billable_weight_grams, m.estimated_delivery_date])).toEqual([
      [economy, 12800, inDays(10)],
      [anywhere, 16000, null],
    ]);
    expect(rio.refused.map((r: any) => [r.method_id, r.reason])).toEqual([
      [express, 'no_zone'],
      [small, 'no_zone'],
      [summed, 'dimensions_sum'],
    ]);

    // A code in no zone: every method refused no_zone, even those serving every zone.
    const nowhere = (await quote('99999-999', `${bulky}:1`)).body;
    expect(nowhere.zone_ids).toEqual([]);
    expect(nowhere.methods).toEqual([]);
    expect(nowhere.refused.map((r: any) => r.reason)).toEqual(['no_zone', 'no_zone', 'no_zone', 'no_zone', 'no_zone']);

    // Deactivated: no longer listed; active again: back.
    await ok('shipping.method.update', { method_id: express, active: false });
    expect(JSON.stringify((await quote('01310-100', `${bulky}:1`)).body)).not.toContain(express);
  });

  it('says when a figure a limit needs is unknown, and bills null without it', async () => {
    await zone('01000000', '01999999');
    const limited = await method({ name: 'Limited', max_weight_grams: 1000, max_length_cm: 100 });
    const sized = await method({ name: 'Sized', max_height_cm: 100 });
    const open = await method({ name: 'Open' });
    const weightless = await sku({ length_cm: 10, width_cm: 10, height_cm: 10 });
    const shapeless = await sku({ weight_grams: 100 });
    const a = (await quote('01000000', `${weightless}:1`)).body;
    expect(a.parcel).toEqual({ weight_grams: null, length_cm: 10, width_cm: 10, height_cm: 10 });
    expect(a.refused).toEqual([{ method_id: limited, name: 'Limited', reason: 'unknown_weight' }]);
    expect(a.methods.map((m: any) => [m.method_id, m.billable_weight_grams])).toEqual([
      [sized, null],
      [open, null],
    ]);
    const b = (await quote('01000000', `${shapeless}:2`)).body;
    expect(b.parcel).toEqual({ weight_grams: 200, length_cm: null, width_cm: null, height_cm: null });
    expect(b.refused.map((r: any) => [r.method_id, r.reason])).toEqual([
      [limited, 'unknown_dimensions'],
      [sized, 'unknown_dimensions'],
    ]);
    expect(b.methods).toEqual([expect.objectContaining({ method_id: open, billable_weight_grams: null })]);
  });

  it('refuses malformed items and unknown stores or SKUs', async () => {
    const box = await sku({ weight_grams: 100 });
    expect((await quote('01000000', 'nothing')).status).toBe(400);
    expect((await quote('01000000', `${box}:0`)).status).toBe(400);
    expect((await quote('01000000', `${box}:1001`)).status).toBe(400);
    expect((await quote('01000000', `${box}:1,${box}:2`)).status).toBe(400);
    expect((await quote('01000000', `:1`)).status).toBe(400);
    expect((await quote('0100.0000', `${box}:1`)).status).toBe(400);
    expect((await t.read('/internal/shipping/quote', { store_id: shop.store_id, postal_code: '01000000' }, shop.token)).status).toBe(400);
    const unknown = await quote('01000000', `${box}:1,sku_nope:1`);
    expect([unknown.status, unknown.body.error.kind]).toEqual([404, 'not_found']);
    const other = await t.newTenant();
    expect((await quote('01000000', `${box}:1`, shop.token, other.store_id)).status).toBe(404);
    // Another tenant's SKU is unknown here.
    expect((await quote('01000000', `${box}:1`, other.token, other.store_id)).status).toBe(404);
    // What checkout would refuse is not quoted: an inactive SKU.
    await ok('catalog.sku.update', { sku_id: box, status: 'inactive' });
    const inactive = await quote('01000000', `${box}:1`);
    expect([inactive.status, inactive.body.error.kind]).toEqual([404, 'not_found']);
  });
});

describe('SKU shipping attributes', () => {
  it('are set on create, changed partially by catalog.sku.update, and snapshotted on order items at checkout', async () => {
    const skuId = await sku({ weight_grams: 1200, length_cm: 30, width_cm: 20, height_cm: 10 }, 2500);
    const attributes = async () =>
      (
        await t.sql(
          `SELECT weight_grams::int AS w, length_cm::int AS l, width_cm::int AS wd, height_cm::int AS h, amount::int AS amount, code FROM catalog.sku WHERE id = $1`,
          [skuId],
        )
      )[0];
    expect(await attributes()).toMatchObject({ w: 1200, l: 30, wd: 20, h: 10, amount: 2500 });
    const res = await ok('catalog.sku.update', { sku_id: skuId, weight_grams: 1500 });
    expect(res).toMatchObject({ sku_id: skuId, weight_grams: 1500, length_cm: 30, width_cm: 20, height_cm: 10, amount: 2500, changed: ['weight_grams'] });
    expect(await attributes()).toMatchObject({ w: 1500, l: 30, wd: 20, h: 10, amount: 2500 });
    const priced = await ok('catalog.sku.update', { sku_id: skuId, amount: 3000, code: 'BOX-RENAMED', height_cm: null, status: 'active' });
    expect(priced).toMatchObject({ amount: 3000, code: 'BOX-RENAMED', height_cm: null, status: 'active' });
    expect([...priced.changed].sort()).toEqual(['amount', 'code', 'height_cm']);
    expect((await ok('catalog.sku.update', { sku_id: skuId, amount: 3000 })).changed).toEqual([]);
    await ok('catalog.sku.update', { sku_id: skuId, height_cm: 12 });
    // Bounds and conflicts.
    for (const bad of [{ weight_grams: 0 }, { length_cm: -3 }, { width_cm: 1.5 }, { height_cm: 2 ** 53 }, { amount: -1 }, { code: '' }, { currency: 'USD' }]) {
      await refused('catalog.sku.update', { sku_id: skuId, ...bad }, 400, 'validation_failed');
    }
    await refused('catalog.sku.create', { product_id: 'prd_x', amount: 1, weight_grams: 0 }, 400, 'validation_failed');
    await refused('catalog.sku.update', { sku_id: 'sku_nope', weight_grams: 1 }, 409, 'conflict');
    const other = await sku();
    await refused('catalog.sku.update', { sku_id: other, code: 'BOX-RENAMED' }, 409, 'conflict');
    await ok('catalog.sku.set_promotion', { sku_id: skuId, promotional_amount: 2000 });
    await refused('catalog.sku.update', { sku_id: skuId, amount: 2000 }, 409, 'conflict');
    // The product's price range follows the amount.
    await ok('catalog.sku.update', { sku_id: skuId, amount: 3500 });
    const [product] = await t.sql(
      `SELECT p.price_min::int AS min, p.price_max::int AS max FROM catalog.product p JOIN catalog.sku s ON s.product_id = p.id WHERE s.id = $1`,
      [skuId],
    );
    expect(product).toEqual({ min: 3500, max: 3500 });
    const events = (await eventsOf('catalog', 'catalog.sku.updated')).filter(
      (e) => e.payload.sku_id === skuId && e.payload.changed && !e.payload.changed.includes('media'),
    );
    expect(events.map((e) => e.payload.changed)).toEqual(expect.arrayContaining([['weight_grams'], ['height_cm'], ['amount']]));
    expect(events).toHaveLength(4);
    expect(events.find((e) => e.payload.changed[0] === 'weight_grams')!.payload.sku).toMatchObject({ weight_grams: 1500, length_cm: 30 });

    // Checkout keeps what the catalog says now, with unknown attributes null.
    const unknownSize = await sku({ weight_grams: 50 });
    const order = await ok('order.create', {
      store_id: shop.store_id,
      customer: { email: 'buyer@example.com' },
      items: [
        { sku_id: skuId, qty: 2 },
        { sku_id: unknownSize, qty: 1 },
      ],
    });
    const snapshot = async () =>
      t.sql(
        `SELECT sku_id, weight_grams::int AS weight_grams, length_cm::int AS length_cm, width_cm::int AS width_cm, height_cm::int AS height_cm
         FROM orders.order_item WHERE order_id = $1 ORDER BY position`,
        [order.order_id],
      );
    const expected = [
      { sku_id: skuId, weight_grams: 1500, length_cm: 30, width_cm: 20, height_cm: 12 },
      { sku_id: unknownSize, weight_grams: 50, length_cm: null, width_cm: null, height_cm: null },
    ];
    expect(await snapshot()).toEqual(expected);
    // A snapshot: changing the SKU later leaves the order's items as they were.
    await ok('catalog.sku.update', { sku_id: skuId, weight_grams: 9999, length_cm: null });
    expect(await snapshot()).toEqual(expected);
  });
});

describe('checkout with a shipping method', () => {
  const address = (postal_code: string) => ({ name: 'Ana Lima', line1: 'Rua A 1', city: 'São Paulo', postal_code, country: 'BR' });
  const order = (items: Array<{ sku_id: string; qty: number }>, extra: Record<string, unknown>) =>
    call('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items, ...extra });

  it('stamps the parcel with the method’s date, and refuses with the reason a method that cannot take the order', async () => {
    const sp = await zone('01000-000', '01999-999', 'São Paulo');
    await zone('20000-000', '20999-999', 'Rio');
    const courier = await method({ zone_ids: [sp], transit_days: 3, max_weight_grams: 5000 });
    const light = await sku({ weight_grams: 1200, length_cm: 20, width_cm: 15, height_cm: 10 });

    const placed = await call('order.create', {
      store_id: shop.store_id,
      customer: { email: 'buyer@example.com' },
      items: [{ sku_id: light, qty: 2 }],
      shipping_address: address('01310-100'),
      shipping_method_id: courier,
    });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ shipment_id: expect.any(String), estimated_delivery_date: inDays(3) });
    const read = await t.read('/internal/order', { order_id: placed.body.order_id }, shop.token);
    expect(read.body).toMatchObject({
      shipping_method_id: courier,
      shipments: [{ shipment_id: placed.body.shipment_id, estimated_delivery_date: inDays(3), status: 'pending' }],
    });

    // 5 × 1200 g is over the method's 5000 g; Rio is not among its zones; nothing is held for a refused order.
    const heavy = await order([{ sku_id: light, qty: 5 }], { shipping_address: address('01310100'), shipping_method_id: courier });
    expect([heavy.status, heavy.body.error.kind, heavy.body.error.reason]).toEqual([409, 'conflict', 'too_heavy']);
    const far = await order([{ sku_id: light, qty: 1 }], { shipping_address: address('20040-002'), shipping_method_id: courier });
    expect([far.status, far.body.error.kind, far.body.error.reason]).toEqual([409, 'conflict', 'no_zone']);
    expect((await t.read('/internal/inventory', { sku_id: light }, shop.token)).body.items[0]).toMatchObject({ reserved: 2 });

    await refused(
      'order.create',
      { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id: light, qty: 1 }], shipping_method_id: courier },
      400,
      'validation_failed',
    );
    await refused(
      'order.create',
      {
        store_id: shop.store_id,
        customer: { email: 'buyer@example.com' },
        items: [{ sku_id: light, qty: 1 }],
        shipping_address: address('01310100'),
        shipping_method_id: 'shm_nope',
      },
      409,
      'conflict',
    );
    await ok('shipping.method.update', { method_id: courier, active: false });
    const inactive = await order([{ sku_id: light, qty: 1 }], { shipping_address: address('01310100'), shipping_method_id: courier });
    expect([inactive.status, inactive.body.error.reason]).toEqual([409, 'inactive']);

    // Without a method, no date: the parcel's date is unknown, and stays so.
    const plain = await ok('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id: light, qty: 1 }] });
    expect(plain).toMatchObject({ shipment_id: expect.any(String), estimated_delivery_date: null });
  });
});

describe('tenant isolation', () => {
  it('refuses another tenant’s zones and methods, and never shows them', async () => {
    const other = await t.newTenant();
    const theirs = (await ok('shipping.zone.create', { name: 'Theirs', postal_code_from: '01000000', postal_code_to: '01999999' }, other.token)).zone_id;
    const theirMethod = (await ok('shipping.method.create', { name: 'Theirs', dimensional_divisor: 6000, zone_ids: [theirs] }, other.token)).method_id;
    const mine = await zone('01000000', '01999999', 'Mine');
    expect((await refused('shipping.method.create', { name: 'Mine', dimensional_divisor: 6000, zone_ids: [theirs] }, 409, 'conflict')).message).toContain(
      theirs,
    );
    const own = await method({ zone_ids: [mine] });
    await refused('shipping.method.update', { method_id: own, zone_ids: [mine, theirs] }, 409, 'conflict');
    await refused('shipping.method.update', { method_id: theirMethod, active: false }, 409, 'conflict');
    const zones = (await t.read('/internal/shipping/zones', {}, shop.token)).body;
    expect(zones.items.map((z: any) => z.zone_id)).toEqual([mine]);
    const methods = (await t.read('/internal/shipping/methods', {}, shop.token)).body;
    expect(methods.items.map((m: any) => m.method_id)).toEqual([own]);
    // The quote weighs only this tenant's methods against this tenant's zones.
    const box = await sku({ weight_grams: 100, length_cm: 1, width_cm: 1, height_cm: 1 });
    const q = (await quote('01500000', `${box}:1`)).body;
    expect(q.zone_ids).toEqual([mine]);
    expect(q.methods.map((m: any) => m.method_id)).toEqual([own]);
    expect(q.refused).toEqual([]);
    expect((await t.read('/internal/shipping/methods', {}, other.token)).body.items[0]).toMatchObject({
      method_id: theirMethod,
      active: true,
      zone_ids: [theirs],
    });
  });
});
