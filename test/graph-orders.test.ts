import type { CreatedTenant } from '@backoffice/identity';
import { startTestSystem, statementsDuring, type TestSystem } from './helpers';

let t: TestSystem;
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
});

const ok = (name: string, input: unknown, token = shop.token) => t.ok(name, input, token);
/** A GraphQL request that must answer without errors: its data. */
const data = async (query: string, variables: Record<string, unknown> = {}, token = shop.token) => {
  const res = await t.graphql(query, variables, token);
  if (res.status !== 200 || res.body.errors) throw new Error(`graphql: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};
let seq = 0;
const sellable = async (stock: number) => {
  const n = ++seq;
  const { product_id } = await ok('catalog.product.create', { title: `Mug ${n}`, handle: `mug-${n}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `MUG-${n}`, amount: 1500, currency: 'EUR' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: stock });
  return sku_id as string;
};
const place = async (skus: string[], qty: number, email = 'buyer@example.com') =>
  (await ok('order.create', { store_id: shop.store_id, customer: { email }, items: skus.map((sku_id) => ({ sku_id, qty })) })) as {
    order_id: string;
    shipment_id: string;
  };

const ORDER_PAGE = `query Order($id: ID!) {
  read_internal_order(input: { order_id: $id }) {
    order_id status fulfilment_status total_amount customer { email }
    store { store_id }
    items { order_item_id qty sku { sku_id } }
    payment_attempts { payment_attempt_id status }
    shipments { shipment_id status order_id items { order_item_id qty } order { order_id } }
    documents { document_id kind }
  }
}`;

