import type { CreatedTenant } from '@backoffice/identity';
import { startTestSystem, type TestSystem } from './helpers';

/*
 * Errors a front-end can act on: over /graphql a refusal carries the reference's kind (`code`), a
 * stable `reason` and, where the input has one, the `field` it is about; the same calls over REST
 * answer `{"error":{"kind","message"}}` as before.
 */

let t: TestSystem;
let shop: CreatedTenant;
let handle: string;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  handle = `errors-${Math.random().toString(36).slice(2, 10)}`;
  shop = await t.newTenant(handle);
});

const stemOf = (name: string) =>
  name
    .split(/[._]/)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');

/** A command through /graphql: its first error's message and extensions, or null when it succeeded. */
async function refusal(name: string, input: unknown): Promise<{ message: string; extensions: Record<string, unknown> } | null> {
  const field = name.replace(/\./g, '_');
  const res = await t.graphql(`mutation($input: ${stemOf(name)}Input!) { ${field}(input: $input) { __typename } }`, { input }, shop.token);
  expect(res.status).toBe(200);
  const [first] = res.body.errors ?? [];
  return first ? { message: first.message, extensions: first.extensions } : null;
}

/** The same command over REST: the body must hold the kind and message only. */
async function restRefusal(name: string, input: unknown, status: number): Promise<{ kind: string; message: string }> {
  const res = await t.command(name, input, shop.token);
  expect(res.status).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(res.body.error).sort()).toEqual(['kind', 'message']);
  return res.body.error;
}

let seq = 0;
/** A published SKU with `stock` on hand in the default warehouse. */
async function sellable(stock: number): Promise<string> {
  const n = ++seq;
  const { product_id } = await t.ok('catalog.product.create', { title: `Box ${n}`, handle: `box-${n}`, status: 'active' }, shop.token);
  const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: `BOX-${n}`, amount: 1000, currency: 'EUR' }, shop.token);
  await t.ok('catalog.product.publish', { product_id, store_id: shop.store_id }, shop.token);
  await t.ok('inventory.adjust', { sku_id, on_hand: stock }, shop.token);
  return sku_id;
}

const orderOf = (items: Array<{ sku_id: string; qty: number }>, store_id = shop.store_id) => ({
  store_id,
  customer: { email: 'buyer@example.com' },
  items,
});

describe('reasons and fields over GraphQL', () => {
  it('an unknown SKU in order.create is a conflict, not_found, at the item; REST answers the same kind and message only', async () => {
    const sku_id = await sellable(5);
    const input = orderOf([
      { sku_id, qty: 1 },
      { sku_id: 'sku_nope', qty: 1 },
    ]);
    const gql = await refusal('order.create', input);
    expect(gql?.extensions).toEqual({ code: 'conflict', reason: 'not_found', field: 'input.items[1].sku_id' });
    expect(await restRefusal('order.create', input, 409)).toEqual({ kind: 'conflict', message: gql?.message });
  });

  it('asking more than the stock is insufficient_stock at the line', async () => {
    const sku_id = await sellable(2);
    const input = orderOf([{ sku_id, qty: 3 }]);
    expect((await refusal('order.create', input))?.extensions).toEqual({ code: 'conflict', reason: 'insufficient_stock', field: 'input.items[0].qty' });
    await restRefusal('order.create', input, 409);
  });

  it('a refused state move is illegal_transition (the state machine’s one refusal)', async () => {
    const sku_id = await sellable(2);
    const { order_id } = await t.ok('order.create', orderOf([{ sku_id, qty: 1 }]), shop.token);
    const view = await t.read('/internal/order', { order_id }, shop.token);
    const ref = { order_id, shipment_id: view.body.shipments[0].shipment_id };
    // Unpaid: the parcel may not leave.
    expect((await refusal('order.shipment.dispatch', ref))?.extensions).toMatchObject({ code: 'conflict', reason: 'illegal_transition' });
    await t.ok('order.cancel', { order_id }, shop.token);
    expect((await refusal('order.mark_paid', { order_id }))?.extensions).toMatchObject({ code: 'conflict', reason: 'illegal_transition' });
    await restRefusal('order.mark_paid', { order_id }, 409);
  });

  it('a taken handle is duplicate at handle', async () => {
    await t.ok('catalog.product.create', { title: 'First', handle: 'taken' }, shop.token);
    const input = { title: 'Second', handle: 'taken' };
    expect((await refusal('catalog.product.create', input))?.extensions).toEqual({ code: 'conflict', reason: 'duplicate', field: 'input.handle' });
    await restRefusal('catalog.product.create', input, 409);
  });

  it('a shipment above what the parcel holds is exceeds_remaining at the line, with both numbers', async () => {
    const sku_id = await sellable(5);
    const { order_id } = await t.ok('order.create', orderOf([{ sku_id, qty: 2 }]), shop.token);
    const view = await t.read('/internal/order', { order_id }, shop.token);
    const input = { order_id, items: [{ order_item_id: view.body.items[0].order_item_id, qty: 3 }] };
    expect((await refusal('order.shipment.create', input))?.extensions).toMatchObject({
      code: 'exceeds_remaining',
      reason: 'exceeds_remaining',
      field: 'input.items[0].qty',
      requested: 3,
      remaining: 2,
    });
    // REST keeps the numbers it carried before reasons existed, and nothing more.
    const rest = await t.command('order.shipment.create', input, shop.token);
    expect(rest.status).toBe(409);
    expect(Object.keys(rest.body.error).sort()).toEqual(['kind', 'message', 'order_item_id', 'remaining', 'requested', 'shipment_id']);
  });

  it('a text too long is validation_failed, too_long, at its path', async () => {
    const input = { title: 'x'.repeat(501), handle: 'long' };
    const gql = await refusal('catalog.product.create', input);
    expect(gql?.extensions).toEqual({ code: 'validation_failed', reason: 'too_long', field: 'input.title' });
    expect(await restRefusal('catalog.product.create', input, 400)).toEqual({ kind: 'validation_failed', message: gql?.message });
    // An unknown field never reaches the schema check over GraphQL: the input type refuses it first.
    expect((await refusal('catalog.product.create', { title: 'x', handle: 'Not a handle' }))?.extensions).toEqual({
      code: 'validation_failed',
      reason: 'pattern',
      field: 'input.handle',
    });
  });
});

