import type { CreatedTenant } from '@backoffice/identity';
import { startTestSystem, statementsDuring, type TestSystem } from './helpers';

/**
 * Orders read back: one GraphQL query joining an order to the catalog's current SKUs (federation,
 * over real HTTP to the gateway), and the masking of personal fields for a key without pii.read
 * in every read of orders (REST list and single, GraphQL), search included.
 */
let t: TestSystem;
/** Each test runs in a tenant of its own. */
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
/** A key of the shop's with just these scopes. */
const keyWith = async (...scopes: string[]) => (await ok('iam.api_key.create', { name: `key-${scopes.join('-')}`, scopes })).token as string;
let seq = 0;
/** A published product with one SKU (named), in stock. */
const sellable = async (amount: number, name: string) => {
  const { product_id } = await ok('catalog.product.create', { title: `Mug ${++seq}`, handle: `mug-${seq}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `MUG-${seq}`, name, amount, currency: 'EUR' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: 20 });
  return { product_id: product_id as string, sku_id: sku_id as string, code: `MUG-${seq}`, title: `Mug ${seq} – ${name}` };
};
const checkout = (items: Array<{ sku_id: string; qty: number }>, extra: Record<string, unknown> = {}) =>
  ok('order.create', { store_id: shop.store_id, customer: { email: 'buyer@example.com' }, items, ...extra }) as Promise<{ order_id: string }>;

const ORDER_WITH_SKUS = `query($id: ID!) {
  read_internal_order(input: { order_id: $id }) {
    order_id total_amount
    items { sku_id title unit_amount line_amount sku { sku_id code name amount currency status promotional_price { unit_amount promotional_amount } } }
  }
}`;

describe('an order with its SKUs, across orders and catalog, in one GraphQL query', () => {
  it("keeps each item's checkout snapshot beside the catalog's current SKU, fetched in one batch", async () => {
    const a = await sellable(2500, 'Blue');
    const b = await sellable(1200, 'Red');
    const c = await sellable(900, 'Green');
    const first = await checkout([
      { sku_id: a.sku_id, qty: 2 },
      { sku_id: b.sku_id, qty: 1 },
      { sku_id: c.sku_id, qty: 3 },
    ]);

    // After checkout the catalog changes: a promotion on a, a new product title for b.
    await ok('catalog.sku.set_promotion', { sku_id: a.sku_id, promotional_amount: 1900 });
    await ok('catalog.product.update', { product_id: b.product_id, title: 'Renamed mug' });
    const second = await checkout([{ sku_id: a.sku_id, qty: 1 }]);

    const { result: answer, statements: skuStatements } = await statementsDuring(/FROM catalog\.sku s WHERE s\.id = ANY/, () =>
      t.graphql(ORDER_WITH_SKUS, { id: first.order_id }, shop.token),
    );

    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const order = answer.body.data.read_internal_order;
    expect(order).toEqual({
      order_id: first.order_id,
      total_amount: 2 * 2500 + 1200 + 3 * 900,
      items: [
        {
          // The snapshot: price and title as they were at checkout (orders' data)…
          sku_id: a.sku_id,
          title: a.title,
          unit_amount: 2500,
          line_amount: 5000,
          // …and the SKU as the catalog has it now (catalog's data): the promotion shows.
          sku: {
            sku_id: a.sku_id,
            code: a.code,
            name: 'Blue',
            amount: 2500,
            currency: 'EUR',
            status: 'active',
            promotional_price: { unit_amount: 2500, promotional_amount: 1900 },
          },
        },
        {
          sku_id: b.sku_id,
          title: b.title,
          unit_amount: 1200,
          line_amount: 1200,
          sku: { sku_id: b.sku_id, code: b.code, name: 'Red', amount: 1200, currency: 'EUR', status: 'active', promotional_price: null },
        },
        {
          sku_id: c.sku_id,
          title: c.title,
          unit_amount: 900,
          line_amount: 2700,
          sku: { sku_id: c.sku_id, code: c.code, name: 'Green', amount: 900, currency: 'EUR', status: 'active', promotional_price: null },
        },
      ],
    });
    // The three SKU references cost the catalog one statement, not one each.
    expect(skuStatements).toHaveLength(1);

    // An order taken after the promotion has the promoted price as its snapshot; the SKU is the same.
    const later = (await t.graphql(ORDER_WITH_SKUS, { id: second.order_id }, shop.token)).body.data.read_internal_order;
    expect(later.items).toEqual([
      expect.objectContaining({
        sku_id: a.sku_id,
        unit_amount: 1900,
        sku: expect.objectContaining({ promotional_price: { unit_amount: 2500, promotional_amount: 1900 } }),
      }),
    ]);
    // The REST read of the same order has the snapshot (title unchanged by the rename).
    const rest = await t.read('/internal/order', { order_id: first.order_id }, shop.token);
    expect(rest.body.items.map((i: any) => [i.title, i.unit_amount])).toEqual([
      [a.title, 2500],
      [b.title, 1200],
      [c.title, 900],
    ]);
  });

  it('needs catalog.admin.read for the SKU: without it, the order and a forbidden error naming the scope, no SKU data', async () => {
    const a = await sellable(2500, 'Blue');
    const { order_id } = await checkout([{ sku_id: a.sku_id, qty: 1 }]);
    await ok('catalog.sku.set_promotion', { sku_id: a.sku_id, promotional_amount: 1777 });

    const orderOnly = await keyWith('order.read');
    const refused = await t.graphql(ORDER_WITH_SKUS, { id: order_id }, orderOnly);
    expect(refused.status).toBe(200);
    // The order's own data is answered; the catalog's part is null with a clear reason.
    expect(refused.body.data.read_internal_order).toEqual({
      order_id,
      total_amount: 2500,
      items: [{ sku_id: a.sku_id, title: a.title, unit_amount: 2500, line_amount: 2500, sku: null }],
    });
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: 'missing scope catalog.admin.read',
        extensions: expect.objectContaining({ code: 'forbidden', scope: 'catalog.admin.read' }),
      }),
    ]);
    // Nothing of the catalog's current SKU leaks (its promotion), and nothing internal is said.
    expect(JSON.stringify(refused.body)).not.toContain('1777');
    expect(JSON.stringify(refused.body)).not.toMatch(/Cannot return null|valueCompletion|"code":"internal"/);

    // Asking only for the order's own fields needs nothing more than order.read.
    const plain = await t.graphql(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { items { sku_id unit_amount } } }`,
      { id: order_id },
      orderOnly,
    );
    expect(plain.body).toEqual({ data: { read_internal_order: { items: [{ sku_id: a.sku_id, unit_amount: 2500 }] } } });

    // With the catalog's admin read as well, the SKU comes.
    const both = await t.graphql(ORDER_WITH_SKUS, { id: order_id }, await keyWith('order.read', 'catalog.admin.read'));
    expect(both.body.errors).toBeUndefined();
    expect(both.body.data.read_internal_order.items[0].sku).toMatchObject({ sku_id: a.sku_id, promotional_price: { promotional_amount: 1777 } });

    // Another tenant's key sees neither the order nor the SKU.
    const other = await t.newTenant();
    const foreign = await t.graphql(ORDER_WITH_SKUS, { id: order_id }, other.token);
    expect(foreign.body.data).toEqual({ read_internal_order: null });
    expect(foreign.body.errors.map((e: any) => e.extensions.code)).toEqual(['not_found']);
  });
});

