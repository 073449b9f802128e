import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The admin front-end's GraphQL is typed, not a mirror of REST in strings: ids are ID, times
 * DateTime, enumerated values enums, every keyed entity answers `id`; wrong scalar values are refused
 * with the path and the reason. Values on the wire stay what REST answers.
 */
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  description: string | null;
  type: TypeRef;
}
interface FullType {
  name: string;
  kind: string;
  fields: Field[] | null;
  inputFields: Field[] | null;
}

const REF = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
const INTROSPECTION = `{ __schema { types { name kind fields { name description type { ${REF} } } inputFields { name description type { ${REF} } } } } }`;

/** `[ID!]!` → ID. */
const named = (ref: TypeRef): string => (ref.ofType ? named(ref.ofType) : (ref.name ?? ''));
const isList = (ref: TypeRef): boolean => ref.kind === 'LIST' || (!!ref.ofType && isList(ref.ofType));
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

let types: FullType[];
/** Every field and input field of the schema's own types, as `Type.field`. */
let fields: Array<Field & { at: string }>;
beforeAll(async () => {
  const res = await t.graphql(INTROSPECTION);
  types = (res.body.data.__schema.types as FullType[]).filter((type) => !type.name.startsWith('__'));
  fields = types.flatMap((type) => [...(type.fields ?? []), ...(type.inputFields ?? [])].map((f) => ({ ...f, at: `${type.name}.${f.name}` })));
});