describe('the Order entity', () => {
  it('answers an order page in one request, its fulfilment following the shipments from unfulfilled to delivered', async () => {
    const [a, b] = [await sellable(10), await sellable(10)];
    const { order_id, shipment_id: first } = await place([a, b], 2);
    await ok('order.document.attach', { order_id, kind: 'fiscal_invoice', file_url: 'https://files.example.com/invoice.pdf' });
    const page = async () => (await data(ORDER_PAGE, { id: order_id })).read_internal_order;

    const before = await page();
    expect(before).toMatchObject({ order_id, status: 'pending_payment', fulfilment_status: 'unfulfilled', store: { store_id: shop.store_id } });
    expect(before.items.map((i: any) => [i.sku.sku_id, i.qty])).toEqual([
      [a, 2],
      [b, 2],
    ]);
    expect(before.payment_attempts).toEqual([]);
    expect(before.shipments).toEqual([{ shipment_id: first, status: 'pending', order_id, items: expect.any(Array), order: { order_id } }]);
    expect(before.documents).toEqual([{ document_id: expect.any(String), kind: 'fiscal_invoice' }]);

    // One item's quantity in a parcel of its own, dispatched: partially dispatched.
    const itemA = before.items[0].order_item_id;
    const split = await ok('order.shipment.create', { order_id, items: [{ order_item_id: itemA, qty: 2 }] });
    await ok('order.mark_paid', { order_id });
    await ok('order.shipment.dispatch', { order_id, shipment_id: split.shipment_id });
    expect((await page()).fulfilment_status).toBe('partially_dispatched');
    await ok('order.shipment.dispatch', { order_id, shipment_id: first });
    expect((await page()).fulfilment_status).toBe('dispatched');
    await ok('order.shipment.mark_delivered', { order_id, shipment_id: first });
    expect((await page()).fulfilment_status).toBe('dispatched');
    await ok('order.shipment.mark_delivered', { order_id, shipment_id: split.shipment_id });
    const after = await page();
    expect(after.fulfilment_status).toBe('delivered');
    expect(after.status).toBe('paid');
    expect(after.shipments.map((s: any) => s.status)).toEqual(['delivered', 'delivered']);
  });

  it('filters the orders connection by fulfilment, each filter answering exactly the orders whose parcels have gone that far', async () => {
    const sku = await sellable(50);
    // An order of two parcels (the one it was placed with and one split off), paid so its parcels can leave.
    const twoParcels = async () => {
      const { order_id, shipment_id } = await place([sku], 2);
      const { read_internal_order: order } = await data(ORDER_PAGE, { id: order_id });
      const split = await ok('order.shipment.create', { order_id, items: [{ order_item_id: order.items[0].order_item_id, qty: 1 }] });
      await ok('order.mark_paid', { order_id });
      return { order_id, parcels: [shipment_id as string, split.shipment_id as string] };
    };
    const move = (order_id: string, shipment_id: string, to: 'dispatch' | 'mark_delivered') => ok(`order.shipment.${to}`, { order_id, shipment_id });
    const unfulfilled = (await twoParcels()).order_id;
    const partly = await twoParcels();
    await move(partly.order_id, partly.parcels[0], 'dispatch');
    const partlyDelivered = await twoParcels();
    await move(partlyDelivered.order_id, partlyDelivered.parcels[1], 'dispatch');
    await move(partlyDelivered.order_id, partlyDelivered.parcels[1], 'mark_delivered');
    const dispatched = await twoParcels();
    for (const parcel of dispatched.parcels) await move(dispatched.order_id, parcel, 'dispatch');
    await move(dispatched.order_id, dispatched.parcels[0], 'mark_delivered');
    const delivered = await twoParcels();
    for (const parcel of delivered.parcels) {
      await move(delivered.order_id, parcel, 'dispatch');
      await move(delivered.order_id, parcel, 'mark_delivered');
    }
    const unpaid = (await place([sku], 1)).order_id;
    const expected = {
      unfulfilled: [unpaid, unfulfilled],
      partially_dispatched: [partlyDelivered.order_id, partly.order_id],
      dispatched: [dispatched.order_id],
      delivered: [delivered.order_id],
    };
    const query = `query($f: FulfilmentStatus) {
      orders(first: 20, filter: { fulfilment: $f }) { totalCount edges { node { order_id fulfilment_status } } }
    }`;
    const all = (await data(query)).orders;
    expect(all.totalCount).toBe(6);
    for (const [fulfilment, ids] of Object.entries(expected)) {
      const { orders } = await data(query, { f: fulfilment });
      expect(orders.edges.map((e: any) => e.node.order_id)).toEqual(ids);
      expect(orders.totalCount).toBe(ids.length);
      // The list's column says what the filter chose, and what the single order read says.
      for (const { node } of orders.edges) {
        expect(node.fulfilment_status).toBe(fulfilment);
        expect((await data(ORDER_PAGE, { id: node.order_id })).read_internal_order.fulfilment_status).toBe(fulfilment);
      }
    }
    // Combined with the status filter: only the unpaid order is unfulfilled and awaiting payment.
    const unpaidOnly = await data(`{ orders(filter: { fulfilment: unfulfilled, status: pending_payment }) { edges { node { order_id } } } }`);
    expect(unpaidOnly.orders.edges.map((e: any) => e.node.order_id)).toEqual([unpaid]);

    // Another tenant's orders, whatever their state, are never among them.
    const other = shop;
    shop = await t.newTenant();
    for (const fulfilment of Object.keys(expected)) {
      expect((await data(query, { f: fulfilment })).orders.totalCount).toBe(0);
      expect((await data(query, { f: fulfilment }, other.token)).orders.totalCount).toBe(expected[fulfilment as keyof typeof expected].length);
    }
    // A value outside the enum is refused in words.
    const res = await t.graphql(`{ orders(filter: { fulfilment: shipped }) { totalCount } }`, {}, other.token);
    expect(res.body.errors?.[0]?.message).toMatch(/shipped/);
  });

  it('pages the orders connection by cursor, each node the Order with its links and masked personal fields', async () => {
    const sku = await sellable(50);
    const placed = [];
    for (let i = 0; i < 5; i++) placed.push((await place([sku], i + 1, `buyer${i}@example.com`)).order_id);
    const query = `query($after: String) {
      orders(first: 2, after: $after) {
        edges { cursor node { order_id customer { email } fulfilment_status items { qty } shipments { status items { qty } } store { store_id } } }
        pageInfo { hasNextPage endCursor } totalCount
      }
    }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 3; pages++) {
      const { orders } = await data(query, { after });
      expect(orders.totalCount).toBe(5);
      for (const { node } of orders.edges) {
        seen.push(node.order_id);
        expect(node.fulfilment_status).toBe('unfulfilled');
        expect(node.shipments).toEqual([{ status: 'pending', items: [{ qty: node.items[0].qty }] }]);
        expect(node.store).toEqual({ store_id: shop.store_id });
      }
      expect(orders.pageInfo.hasNextPage).toBe(pages < 2);
      after = orders.pageInfo.endCursor;
    }
    // Newest first, each once.
    expect(seen).toEqual([...placed].reverse());

    // Without pii.read the email is masked, and `q` finds by id only.
    const { token } = await ok('iam.api_key.create', { name: 'reader', scopes: ['order.read'] });
    const masked = await data(`{ orders(first: 1) { edges { node { customer { email } } } } }`, {}, token);
    expect(masked.orders.edges[0].node.customer.email).not.toContain('buyer4');
    const byEmail = await data(`{ orders(filter: { q: "buyer2" }) { totalCount } }`, {}, token);
    expect(byEmail.orders.totalCount).toBe(0);
    const byEmailPii = await data(`{ orders(filter: { q: "buyer2" }) { edges { node { order_id } } } }`);
    expect(byEmailPii.orders.edges.map((e: any) => e.node.order_id)).toEqual([placed[2]]);
    const sorted = await data(`query($by: OrderOrder) { orders(first: 2, orderBy: $by) { edges { node { total_amount } } } }`, {
      by: { field: 'total_amount', direction: 'DESC' },
    });
    expect(sorted.orders.edges.map((e: any) => e.node.total_amount)).toEqual([7500, 6000]);
  });

  it('reads a page of orders with their items in one statement, and counts them only when totalCount is asked', async () => {
    const [a, b] = [await sellable(50), await sellable(50)];
    await place([a, b], 1);
    await place([b], 2);
    const counted = async (query: string) => {
      const { result, statements, prepared } = await statementsDuring(/FROM orders\.("order"|order_item) /, () => data(query));
      return { answer: result.orders, statements, prepared };
    };
    const items = '{ edges { node { total_amount items { order_item_id code qty unit_amount line_amount sku_id sku { sku_id } } fulfilment_status } } }';
    const list = await counted(`{ orders(first: 10) ${items} }`);
    expect(list.statements).toHaveLength(1);
    // Parsed and planned once per pooled connection: the page's text is one per shape of the list.
    expect(list.prepared).toEqual(list.statements);
    expect(list.answer.edges.map((e: any) => [e.node.items.map((i: any) => [i.sku_id, i.qty]), e.node.fulfilment_status])).toEqual([
      [[[b, 2]], 'unfulfilled'],
      [
        [
          [a, 1],
          [b, 1],
        ],
        'unfulfilled',
      ],
    ]);
    // The same items as the single order read answers (which reads them by themselves).
    const [newest] = list.answer.edges;
    const { read_internal_order: one } = await data(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { items { order_item_id code qty unit_amount line_amount sku_id sku { sku_id } } } }`,
      {
        id: (await data('{ orders(first: 1) { edges { node { order_id } } } }')).orders.edges[0].node.order_id,
      },
    );
    expect(newest.node.items).toEqual(one.items);
    const total = await counted('{ orders(first: 1) { totalCount edges { node { order_id } } } }');
    expect(total.answer.totalCount).toBe(2);
    expect(total.statements).toHaveLength(2);
  });

  it('reads an item’s lean fields unless its page asks more, each the same as the whole item’s', async () => {
    const [a, b] = [await sellable(50), await sellable(50)];
    await place([a, b], 2);
    const read = async (selection: string) => {
      const { result, statements } = await statementsDuring(/FROM orders\.order_item /, () =>
        data(`{ orders(first: 5) { edges { node { items ${selection} } } } }`),
      );
      return { items: result.orders.edges[0].node.items, statements };
    };
    const whole = await read('{ order_item_id sku_id product_id code title qty unit_amount line_amount }');
    const lean = await read('{ qty amount: line_amount ... on OrderItem { code } sku { code } }');
    expect(lean.statements).toHaveLength(1);
    // What nobody asked is not read: the checkout's title and product id, the item's id.
    expect(lean.statements[0]).not.toMatch(/i\.title|i\.product_id|i\.id\b/);
    expect(lean.items).toEqual(whole.items.map((item: any) => ({ qty: item.qty, amount: item.line_amount, code: item.code, sku: { code: item.code } })));
    // One field beyond the lean ones reads them all.
    expect((await read('{ title qty }')).items).toEqual(whole.items.map((item: any) => ({ title: item.title, qty: item.qty })));
    // Only the typename asked: the items are still there, one per line.
    expect((await read('{ __typename }')).items).toEqual([{ __typename: 'OrderItem' }, { __typename: 'OrderItem' }]);
  });

  it('reads an order’s lean fields unless its page asks more (no personal fields, no reservation), each as the whole node has it', async () => {
    await place([await sellable(5)], 1);
    const read = async (selection: string) => {
      const { result, statements } = await statementsDuring(/FROM orders\."order" o/, () => data(`{ orders(first: 5) { edges { node ${selection} } } }`));
      return { node: result.orders.edges[0].node, statements };
    };
    const whole = await read(
      '{ order_id status total_amount created_at store_id customer { email } shipping_address { city } paid_at reservation { status } }',
    );
    expect(whole.node.reservation).toEqual({ status: 'active' });
    const narrow = await read('{ order_id amount: total_amount ... on Order { created_at } store { store_id } }');
    expect(narrow.statements).toHaveLength(1);
    // What nobody asked is not read: the customer, the address, the other times and amounts, the reservation.
    expect(narrow.statements[0]).not.toMatch(/o\.customer|o\.shipping_address|o\.paid_at|orders\.reservation/);
    expect(narrow.node).toEqual({
      order_id: whole.node.order_id,
      amount: whole.node.total_amount,
      created_at: whole.node.created_at,
      store: { store_id: whole.node.store_id },
    });
  });

  it('runs a few texts, each kept prepared, whatever fields clients select', async () => {
    await place([await sellable(5)], 1);
    const orders = ['status', 'currency total_amount', 'created_at customer { email }', 'paid_at reservation { status }'];
    const items = ['qty', 'code sku_id line_amount', 'title', 'order_item_id product_id qty'];
    const texts = new Set<string>();
    for (const order of orders) {
      for (const item of items) {
        const { statements, prepared } = await statementsDuring(/FROM orders\."order" o/, () =>
          data(`{ orders(first: 1) { edges { node { order_id ${order} items { ${item} } } } } }`),
        );
        expect(prepared).toEqual(statements);
        for (const text of statements) texts.add(text);
      }
    }
    // Lean or whole orders, lean or whole items: four texts, not one per selection.
    expect(texts.size).toBe(4);
  });
});

