import { DataSource } from 'typeorm';
import type { CreatedTenant } from '@backoffice/identity';
import { Orders1795500000001 } from '../subgraphs/orders/src/migrations/1795500000001-orders';
import { Shipments1795500000003 } from '../subgraphs/orders/src/migrations/1795500000003-shipments';
import { freshDatabase, mcpClient, startTestSystem, toolErrorBody, type TestSystem } from './helpers';

let t: TestSystem;
/** Each test runs in a tenant of its own: event counts stay exact. */
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
/** The kind a command answered with ('ok' for success). */
const kind = async (name: string, input: unknown) => {
  const res = await call(name, input);
  return res.status === 200 ? 'ok' : `${res.status} ${res.body.error.kind}`;
};
const eventsOf = async (type: string) => {
  await t.system.runtimes.get('orders')!.relay.kick();
  const res = await t.read('/internal/events', { type, limit: '100' }, shop.token);
  return (res.body as { items: any[] }).items.map((e) => e.payload);
};
const read = async (order_id: string) => {
  const res = await t.read('/internal/order', { order_id }, shop.token);
  if (res.status !== 200) throw new Error(`read: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
let seq = 0;
/** A published SKU with stock in the default warehouse. */
const sellable = async (stock: number) => {
  const n = ++seq;
  const { product_id } = await ok('catalog.product.create', { title: `Box ${n}`, handle: `box-${n}`, status: 'active' });
  const { sku_id } = await ok('catalog.sku.create', { product_id, code: `BOX-${n}`, amount: 1000, currency: 'EUR' });
  await ok('catalog.product.publish', { product_id, store_id: shop.store_id });
  await ok('inventory.adjust', { sku_id, on_hand: stock });
  return sku_id as string;
};
/** An order of the given quantities (one SKU each), with its item ids in that order and its first parcel. */
const placed = async (...qtys: number[]) => {
  const skus = await Promise.all(qtys.map((q) => sellable(q)));
  const { order_id } = await ok('order.create', {
    store_id: shop.store_id,
    customer: { email: 'buyer@example.com' },
    items: skus.map((sku_id, i) => ({ sku_id, qty: qtys[i] })),
  });
  const view = await read(order_id);
  return { order_id: order_id as string, items: view.items.map((i: any) => i.order_item_id) as string[], first: view.shipments[0].shipment_id as string, view };
};
/** Per order item, what the parcels hold together; no row at or below zero. */
const held = async (order_id: string) => {
  expect(
    await t.sql(`SELECT * FROM orders.shipment_item s JOIN orders.shipment p ON p.id = s.shipment_id WHERE p.order_id = $1 AND s.qty <= 0`, [order_id]),
  ).toEqual([]);
  const rows = await t.sql<{ order_item_id: string; held: number; qty: number }>(
    `SELECT i.id AS order_item_id, coalesce(sum(s.qty), 0)::int AS held, i.qty FROM orders.order_item i LEFT JOIN orders.shipment_item s ON s.order_item_id = i.id
     WHERE i.order_id = $1 GROUP BY i.id, i.qty`,
    [order_id],
  );
  for (const row of rows) expect([row.order_item_id, row.held]).toEqual([row.order_item_id, row.qty]);
};

describe('parcels', () => {
  it("an order is created with one parcel holding all its items, not dispatched, at its hold's warehouse", async () => {
    const { order_id, items, view } = await placed(3, 1);
    expect(view.shipments).toEqual([
      {
        shipment_id: expect.stringMatching(/^shp_/),
        status: 'pending',
        warehouse_id: view.reservation.warehouse_id,
        estimated_delivery_date: null,
        carrier: null,
        tracking_code: null,
        tracking_url: null,
        items: [
          { order_item_id: items[0], sku_id: view.items[0].sku_id, qty: 3 },
          { order_item_id: items[1], sku_id: view.items[1].sku_id, qty: 1 },
        ],
        created_at: expect.any(String),
        dispatched_at: null,
        delivered_at: null,
      },
    ]);
    expect(view.documents).toEqual([]);
    await held(order_id);
  });

  it('splits quantities into a new parcel; more than the source holds is exceeds_remaining with both numbers, on every surface', async () => {
    const { order_id, items, first } = await placed(5, 2);
    const split = await ok('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 2 }] });
    expect(split).toEqual({ order_id, shipment_id: expect.stringMatching(/^shp_/), estimated_delivery_date: null });
    let view = await read(order_id);
    expect(view.shipments.map((s: any) => [s.shipment_id, s.items.map((i: any) => i.qty)])).toEqual([
      [first, [3, 2]],
      [split.shipment_id, [2]],
    ]);
    expect(view.shipments[1]).toMatchObject({ status: 'pending', warehouse_id: view.shipments[0].warehouse_id });
    await held(order_id);

    const tooMuch = await call('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 5 }] });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toEqual({
      error: { kind: 'exceeds_remaining', message: expect.any(String), requested: 5, remaining: 3, order_item_id: items[0], shipment_id: first },
    });
    // An item the source does not hold at all: 0 remaining.
    const none = await call('order.shipment.create', { order_id, from_shipment_id: split.shipment_id, items: [{ order_item_id: items[1], qty: 1 }] });
    expect(none.body.error).toMatchObject({ kind: 'exceeds_remaining', requested: 1, remaining: 0 });

    const gql = await t.graphql(
      `mutation($input: OrderShipmentCreateInput!) { order_shipment_create(input: $input) { shipment_id } }`,
      { input: { order_id, from_shipment_id: first, items: [{ order_item_id: items[1], qty: 7 }] } },
      shop.token,
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'exceeds_remaining', requested: 7, remaining: 2 });
    const mcp = await mcpClient(t.url, shop.token);
    try {
      const result = await mcp.callTool({
        name: 'order.shipment.create',
        arguments: { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 4 }] },
      });
      expect(result.isError).toBe(true);
      expect(toolErrorBody(result)).toEqual({
        error: { kind: 'exceeds_remaining', message: expect.any(String), requested: 4, remaining: 3, order_item_id: items[0], shipment_id: first },
      });
    } finally {
      await mcp.close();
    }

    // Two parcels not yet dispatched: the source must be named.
    const ambiguous = await call('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 1 }] });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error).toMatchObject({ kind: 'validation_failed', message: expect.stringContaining('from_shipment_id') });

    // Everything left in the first parcel moves: it is deleted.
    const rest = await ok('order.shipment.create', {
      order_id,
      from_shipment_id: first,
      items: [
        { order_item_id: items[0], qty: 3 },
        { order_item_id: items[1], qty: 2 },
      ],
    });
    view = await read(order_id);
    expect(view.shipments.map((s: any) => s.shipment_id)).toEqual([split.shipment_id, rest.shipment_id]);
    expect(await kind('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1 }] })).toBe('409 conflict');
    await held(order_id);

    const created = await eventsOf('shipment.created');
    expect(created).toEqual(
      [
        expect.objectContaining({
          order_id,
          shipment_id: split.shipment_id,
          from_shipment_id: first,
          from_shipment_deleted: false,
          items: [{ order_item_id: items[0], qty: 2 }],
        }),
        expect.objectContaining({
          order_id,
          shipment_id: rest.shipment_id,
          from_shipment_id: first,
          from_shipment_deleted: true,
          estimated_delivery_date: null,
        }),
      ].reverse(),
    );
  });

  it("asking for far more than any parcel holds (past an item's 1000) is still exceeds_remaining with both numbers, up to the 1e9 bound", async () => {
    const { order_id, items, first } = await placed(3);
    await ok('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1 }] });
    const huge = await call('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 5000 }] });
    expect([huge.status, huge.body]).toEqual([
      409,
      { error: { kind: 'exceeds_remaining', message: expect.any(String), requested: 5000, remaining: 2, order_item_id: items[0], shipment_id: first } },
    ]);
    const atBound = await call('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1_000_000_000 }] });
    expect([atBound.status, atBound.body.error]).toEqual([409, expect.objectContaining({ kind: 'exceeds_remaining', requested: 1_000_000_000, remaining: 2 })]);
    // Every input stays bounded: past 1e9 is validation_failed.
    expect(await kind('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1_000_000_001 }] })).toBe(
      '400 validation_failed',
    );
    await held(order_id);
    expect((await read(order_id)).shipments.find((s: any) => s.shipment_id === first).items[0].qty).toBe(2);
  });

  it("refuses splits with the right kinds: other orders' items and parcels, unknown warehouses, bad input", async () => {
    const { order_id, items, first } = await placed(4);
    const other = await placed(1);
    const line = [{ order_item_id: items[0], qty: 1 }];
    expect(await kind('order.shipment.create', { order_id, items: [{ order_item_id: other.items[0], qty: 1 }] })).toBe('409 conflict');
    expect(await kind('order.shipment.create', { order_id, from_shipment_id: other.first, items: line })).toBe('409 conflict');
    expect(await kind('order.shipment.create', { order_id, warehouse_id: 'whs_nope', items: line })).toBe('409 conflict');
    expect(await kind('order.shipment.create', { order_id: 'ord_nope', items: line })).toBe('409 conflict');
    expect(await kind('order.shipment.create', { order_id, items: [...line, ...line] })).toBe('400 validation_failed');
    expect(await kind('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 0 }] })).toBe('400 validation_failed');
    expect(await kind('order.shipment.create', { order_id, items: [] })).toBe('400 validation_failed');
    // Another tenant's warehouse is unknown here.
    const stranger = await t.newTenant();
    const { warehouse_id: theirs } = await ok('inventory.warehouse.create', { code: 'far', name: 'Far' }, stranger.token);
    expect(await kind('order.shipment.create', { order_id, warehouse_id: theirs, items: line })).toBe('409 conflict');
    // Another tenant cannot touch this order.
    expect((await call('order.shipment.create', { order_id, items: line }, stranger.token)).status).toBe(409);

    const { warehouse_id } = await ok('inventory.warehouse.create', { code: 'north', name: 'North' });
    const moved = await ok('order.shipment.create', { order_id, warehouse_id, items: line });
    const view = await read(order_id);
    expect(view.shipments.find((s: any) => s.shipment_id === moved.shipment_id).warehouse_id).toBe(warehouse_id);
    expect(view.shipments.find((s: any) => s.shipment_id === first).items[0].qty).toBe(3);
    await held(order_id);
  });

  it('20 concurrent splits of one parcel never move more than it holds', async () => {
    const { order_id, items, first } = await placed(25, 1);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 2 }] })),
    );
    const succeeded = results.filter((r) => r.status === 200);
    expect(succeeded).toHaveLength(12);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.error).toMatchObject({ kind: 'exceeds_remaining', requested: 2, remaining: 1 });
    await held(order_id);
    const view = await read(order_id);
    expect(view.shipments).toHaveLength(13);
    expect(view.shipments.find((s: any) => s.shipment_id === first).items.map((i: any) => i.qty)).toEqual([1, 1]);
  });

  it('20 concurrent splits emptying a parcel: every unit moves once and the empty source is deleted', async () => {
    const { order_id, items, first } = await placed(20);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1 }] })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    await held(order_id);
    const view = await read(order_id);
    expect(view.shipments).toHaveLength(20);
    expect(view.shipments.map((s: any) => s.shipment_id)).not.toContain(first);
  });

  it('concurrent splits naming no source: the first takes the only parcel, the others are asked to name one', async () => {
    const { order_id, items } = await placed(10);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => kind('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 1 }] })),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r !== 'ok')).toEqual(Array(9).fill('400 validation_failed'));
    await held(order_id);
  });
});

describe('dispatch and delivery', () => {
  it('moves pending → dispatched → delivered, repeats change nothing, never back, and a dispatched parcel cannot be split', async () => {
    const { order_id, items, first } = await placed(3);
    const ref = { order_id, shipment_id: first };
    // Unpaid: goods do not leave.
    expect(await kind('order.shipment.dispatch', ref)).toBe('409 conflict');
    expect(await kind('order.shipment.mark_delivered', ref)).toBe('409 conflict');
    await ok('order.mark_paid', { order_id });
    expect(await kind('order.shipment.mark_delivered', ref)).toBe('409 conflict');
    expect(await ok('order.shipment.dispatch', ref)).toEqual({ ...ref, status: 'dispatched' });
    expect(await ok('order.shipment.dispatch', ref)).toEqual({ ...ref, status: 'dispatched' });
    expect(await kind('order.shipment.create', { order_id, from_shipment_id: first, items: [{ order_item_id: items[0], qty: 1 }] })).toBe('409 conflict');
    // No parcel left to split from without naming one.
    expect(await kind('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 1 }] })).toBe('409 conflict');
    expect(await ok('order.shipment.mark_delivered', ref)).toEqual({ ...ref, status: 'delivered' });
    expect(await ok('order.shipment.mark_delivered', ref)).toEqual({ ...ref, status: 'delivered' });
    expect(await kind('order.shipment.dispatch', ref)).toBe('409 conflict');
    const view = await read(order_id);
    expect(view.shipments[0]).toMatchObject({ status: 'delivered', dispatched_at: expect.any(String), delivered_at: expect.any(String) });
    const updated = await eventsOf('order.shipment.updated');
    expect(updated.map((p) => [p.shipment_id, p.status, p.changed])).toEqual([
      [first, 'delivered', ['status']],
      [first, 'dispatched', ['status']],
    ]);
    expect(await kind('order.shipment.dispatch', { order_id, shipment_id: 'shp_nope' })).toBe('409 conflict');
  });

  it('a cancelled order is not dispatched, split or tracked', async () => {
    const { order_id, items, first } = await placed(2);
    await ok('order.cancel', { order_id });
    expect(await kind('order.shipment.dispatch', { order_id, shipment_id: first })).toBe('409 conflict');
    expect(await kind('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 1 }] })).toBe('409 conflict');
    expect(await kind('order.shipment.set_tracking', { order_id, tracking_code: 'X1' })).toBe('409 conflict');
  });
});

describe('tracking', () => {
  it('saves tracking; omitted fields keep their value; the same tracking again emits nothing', async () => {
    const { order_id, items, first } = await placed(2);
    const tracking = { carrier: 'Correios', tracking_code: 'BR123', tracking_url: 'https://track.example.com/BR123' };
    expect(await ok('order.shipment.set_tracking', { order_id, ...tracking })).toEqual({ order_id, shipment_id: first });
    expect(await ok('order.shipment.set_tracking', { order_id, shipment_id: first, ...tracking })).toEqual({ order_id, shipment_id: first });
    expect(await ok('order.shipment.set_tracking', { order_id, carrier: 'Correios' })).toEqual({ order_id, shipment_id: first });
    expect(await ok('order.shipment.set_tracking', { order_id })).toEqual({ order_id, shipment_id: first });
    expect(await eventsOf('order.shipment.updated')).toEqual([{ order_id, shipment_id: first, status: 'pending', changed: ['tracking'], ...tracking }]);

    await ok('order.shipment.set_tracking', { order_id, tracking_code: 'BR124' });
    expect((await read(order_id)).shipments[0]).toMatchObject({ ...tracking, tracking_code: 'BR124' });
    expect((await eventsOf('order.shipment.updated')).map((p) => p.tracking_code)).toEqual(['BR124', 'BR123']);

    for (const url of ['javascript:alert(1)', 'ftp://files.example.com/x', 'not a url', 'data:text/html,hi']) {
      expect(await kind('order.shipment.set_tracking', { order_id, tracking_url: url })).toBe('400 validation_failed');
    }
    expect(await kind('order.shipment.set_tracking', { order_id, tracking_code: 'x'.repeat(201) })).toBe('400 validation_failed');
    expect(await kind('order.shipment.set_tracking', { order_id, tracking_code: '' })).toBe('400 validation_failed');

    // Several parcels: shipment_id is required.
    const second = await ok('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 1 }] });
    const several = await call('order.shipment.set_tracking', { order_id, tracking_code: 'BR125' });
    expect(several.status).toBe(400);
    expect(several.body.error).toMatchObject({ kind: 'validation_failed', message: expect.stringContaining('shipment_id') });
    await ok('order.shipment.set_tracking', { order_id, shipment_id: second.shipment_id, tracking_code: 'BR125' });
    const view = await read(order_id);
    expect(view.shipments.map((s: any) => s.tracking_code)).toEqual(['BR124', 'BR125']);
    expect(await kind('order.shipment.set_tracking', { order_id, shipment_id: (await placed(1)).first, tracking_code: 'Z' })).toBe('409 conflict');
    // Tracking is kept after shipping too.
    await ok('order.mark_paid', { order_id });
    await ok('order.shipment.dispatch', { order_id, shipment_id: first });
    await ok('order.shipment.set_tracking', { order_id, shipment_id: first, tracking_url: 'http://track.example.com/x' });
  });
});

describe('documents', () => {
  it('attaches once: the same document again is attached: false with the same id and no event; refusals with the right kinds', async () => {
    const { order_id, items, first } = await placed(2);
    const invoice = { order_id, kind: 'fiscal_invoice', file_url: 'https://files.example.com/nf-1.pdf', name: 'NF 1', metadata: { number: 1 } };
    const made = await ok('order.document.attach', invoice);
    expect(made).toEqual({ document_id: expect.stringMatching(/^doc_/), order_id, kind: 'fiscal_invoice', attached: true });
    expect(await ok('order.document.attach', { ...invoice, name: 'renamed' })).toEqual({ ...made, attached: false });
    // Another kind, another shipment, an asset: other documents.
    const slip = await ok('order.document.attach', { ...invoice, kind: 'packing_slip' });
    const label = await ok('order.document.attach', { order_id, kind: 'shipping_label', asset_id: 'ast_1', shipment_id: first });
    expect(slip.attached && label.attached).toBe(true);
    expect(await ok('order.document.attach', { order_id, kind: 'shipping_label', asset_id: 'ast_1', shipment_id: first })).toEqual({
      ...label,
      attached: false,
    });
    expect((await ok('order.document.attach', { order_id, kind: 'shipping_label', asset_id: 'ast_1' })).attached).toBe(true);

    expect(await kind('order.document.attach', { order_id, kind: 'other' })).toBe('400 validation_failed');
    expect(await kind('order.document.attach', { order_id, kind: 'other', file_url: 'https://x.example.com/a', asset_id: 'ast_2' })).toBe(
      '400 validation_failed',
    );
    expect(await kind('order.document.attach', { order_id, kind: 'other', file_url: 'javascript:alert(1)' })).toBe('400 validation_failed');
    expect(await kind('order.document.attach', { order_id, kind: 'receipt', asset_id: 'ast_2' })).toBe('400 validation_failed');
    expect(await kind('order.document.attach', { order_id, kind: 'other', asset_id: 'ast_2', shipment_id: (await placed(1)).first })).toBe('409 conflict');
    expect(await kind('order.document.attach', { order_id, kind: 'other', asset_id: 'ast_2', shipment_id: 'shp_nope' })).toBe('409 conflict');
    expect(await kind('order.document.attach', { order_id: 'ord_nope', kind: 'other', asset_id: 'ast_2' })).toBe('409 conflict');

    const attached = await eventsOf('order.document.attached');
    expect(attached).toHaveLength(4);
    expect(attached.find((p) => p.document_id === made.document_id)).toEqual({
      document_id: made.document_id,
      order_id,
      kind: 'fiscal_invoice',
      shipment_id: null,
      name: 'NF 1',
      file_url: invoice.file_url,
      asset_id: null,
    });
    const view = await read(order_id);
    expect(view.documents[0]).toEqual({
      document_id: made.document_id,
      kind: 'fiscal_invoice',
      shipment_id: null,
      name: 'NF 1',
      file_url: invoice.file_url,
      asset_id: null,
      metadata: { number: 1 },
      created_at: expect.any(String),
    });
    expect(view.documents.map((d: any) => d.document_id)).toEqual([made.document_id, slip.document_id, label.document_id, expect.any(String)]);

    // A split that empties a parcel named by documents deletes it and moves them to the new parcel.
    const split = await ok('order.shipment.create', { order_id, items: [{ order_item_id: items[0], qty: 2 }] });
    const after = await read(order_id);
    expect(after.shipments.map((p: any) => p.shipment_id)).toEqual([split.shipment_id]);
    expect(after.documents.find((d: any) => d.document_id === label.document_id).shipment_id).toBe(split.shipment_id);
  });

  it('concurrent attaches of the same document attach it once', async () => {
    const { order_id } = await placed(1);
    const input = { order_id, kind: 'delivery_proof', file_url: 'https://files.example.com/proof.jpg' };
    const results = await Promise.all(Array.from({ length: 10 }, () => ok('order.document.attach', input)));
    expect(results.filter((r) => r.attached)).toHaveLength(1);
    expect(new Set(results.map((r) => r.document_id)).size).toBe(1);
    expect(await eventsOf('order.document.attached')).toHaveLength(1);
  });
});

describe('order read over GraphQL', () => {
  it('shows parcels and documents', async () => {
    const { order_id, first } = await placed(1);
    await ok('order.document.attach', { order_id, kind: 'other', asset_id: 'ast_9', shipment_id: first });
    const res = await t.graphql(
      `query($input: ReadInternalOrderInput!) { read_internal_order(input: $input) { shipments { shipment_id status items { qty } } documents { kind shipment_id asset_id } } }`,
      { input: { order_id } },
      shop.token,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.read_internal_order).toEqual({
      shipments: [{ shipment_id: first, status: 'pending', items: [{ qty: 1 }] }],
      documents: [{ kind: 'other', shipment_id: first, asset_id: 'ast_9' }],
    });
  });
});

describe('the shipments migration', () => {
  it("gives every order taken before it one parcel with all its items, not dispatched, at its hold's warehouse", async () => {
    const database = await freshDatabase();
    const source = new DataSource({ type: 'postgres', url: database.url });
    await source.initialize();
    const q = source.createQueryRunner();
    try {
      await q.query('CREATE SCHEMA orders');
      await new Orders1795500000001().up(q);
      await q.query(`
        INSERT INTO orders.warehouse (id, tenant_id, code, name) VALUES ('whs_A', 'ten_1', 'default', 'Default'), ('whs_B', 'ten_1', 'b', 'B');
        INSERT INTO orders.reservation (id, tenant_id, warehouse_id, status) VALUES ('res_1', 'ten_1', 'whs_B', 'committed'), ('res_2', 'ten_1', 'whs_A', 'released');
        INSERT INTO orders."order" (id, tenant_id, store_id, status, currency, subtotal_amount, discount_amount, total_amount, customer, reservation_id)
        VALUES ('ord_01OLD1', 'ten_1', 'sto_1', 'paid', 'EUR', 0, 0, 0, '{}', 'res_1'), ('ord_01OLD2', 'ten_1', 'sto_1', 'cancelled', 'EUR', 0, 0, 0, '{}', 'res_2');
        INSERT INTO orders.order_item (id, order_id, tenant_id, sku_id, product_id, code, title, qty, unit_amount, line_amount, position)
        VALUES ('oit_1', 'ord_01OLD1', 'ten_1', 'sku_1', 'prd_1', 'A', 'A', 3, 0, 0, 0), ('oit_2', 'ord_01OLD1', 'ten_1', 'sku_2', 'prd_1', 'B', 'B', 1, 0, 0, 1),
               ('oit_3', 'ord_01OLD2', 'ten_1', 'sku_1', 'prd_1', 'A', 'A', 2, 0, 0, 0)`);
      await new Shipments1795500000003().up(q);
      expect(await q.query(`SELECT id, order_id, warehouse_id, status, estimated_delivery_date FROM orders.shipment ORDER BY id`)).toEqual([
        { id: 'shp_01OLD1', order_id: 'ord_01OLD1', warehouse_id: 'whs_B', status: 'pending', estimated_delivery_date: null },
        { id: 'shp_01OLD2', order_id: 'ord_01OLD2', warehouse_id: 'whs_A', status: 'pending', estimated_delivery_date: null },
      ]);
      expect(await q.query(`SELECT shipment_id, order_item_id, qty FROM orders.shipment_item ORDER BY order_item_id`)).toEqual([
        { shipment_id: 'shp_01OLD1', order_item_id: 'oit_1', qty: 3 },
        { shipment_id: 'shp_01OLD1', order_item_id: 'oit_2', qty: 1 },
        { shipment_id: 'shp_01OLD2', order_item_id: 'oit_3', qty: 2 },
      ]);
      await new Shipments1795500000003().down(q);
    } finally {
      await q.release();
      await source.destroy();
      await database.drop();
    }
  });
});