describe('personal fields of order reads', () => {
  const customer = { email: 'ana.lima@lima-family.example', name: 'Ana Lima', phone: '+5511999990000' };
  const address = {
    name: 'Ana Lima Recipient',
    line1: 'Rua das Flores 123',
    line2: 'Apto 42',
    city: 'Campinas',
    region: 'Região Sudeste',
    postal_code: '13083-970',
    country: 'BR',
  };
  /** Every personal value given at checkout, and parts of them a masked answer must not show either. */
  const personal = ['ana.lima', 'Ana Lima', '+5511999990000', '99999', 'Rua das Flores', 'Apto 42', 'Campinas', 'Sudeste', '13083-970', '13083'];
  const MASKED_CUSTOMER = { email: '***@lima-family.example', name: '***', phone: '***' };
  const MASKED_ADDRESS = { name: '***', line1: '***', line2: '***', city: '***', region: '***', postal_code: '***', country: 'BR' };
  const noPersonalValue = (body: unknown) => {
    const text = JSON.stringify(body);
    for (const value of personal) expect(text).not.toContain(value);
  };
  const GQL_ORDER = `query($id: ID!) { read_internal_order(input: { order_id: $id }) {
    order_id status total_amount customer { email name phone } shipping_address { name line1 line2 city region postal_code country } items { sku_id title }
  } }`;
  const GQL_ORDERS = `query($q: String) { read_internal_orders(input: { q: $q }) { total items { order_id total_amount customer { email name phone } } } }`;

  it('are masked without pii.read in the list, the single read and GraphQL, same shape; clear with it', async () => {
    const a = await sellable(1000, 'Blue');
    const { order_id } = await checkout([{ sku_id: a.sku_id, qty: 1 }], { customer, shipping_address: address });
    // An order without the optional fields: absent stays null (the shape), never a fake value.
    const bare = await checkout([{ sku_id: a.sku_id, qty: 1 }], { customer: { email: 'solo@example.org' } });
    const support = await keyWith('order.read');
    const clear = await keyWith('order.read', 'pii.read');

    // The single read (REST).
    const seen = (await t.read('/internal/order', { order_id }, clear)).body;
    const hidden = (await t.read('/internal/order', { order_id }, support)).body;
    expect(seen.customer).toEqual(customer);
    expect(seen.shipping_address).toEqual(address);
    expect(hidden.customer).toEqual(MASKED_CUSTOMER);
    expect(hidden.shipping_address).toEqual(MASKED_ADDRESS);
    // Same answer otherwise: only the personal values differ.
    expect({ ...hidden, customer: null, shipping_address: null }).toEqual({ ...seen, customer: null, shipping_address: null });
    noPersonalValue(hidden);
    const bareHidden = (await t.read('/internal/order', { order_id: bare.order_id }, support)).body;
    expect(bareHidden).toMatchObject({ customer: { email: '***@example.org', name: null, phone: null }, shipping_address: null });
    expect(JSON.stringify(bareHidden)).not.toContain('solo');

    // The list (REST).
    const list = (await t.read('/internal/orders', {}, support)).body;
    expect(list.total).toBe(2);
    expect(list.items.find((i: any) => i.order_id === order_id).customer).toEqual(MASKED_CUSTOMER);
    expect(list.items.find((i: any) => i.order_id === bare.order_id).customer).toEqual({ email: '***@example.org', name: null, phone: null });
    noPersonalValue(list);
    expect(JSON.stringify(list)).not.toContain('solo');
    const clearList = (await t.read('/internal/orders', {}, clear)).body;
    expect(clearList.items.find((i: any) => i.order_id === order_id).customer).toEqual(customer);
    expect({ ...clearList, items: clearList.items.map((i: any) => ({ ...i, customer: null })) }).toEqual({
      ...list,
      items: list.items.map((i: any) => ({ ...i, customer: null })),
    });

    // GraphQL: the same handler, the same masking.
    const gqlHidden = await t.graphql(GQL_ORDER, { id: order_id }, support);
    expect(gqlHidden.body.errors).toBeUndefined();
    expect(gqlHidden.body.data.read_internal_order).toMatchObject({ order_id, customer: MASKED_CUSTOMER, shipping_address: MASKED_ADDRESS });
    noPersonalValue(gqlHidden.body);
    const gqlSeen = await t.graphql(GQL_ORDER, { id: order_id }, clear);
    expect(gqlSeen.body.data.read_internal_order).toMatchObject({ order_id, customer, shipping_address: address });
    const gqlList = await t.graphql(GQL_ORDERS, {}, support);
    expect(gqlList.body.data.read_internal_orders.items.find((i: any) => i.order_id === order_id).customer).toEqual(MASKED_CUSTOMER);
    noPersonalValue(gqlList.body);
    const gqlClearList = await t.graphql(GQL_ORDERS, {}, clear);
    expect(gqlClearList.body.data.read_internal_orders.items.find((i: any) => i.order_id === order_id).customer).toEqual(customer);
  });

  it('q= finds no order by a personal value the key cannot see (not even a count), only by order id', async () => {
    const a = await sellable(1000, 'Blue');
    const { order_id } = await checkout([{ sku_id: a.sku_id, qty: 1 }], { customer, shipping_address: address });
    await checkout([{ sku_id: a.sku_id, qty: 1 }], { customer: { email: 'other@example.org' } });
    const support = await keyWith('order.read');
    const clear = await keyWith('order.read', 'pii.read');
    const search = async (q: string, token: string) =>
      (await t.read('/internal/orders', { q }, token)).body as { total: number; items: Array<{ order_id: string }> };

    // With pii.read, the email (or a part of it) finds the order.
    for (const q of [customer.email, 'ana.lima', 'ANA.LIMA']) expect((await search(q, clear)).items.map((i) => i.order_id)).toEqual([order_id]);
    // Without it, no personal value finds anything: not the email, a part of it, the name, phone or address.
    for (const q of [customer.email, 'ana.lima', 'ana', 'lima', '%', '_', 'Ana Lima', customer.phone, address.line1, address.city, address.postal_code]) {
      expect({ q, answer: await search(q, support) }).toEqual({ q, answer: expect.objectContaining({ total: 0, items: [] }) });
    }
    // GraphQL the same.
    const gql = await t.graphql(GQL_ORDERS, { q: 'ana.lima' }, support);
    expect(gql.body.data.read_internal_orders).toEqual({ total: 0, items: [] });
    // The order id still finds the order, masked.
    const byId = await search(order_id, support);
    expect(byId).toMatchObject({ total: 1, items: [{ order_id, customer: MASKED_CUSTOMER }] });
  });
});