describe('Sku.stock_levels', () => {
  it('gives a list of SKUs their stock in one statement, whatever their number', async () => {
    const skus = [await sellable(3), await sellable(4), await sellable(5)];
    const { warehouse_id } = await ok('inventory.warehouse.create', { code: 'north', name: 'North' });
    await ok('inventory.adjust', { sku_id: skus[0], warehouse_id, on_hand: 7 });
    await place([skus[1]], 1);
    // Count the statements reading stock levels that the orders subgraph runs for this request.
    const { result: answer, statements } = await statementsDuring(/orders\.stock_level/, () =>
      // The catalog's products with their SKUs, the gateway asking orders for the SKUs' stock.
      data(`{ products(first: 10) { edges { node { skus { sku_id stock_levels { warehouse_id on_hand reserved available warehouse { code } } } } } } }`),
    );
    expect(statements).toHaveLength(1);
    const levels = Object.fromEntries(answer.products.edges.flatMap((e: any) => e.node.skus).map((sku: any) => [sku.sku_id, sku.stock_levels]));
    expect(levels[skus[0]]).toEqual(
      [
        expect.objectContaining({ on_hand: 3, reserved: 0, available: 3, warehouse: { code: 'default' } }),
        { warehouse_id, on_hand: 7, reserved: 0, available: 7, warehouse: { code: 'north' } },
      ].sort((x, y) => (x.warehouse_id < y.warehouse_id ? -1 : 1)),
    );
    expect(levels[skus[1]]).toEqual([expect.objectContaining({ on_hand: 4, reserved: 1, available: 3 })]);
    expect(levels[skus[2]]).toEqual([expect.objectContaining({ on_hand: 5, reserved: 0, available: 5 })]);
  });
});