describe('stores: by id or handle everywhere', () => {
  it('publish and order.create take the handle as the id, and store the id', async () => {
    const sku_id = await sellable(5);
    const { product_id } = await t.ok('catalog.product.create', { title: 'Lamp', handle: 'lamp', status: 'active' }, shop.token);
    expect(await t.ok('catalog.product.publish', { product_id, store_id: handle }, shop.token)).toMatchObject({ store_id: shop.store_id });
    const { order_id } = await t.ok('order.create', orderOf([{ sku_id, qty: 1 }], handle), shop.token);
    const [row] = await t.sql(`SELECT store_id FROM orders."order" WHERE id = $1`, [order_id]);
    expect(row.store_id).toBe(shop.store_id);
    const page = await t.ok('content.page.create', { store_id: handle, slug: 'about', title: 'About', template_key: 'page' }, shop.token);
    const [stored] = await t.sql(`SELECT store_id FROM content.page WHERE id = $1`, [page.page_id]);
    expect(stored.store_id).toBe(shop.store_id);
  });

  it('an unknown store is refused alike by every command, naming what was given', async () => {
    const { product_id } = await t.ok('catalog.product.create', { title: 'Lamp', handle: 'lamp' }, shop.token);
    const message = 'no store "nowhere" (id or handle) in this tenant';
    const publish = await refusal('catalog.product.publish', { product_id, store_id: 'nowhere' });
    expect(publish).toEqual({ message, extensions: { code: 'conflict', reason: 'not_found', field: 'input.store_id' } });
    const order = await refusal('order.create', orderOf([{ sku_id: 'sku_x', qty: 1 }], 'nowhere'));
    expect(order).toEqual({ message, extensions: { code: 'conflict', reason: 'not_found', field: 'input.store_id' } });
    expect(await restRefusal('order.create', orderOf([{ sku_id: 'sku_x', qty: 1 }], 'nowhere'), 409)).toEqual({ kind: 'conflict', message });
    // Another tenant's store, by its handle, is as unknown.
    const other = await t.newTenant(`other-${handle}`);
    expect((await refusal('catalog.product.publish', { product_id, store_id: `other-${handle}` }))?.message).toBe(
      `no store "other-${handle}" (id or handle) in this tenant`,
    );
    expect(other.store_id).not.toBe(shop.store_id);
  });
});
