import { startTestSystem, type TestSystem } from './helpers';

/** Relay connections of the admin lists, through the gateway: `products` stands for every one (`platform/src/connection.ts`). */
let t: TestSystem;
const created: string[] = [];

const PAGE = `query Page($first: SafeInt, $after: String, $last: SafeInt, $before: String, $filter: ProductFilter, $orderBy: ProductOrder) {
  products(first: $first, after: $after, last: $last, before: $before, filter: $filter, orderBy: $orderBy) {
    edges { cursor node { product_id title status } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    totalCount
  }
}`;

async function page(variables: Record<string, unknown>, token?: string) {
  const res = await t.graphql(PAGE, variables, token);
  if (res.body.errors) return { errors: res.body.errors as { message: string; extensions: { code: string } }[] };
  const connection = res.body.data.products;
  return { ...connection, titles: connection.edges.map((e: { node: { title: string } }) => e.node.title) as string[] };
}

const create = async (title: string) => {
  const { product_id } = await t.ok('catalog.product.create', { title, handle: title.toLowerCase() });
  created.push(product_id);
};

beforeAll(async () => {
  t = await startTestSystem();
  for (const title of ['P1', 'P2', 'P3', 'P4', 'P5']) await create(title);
  const other = await t.newTenant();
  await t.ok('catalog.product.create', { title: 'Foreign', handle: 'foreign' }, other.token);
});
afterAll(() => t.stop());

describe('admin connections', () => {
  it('pages forward by cursor, newest first, with the total of the tenant only', async () => {
    const first = await page({ first: 2 });
    expect(first.titles).toEqual(['P5', 'P4']);
    expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[1].cursor });
    expect(first.totalCount).toBe(5);
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(second.titles).toEqual(['P3', 'P2']);
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    const last = await page({ first: 2, after: second.pageInfo.endCursor });
    expect(last.titles).toEqual(['P1']);
    expect(last.pageInfo.hasNextPage).toBe(false);
  });

  it('keeps its place while rows are inserted ahead of the cursor (an offset would repeat a row)', async () => {
    const first = await page({ first: 2, filter: { q: 'P' } });
    await create('P6');
    const next = await page({ first: 2, after: first.pageInfo.endCursor, filter: { q: 'P' } });
    expect(next.titles).toEqual(['P3', 'P2']);
    expect(next.totalCount).toBe(6);
  });

  it('pages backward with last and before', async () => {
    const tail = await page({ last: 2 });
    expect(tail.titles).toEqual(['P2', 'P1']);
    expect(tail.pageInfo.hasPreviousPage).toBe(true);
    expect(tail.pageInfo.hasNextPage).toBe(false);
    const before = await page({ last: 2, before: tail.pageInfo.startCursor });
    expect(before.titles).toEqual(['P4', 'P3']);
    expect(before.pageInfo.hasNextPage).toBe(true);
  });

  it('orders and filters by typed inputs; null arguments mean absent', async () => {
    const byTitle = await page({ first: 3, after: null, orderBy: { field: 'title', direction: 'ASC' } });
    expect(byTitle.titles).toEqual(['P1', 'P2', 'P3']);
    const rest = await page({ first: 10, after: byTitle.pageInfo.endCursor, orderBy: { field: 'title', direction: 'ASC' } });
    expect(rest.titles).toEqual(['P4', 'P5', 'P6']);
    const drafts = await page({ filter: { status: 'active' } });
    expect(drafts.titles).toEqual([]);
    expect(drafts.totalCount).toBe(0);
  });

  it('refuses a cursor it did not make, one of another order, first with last, and a page over 100', async () => {
    const first = await page({ first: 1 });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ after: 'not-a-cursor' }, /after is not a cursor of this list/],
      [{ after: first.pageInfo.endCursor, orderBy: { field: 'title', direction: 'ASC' } }, /cursor of another order/],
      [{ first: 1, last: 1 }, /first or last, not both/],
      [{ first: 101 }, /first/],
    ];
    for (const [variables, message] of cases) {
      const refused = await page(variables);
      expect(refused.errors?.[0].extensions.code).toBe('validation_failed');
      expect(refused.errors?.[0].message).toMatch(message);
    }
  });

  it('needs the list’s scope', async () => {
    const key = await t.ok('iam.api_key.create', { name: 'orders only', scopes: ['order.read'] });
    const refused = await page({ first: 1 }, key.token);
    expect(refused.errors?.[0].extensions.code).toBe('forbidden');
  });
});