describe('mutation results', () => {
  it('name the entity they changed, read by the orders subgraph itself', async () => {
    const sku = await sellable(5);
    const created = await data(
      `mutation($input: OrderCreateInput!) { order_create(input: $input) { order_id order { order_id status fulfilment_status } shipment { shipment_id status } } }`,
      { input: { store_id: shop.store_id, customer: { email: 'a@example.com' }, items: [{ sku_id: sku, qty: 1 }] } },
    );
    const { order_id } = created.order_create;
    expect(created.order_create.order).toEqual({ order_id, status: 'pending_payment', fulfilment_status: 'unfulfilled' });
    expect(created.order_create.shipment.status).toBe('pending');
    const cancelled = await data(`mutation($id: ID!) { order_cancel(input: { order_id: $id }) { status order { status cancelled_at } } }`, {
      id: order_id,
    });
    expect(cancelled.order_cancel).toEqual({ status: 'cancelled', order: { status: 'cancelled', cancelled_at: expect.any(String) } });

    // Two commands in one request: each result shows the order as its own command left it.
    const sku2 = await sellable(5);
    const second = await ok('order.create', { store_id: shop.store_id, customer: { email: 'b@example.com' }, items: [{ sku_id: sku2, qty: 1 }] });
    await ok('order.mark_paid', { order_id: second.order_id });
    const both = await data(
      `mutation($ref: OrderShipmentDispatchInput!, $done: OrderShipmentMarkDeliveredInput!) {
        sent: order_shipment_dispatch(input: $ref) { order { fulfilment_status } shipment { status } }
        done: order_shipment_mark_delivered(input: $done) { order { fulfilment_status } shipment { status } }
      }`,
      { ref: { order_id: second.order_id, shipment_id: second.shipment_id }, done: { order_id: second.order_id, shipment_id: second.shipment_id } },
    );
    expect(both).toEqual({
      sent: { order: { fulfilment_status: 'dispatched' }, shipment: { status: 'dispatched' } },
      done: { order: { fulfilment_status: 'delivered' }, shipment: { status: 'delivered' } },
    });

    const warehouse = await data(`mutation { inventory_warehouse_create(input: { code: "east", name: "East" }) { warehouse_id warehouse { code name } } }`);
    expect(warehouse.inventory_warehouse_create.warehouse).toEqual({ code: 'east', name: 'East' });
    const coupon = await data(
      `mutation { coupon_create(input: { code: "TEN", percent_off: 10 }) { coupon { code percent_off use_count uses { order_id } } } }`,
    );
    expect(coupon.coupon_create.coupon).toEqual({ code: 'TEN', percent_off: 10, use_count: 0, uses: [] });
    const app = await data(
      `mutation { payment_app_install(input: { app_key: "cash", name: "Cash", methods: [{ method: "cash", reservation_window_seconds: 600 }] }) {
        payment_app { app_key installed methods { method reservation_window_seconds } } } }`,
    );
    expect(app.payment_app_install.payment_app).toEqual({ app_key: 'cash', installed: true, methods: [{ method: 'cash', reservation_window_seconds: 600 }] });
    const zone = await data(
      `mutation { shipping_zone_create(input: { name: "Z", postal_code_from: "01000000", postal_code_to: "01999999" }) { shipping_zone { name } } }`,
    );
    expect(zone.shipping_zone_create.shipping_zone).toEqual({ name: 'Z' });
  });
});