describe('the schema is typed', () => {
  it('types every id as ID, every *_ids as [ID!], every time as DateTime', () => {
    const ids = fields.filter((f) => f.name === 'id' || f.name.endsWith('_id'));
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((f) => named(f.type) !== 'ID').map((f) => `${f.at}: ${named(f.type)}`)).toEqual([]);
    const lists = fields.filter((f) => f.name.endsWith('_ids'));
    expect(lists.filter((f) => named(f.type) !== 'ID' || !isList(f.type)).map((f) => f.at)).toEqual([]);
    const times = fields.filter((f) => f.name.endsWith('_at'));
    expect(times.length).toBeGreaterThan(50);
    expect(times.filter((f) => named(f.type) !== 'DateTime').map((f) => `${f.at}: ${named(f.type)}`)).toEqual([]);
  });

  it('makes enumerated values enums, leaving a String only where a value is no GraphQL name', () => {
    const listed = fields.filter((f) => f.description?.includes('one of:'));
    for (const f of listed) {
      const values = f.description!.replace(/.*one of: /, '').split(', ');
      expect({ at: f.at, expressible: values.every((v) => GRAPHQL_NAME.test(v)) }).toEqual({ at: f.at, expressible: false });
    }
    const orderStatus = types.find((type) => type.name === 'OrderStatus');
    expect(orderStatus?.kind).toBe('ENUM');
    const statuses = fields.filter((f) => /^(Order|OrderCancelResult)\.status$/.test(f.at));
    expect(statuses.map((f) => named(f.type))).toEqual(['OrderStatus', 'OrderStatus']);
    const eventStatus = fields.filter((f) => /^(Identity|Catalog|Orders|Content)EventsInput\.status$/.test(f.at)).map((f) => named(f.type));
    expect(eventStatus).toEqual(['EventDeliveryStatus', 'EventDeliveryStatus', 'EventDeliveryStatus', 'EventDeliveryStatus']);
  });

  it('types the results the reference calls open by their declared fields, not JSON', () => {
    const mutation = types.find((type) => type.name === 'Mutation')!;
    for (const name of ['catalog_media_attach', 'extension_connection_set']) {
      const field = mutation.fields!.find((f) => f.name === name)!;
      const type = types.find((candidate) => candidate.name === named(field.type))!;
      expect({ name, kind: type.kind }).toEqual({ name, kind: 'OBJECT' });
    }
  });

  it('gives every keyed entity `id: ID!`', () => {
    const supergraph = readFileSync(join(__dirname, '..', 'supergraph.graphql'), 'utf8');
    const keyed = [...supergraph.matchAll(/^type (\w+)[^{]*@join__type\(graph: \w+, key:/gm)].map((m) => m[1]);
    expect(keyed).toEqual(expect.arrayContaining(['Product', 'Sku', 'Store']));
    for (const name of keyed) {
      const id = types.find((type) => type.name === name)!.fields!.find((f) => f.name === 'id');
      expect({ name, id: id && `${id.type.kind} ${named(id.type)}` }).toEqual({ name, id: 'NON_NULL ID' });
    }
  });

  it('says for a required input that may be null that it must be present', async () => {
    const field = fields.find((f) => f.at === 'CatalogSkuSetPromotionInput.promotional_amount')!;
    expect(field.type.kind).not.toBe('NON_NULL');
    expect(field.description).toContain('required: a value or null');
    const absent = await t.graphql('mutation { catalog_sku_set_promotion(input: { sku_id: "sku_x" }) { sku_id } }');
    expect(absent.body.errors[0].extensions.code).toBe('validation_failed');
    expect(absent.body.errors[0].message).toContain('promotional_amount');
  });
});

describe('wrong scalar values', () => {
  const ORDER = 'mutation($in: OrderCreateInput!) { order_create(input: $in) { order_id } }';
  const order = (qty: unknown) => ({ store_id: t.tenant.store_id, customer: { email: 'a@example.com' }, items: [{ sku_id: 'sku_x', qty }] });

  it('are refused with the path and the reason, before any subgraph', async () => {
    const fraction = await t.graphql(ORDER, { in: order(1.5) });
    expect(fraction.body.data).toBeUndefined();
    expect(fraction.body.errors[0]).toEqual({
      message: 'Variable "$in" got an invalid value at "in.items[0].qty"; SafeInt cannot represent 1.5: not an integer',
      extensions: { code: 'validation_failed' },
    });
    const text = await t.graphql(ORDER, { in: order('2') });
    expect(text.body.errors[0].message).toBe('Variable "$in" got an invalid value at "in.items[0].qty"; SafeInt cannot represent a string: not a number');
    const huge = await t.graphql(ORDER, { in: order(2 ** 60) });
    expect(huge.body.errors[0].message).toContain(`SafeInt cannot represent ${2 ** 60}: outside -9007199254740991 to 9007199254740991`);
    const id = await t.graphql(ORDER, { in: { ...order(1), store_id: true } });
    expect(id.body.errors[0].message).toBe('Variable "$in" got an invalid value at "in.store_id"; ID cannot represent value: true');
  });

  it('refuses a DateTime that is not RFC 3339, in a variable and in a literal', async () => {
    const COUPON = 'mutation($in: CouponCreateInput!) { coupon_create(input: $in) { coupon_id } }';
    const res = await t.graphql(COUPON, { in: { code: 'SPRING', percent_off: 10, expires_at: '2030-01-01 noon' } });
    expect(res.body.errors[0].message).toBe(
      'Variable "$in" got an invalid value at "in.expires_at"; DateTime cannot represent a string: not an RFC 3339 date-time with an offset, such as 2024-05-01T12:00:00Z',
    );
    const literal = await t.graphql('mutation { coupon_create(input: { code: "SPRING", percent_off: 10, expires_at: "tomorrow" }) { coupon_id } }');
    expect(literal.body.errors[0].extensions.code).toBe('validation_failed');
    expect(literal.body.errors[0].message).toContain('not an RFC 3339 date-time');
    const taken = await t.graphql(COUPON, { in: { code: 'SPRING', percent_off: 10, expires_at: '2030-01-01T12:00:00Z' } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.coupon_create.coupon_id).toEqual(expect.any(String));
  });
});

describe('typed values on the wire', () => {
  it('filters orders by an enum and answers enum, id and DateTime values as REST does', async () => {
    const { product_id } = await t.ok('catalog.product.create', { title: 'Typed mug', handle: 'typed-mug', status: 'active' });
    const { sku_id } = await t.ok('catalog.sku.create', { product_id, code: 'TYPED-1', amount: 1500, currency: 'EUR' });
    await t.ok('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
    await t.ok('inventory.adjust', { sku_id, on_hand: 5 });
    const { order_id } = await t.ok('order.create', { store_id: t.tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 1 }] });

    const ORDERS = 'query($s: OrderStatus) { read_internal_orders(input: { status: $s }) { items { order_id status created_at } } }';
    const pending = await t.graphql(ORDERS, { s: 'pending_payment' });
    const rest = await t.read('/internal/orders', { status: 'pending_payment' });
    expect(rest.status).toBe(200);
    const restOrder = rest.body.items.find((o: { order_id: string }) => o.order_id === order_id);
    expect(pending.body.data.read_internal_orders.items).toContainEqual({ order_id, status: 'pending_payment', created_at: restOrder.created_at });
    const paid = await t.graphql(ORDERS, { s: 'paid' });
    expect(paid.body.data.read_internal_orders.items).toEqual([]);
    const inline = await t.graphql('{ read_internal_orders(input: { status: pending_payment }) { items { order_id } } }');
    expect(inline.body.data.read_internal_orders.items).toContainEqual({ order_id });
    const unknown = await t.graphql(ORDERS, { s: 'shipped' });
    expect(unknown.body.errors[0].extensions.code).toBe('validation_failed');

    // Entities answer their key as `id`, across subgraphs too.
    const one = await t.graphql('query($id: ID!) { read_internal_order(input: { order_id: $id }) { store { id store_id } items { sku { id sku_id } } } }', {
      id: order_id,
    });
    expect(one.body.data.read_internal_order).toEqual({
      store: { id: t.tenant.store_id, store_id: t.tenant.store_id },
      items: [{ sku: { id: sku_id, sku_id } }],
    });
    const product = await t.graphql('query($id: ID!) { catalog_product(input: { product_id: $id }) { id product_id status created_at updated_at } }', {
      id: product_id,
    });
    const restProduct = await t.read('/internal/catalog/product', { product_id });
    expect(product.body.data.catalog_product).toEqual({
      id: product_id,
      product_id,
      status: 'active',
      created_at: restProduct.body.created_at,
      updated_at: restProduct.body.updated_at,
    });
  });

  it('answers a store’s times exactly as REST does', async () => {
    const rest = await t.read('/internal/stores');
    const gql = await t.graphql('{ read_internal_stores { items { store_id created_at updated_at } } }');
    expect(gql.body.data.read_internal_stores.items).toEqual(
      rest.body.items.map((s: Record<string, string>) => ({ store_id: s.store_id, created_at: s.created_at, updated_at: s.updated_at })),
    );
  });
});