describe('connections and tenants', () => {
  it('lists warehouses, coupons, payment apps, zones, methods and shipments of the tenant only; another tenant’s ids resolve to null', async () => {
    const sku = await sellable(5);
    const { order_id, shipment_id } = await place([sku], 1);
    await ok('coupon.create', { code: 'MINE', percent_off: 5 });
    const lists = await data(`{
      warehouses { edges { node { code levels { sku_id on_hand } } } }
      coupons { edges { node { code } } }
      shipments(filter: { order_id: "${order_id}" }) { edges { node { shipment_id status order { order_id } items { qty } warehouse { code } } } totalCount }
      shipping_zones { totalCount }
      shipping_methods { totalCount }
      payment_apps { totalCount }
    }`);
    expect(lists.warehouses.edges).toEqual([{ node: { code: 'default', levels: [{ sku_id: sku, on_hand: 5 }] } }]);
    expect(lists.coupons.edges).toEqual([{ node: { code: 'MINE' } }]);
    expect(lists.shipments).toEqual({
      edges: [{ node: { shipment_id, status: 'pending', order: { order_id }, items: [{ qty: 1 }], warehouse: { code: 'default' } } }],
      totalCount: 1,
    });

    const other = await t.newTenant();
    const theirs = await data(
      `{ orders { totalCount } shipments { totalCount } warehouses { edges { node { levels { sku_id } } } } coupons { totalCount }
         read_internal_order(input: { order_id: "${order_id}" }) { order_id } }`,
      {},
      other.token,
    ).catch((error: Error) => error.message);
    // The single read answers not_found for another tenant's order; the lists hold nothing of ours.
    expect(theirs).toContain('not_found');
    const lists2 = await data(
      `{ orders { totalCount } shipments { totalCount } coupons { totalCount } warehouses { edges { node { levels { sku_id } } } } }`,
      {},
      other.token,
    );
    expect(lists2).toMatchObject({ orders: { totalCount: 0 }, shipments: { totalCount: 0 }, coupons: { totalCount: 0 } });
    // Its own default warehouse comes when its setup event is consumed: whenever it does, it holds none of our stock.
    expect(JSON.stringify(lists2.warehouses)).not.toContain(sku);
    const mutation = await t.graphql(`mutation($id: ID!) { order_mark_paid(input: { order_id: $id }) { order { order_id } } }`, { id: order_id }, other.token);
    expect(mutation.body.data.order_mark_paid).toBeNull();
  });

  it('answers each payment app’s store windows as payment_window_set left them, the tenant’s own only', async () => {
    const second = (await ok('tenant.store.create', { name: 'Second', handle: `second-${shop.store_id.slice(-6).toLowerCase()}` })).id as string;
    const methods = [
      { method: 'pix', reservation_window_seconds: 3600 },
      { method: 'boleto', reservation_window_seconds: null },
    ];
    const { app_id } = await ok('payment.app.install', { app_key: 'manual', name: 'Manual', methods });
    const { app_id: bare } = await ok('payment.app.install', {
      app_key: 'bare',
      name: 'Bare',
      methods: [{ method: 'card', reservation_window_seconds: 1800 }],
    });
    const set = (store_id: string, method: string, reservation_window_seconds: number | null, token = shop.token, app = app_id) =>
      ok('payment.window.set', { store_id, app_id: app, method, reservation_window_seconds }, token);
    await set(shop.store_id, 'pix', 600);
    await set(second, 'boleto', 86_400);
    await set(second, 'pix', 60);
    await set(second, 'pix', null);
    // Another tenant's override of its own app of the same key is never among ours, nor ours among its.
    const other = await t.newTenant();
    const theirs = await ok('payment.app.install', { app_key: 'manual', name: 'Manual', methods }, other.token);
    await set(other.store_id, 'pix', 120, other.token, theirs.app_id);

    const WINDOWS = `{ payment_apps(orderBy: { field: name, direction: ASC }) {
      edges { node { app_id store_windows { store_id method reservation_window_seconds } } } } }`;
    const ours = (await data(WINDOWS)).payment_apps.edges.map((e: any) => e.node);
    expect(ours.map((a: any) => a.app_id)).toEqual([bare, app_id]);
    expect(ours[0].store_windows).toEqual([]);
    // The cleared override is gone; the other two are there, in no promised order.
    expect(ours[1].store_windows).toHaveLength(2);
    expect(ours[1].store_windows).toEqual(
      expect.arrayContaining([
        { store_id: shop.store_id, method: 'pix', reservation_window_seconds: 600 },
        { store_id: second, method: 'boleto', reservation_window_seconds: 86_400 },
      ]),
    );
    // The same through an order's payment attempt.
    const sku_id = await sellable(1);
    const { order_id } = await ok('order.create', {
      store_id: shop.store_id,
      customer: { email: 'buyer@example.com' },
      items: [{ sku_id, qty: 1 }],
      payment: { app_id, method: 'pix' },
    });
    const read = await data(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) {
      payment_attempts { payment_app { app_id store_windows { store_id method reservation_window_seconds } } } } }`,
      { id: order_id },
    );
    expect(read.read_internal_order.payment_attempts).toEqual([{ payment_app: ours[1] }]);
    expect((await data(WINDOWS, {}, other.token)).payment_apps.edges).toEqual([
      { node: { app_id: theirs.app_id, store_windows: [{ store_id: other.store_id, method: 'pix', reservation_window_seconds: 120 }] } },
    ]);
  });

  it('refuses a link whose list the key may not read, naming the scope, beside the rest of the answer', async () => {
    const { token } = await ok('iam.api_key.create', { name: 'orders only', scopes: ['order.read'] });
    const sku = await sellable(2);
    const { order_id } = await place([sku], 1);
    const res = await t.graphql(
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { order_id shipments { warehouse { code } } } }`,
      { id: order_id },
      token,
    );
    expect(res.body.data.read_internal_order.order_id).toBe(order_id);
    expect(res.body.data.read_internal_order.shipments).toEqual([{ warehouse: null }]);
    expect(res.body.errors[0].message).toContain('logistics.read');
  });
});
