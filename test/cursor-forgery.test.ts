import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildSchema, type GraphQLEnumType, type GraphQLInputObjectType, getNamedType } from 'graphql';
import { Client } from 'pg';
import { type SortKeyType, sortKeyFits } from '../platform/src/sort-key';
import { badKey, base64url, type CursorTarget, forgedCursor, goodKey, goodPosition, outOfRangePosition } from './fuzz/cursors';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Forged cursors and feed positions at every list and event feed of the running system (the decoding
 * alone, in breadth: test/unit/connection.test.ts): each is refused validation_failed naming its
 * argument and none reaches PostgreSQL (no `internal`, no 5xx, no statement error logged), while
 * every cursor a list hands out is taken back.
 */

const API = buildSchema(readFileSync(join(__dirname, '..', 'schema', 'api.graphql'), 'utf8'));
const QUERY = API.getQueryType()!.getFields();

interface List {
  name: string;
  orderType: string;
  fields: string[];
}

/** Every connection root field of the API schema (those taking `first` and `after`), with its sort fields. */
const LISTS: List[] = Object.values(QUERY)
  .filter((field) => ['first', 'after'].every((arg) => field.args.some((a) => a.name === arg)))
  .map((field) => {
    const orderBy = getNamedType(field.args.find((a) => a.name === 'orderBy')!.type) as GraphQLInputObjectType;
    const sorts = getNamedType(orderBy.getFields().field.type) as GraphQLEnumType;
    return { name: field.name, orderType: orderBy.name, fields: sorts.getValues().map((v) => v.name) };
  });
const FEEDS = Object.keys(QUERY).filter((name) => name.endsWith('_event_feed'));

/** A sort field's type by its name, as the lists declare them (held against every cursor they hand out, below). */
const typeOf = (field: string): SortKeyType => (field.endsWith('_at') ? 'timestamptz' : field.endsWith('amount') ? 'bigint' : 'text');

type Argument = 'after' | 'before';
const pageOf = (list: List, argument: Argument) =>
  `query($cursor: String, $orderBy: ${list.orderType}) { ${list.name}(${argument === 'after' ? 'first' : 'last'}: 1, ${argument}: $cursor, orderBy: $orderBy) ` +
  '{ edges { cursor } pageInfo { endCursor } } }';

const STATEMENT_ERRORS = /QueryFailedError|invalid input syntax|out of range for type|null character not permitted/;

interface Handed {
  list: List;
  target: CursorTarget;
  cursor: string;
}

let t: TestSystem;
/** The last cursor of a first page of each list in each order with rows. */
const handedOut: Handed[] = [];

async function ask(list: List, target: CursorTarget, argument: Argument, cursor: string) {
  const res = await t.graphql(pageOf(list, argument), { cursor, orderBy: { field: target.field, direction: target.direction } });
  const error = res.body.errors?.[0] as { message: string; extensions: { code: string; field?: string } } | undefined;
  return { status: res.status as number, data: res.body.data?.[list.name], error };
}

/** The answer every forgery must get: validation_failed naming the argument, no page. */
const refusalOf = (answer: Awaited<ReturnType<typeof ask>>) => ({
  status: answer.status < 500 ? 'not 5xx' : answer.status,
  code: answer.error?.extensions.code,
  field: answer.error?.extensions.field,
  page: answer.data ?? null,
});
const refused = (argument: Argument) => ({ status: 'not 5xx', code: 'validation_failed', field: `input.${argument}`, page: null });

const listsAndOrders = fc
  .constantFrom(...LISTS)
  .chain((list) =>
    fc
      .tuple(fc.constantFrom(...list.fields), fc.constantFrom('ASC' as const, 'DESC' as const))
      .map(([field, direction]) => ({ list, target: { list: list.name, field, direction, type: typeOf(field) } })),
  );
const argument = fc.constantFrom<Argument>('after', 'before');
const RUNS = { seed: 20260101, numRuns: 150 };

beforeAll(async () => {
  t = await startTestSystem();
  const { product_id } = await t.ok('catalog.product.create', { title: 'Forged', handle: 'forged' });
  await t.ok('catalog.sku.create', { product_id, code: 'FG-1', amount: 1500, currency: 'EUR' });
  await t.ok('catalog.brand.create', { name: 'Forgers' });
  await t.ok('catalog.category.create', { path: 'forged', name: 'Forged' });
  await t.ok('inventory.warehouse.create', { code: 'forge', name: 'Forge depot' });
});
afterAll(() => t?.stop());

describe('cursors of every list', () => {
  it('walks every connection of the API schema and every event feed', () => {
    expect(LISTS.length).toBeGreaterThanOrEqual(21);
    expect(FEEDS.sort()).toEqual(['catalog_event_feed', 'content_event_feed', 'identity_event_feed', 'orders_event_feed']);
  });

  it('takes back every cursor a list hands out, in every order', async () => {
    const problems: string[] = [];
    for (const list of LISTS) {
      for (const [i, field] of list.fields.entries()) {
        const target: CursorTarget = { list: list.name, field, direction: i % 2 ? 'ASC' : 'DESC', type: typeOf(field) };
        const res = await t.graphql(pageOf(list, 'after'), { orderBy: { field, direction: target.direction } });
        const cursor: string | null = res.body.data?.[list.name]?.pageInfo.endCursor ?? null;
        if (res.body.errors) problems.push(`${list.name} ${field}: ${res.body.errors[0].message}`);
        if (!cursor) continue;
        const key: string = JSON.parse(Buffer.from(cursor, 'base64url').toString())[3];
        if (!sortKeyFits(target.type, key)) problems.push(`${list.name} ${field}: ${key} is no ${target.type}`);
        const next = await ask(list, target, 'after', cursor);
        if (next.error) problems.push(`${list.name} ${field} after its own cursor: ${next.error.message}`);
        handedOut.push({ list, target, cursor });
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(handedOut.map((h) => h.list.name)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(handedOut.map((h) => h.target.type))).toEqual(new Set(['timestamptz', 'text', 'bigint']));
  });

  it('refuses every forged cursor at every list, before any statement', async () => {
    const names = LISTS.map((l) => l.name);
    // Cursors handed out by another list, or by this one in another order.
    const elsewhere = ({ list, field, direction }: CursorTarget) =>
      handedOut.filter((h) => h.list.name !== list || h.target.field !== field || h.target.direction !== direction).map((h) => h.cursor);
    const cases = listsAndOrders.chain(({ list, target }) =>
      fc.tuple(
        fc.constant(list),
        fc.constant(target),
        fc.oneof(
          forgedCursor(target, names).map((f) => f.cursor),
          fc.constantFrom(...elsewhere(target)),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(cases, argument, async ([list, target, cursor], arg) => {
        expect(refusalOf(await ask(list, target, arg, cursor))).toEqual(refused(arg));
      }),
      RUNS,
    );
    expect(t.logs.filter((line) => STATEMENT_ERRORS.test(line))).toEqual([]);
  });

  it('answers a handed-out cursor with a character changed with a page or a refusal, never internal', async () => {
    const mutated = fc.tuple(fc.constantFrom(...handedOut), fc.nat(), fc.constantFrom('A', '_', '-', '9', '')).map(([handed, at, c]) => {
      const i = at % handed.cursor.length;
      return { ...handed, cursor: handed.cursor.slice(0, i) + c + handed.cursor.slice(i + 1) };
    });
    await fc.assert(
      fc.asyncProperty(mutated, argument, async ({ list, target, cursor }, arg) => {
        const answer = await ask(list, target, arg, cursor);
        expect([answer.status < 500, answer.error?.extensions.code ?? 'validation_failed']).toEqual([true, 'validation_failed']);
      }),
      { ...RUNS, numRuns: 60 },
    );
    expect(t.logs.filter((line) => STATEMENT_ERRORS.test(line))).toEqual([]);
  });
});

describe('event feed positions', () => {
  const feed = (name: string, after: string) =>
    t.graphql(`query($after: String) { ${name}(input: { after: $after, limit: 1 }) { position } }`, { after }).then((res) => ({
      status: res.status,
      error: res.body.errors?.[0] as { message: string; extensions: { code: string; field?: string } } | undefined,
    }));

  it('refuses a position past bigint at every feed, naming `after`; takes one within it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FEEDS), outOfRangePosition, goodPosition, async (name, bad, good) => {
        const refusal = await feed(name, bad);
        expect([refusal.status < 500, refusal.error?.extensions.code, refusal.error?.extensions.field, refusal.error?.message.startsWith('after ')]).toEqual([
          true,
          'validation_failed',
          'input.after',
          true,
        ]);
        expect((await feed(name, good)).error).toBeUndefined();
      }),
      { ...RUNS, numRuns: 40 },
    );
    expect(t.logs.filter((line) => STATEMENT_ERRORS.test(line))).toEqual([]);
  });

  it('refuses a Last-Event-ID holding one with 400, naming the header, before the stream opens', async () => {
    const subgraph = fc.constantFrom(...FEEDS.map((name) => name.replace(/_event_feed$/, '')));
    await fc.assert(
      fc.asyncProperty(subgraph, outOfRangePosition, fc.boolean(), async (name, position, inQuery) => {
        const id = base64url(`${name}:${position}`);
        const res = await fetch(`${t.url}/v1/stream/events${inQuery ? `?last_event_id=${id}` : ''}`, {
          headers: { authorization: `Bearer ${t.tenant.token}`, ...(inQuery ? {} : { 'last-event-id': id }) },
          // A stream that opens would never end this request.
          signal: AbortSignal.timeout(5000),
        });
        const body = (await res.json()) as { error: { kind: string; message: string } };
        expect([res.status, body.error.kind, body.error.message]).toEqual([400, 'validation_failed', 'Last-Event-ID is not an id this stream sent']);
      }),
      { ...RUNS, numRuns: 20 },
    );
  });
});

describe('sort keys the decoding takes', () => {
  /** Keys near PostgreSQL's forms: its own, mutated ones, and a timestamp's parts at their edges. */
  const near: Record<Exclude<SortKeyType, 'text'>, fc.Arbitrary<string>> = {
    timestamptz: fc.oneof(
      goodKey.timestamptz,
      badKey.timestamptz,
      fc
        .tuple(
          fc.integer({ min: 0, max: 300000 }),
          fc.integer({ min: 0, max: 13 }),
          fc.integer({ min: 0, max: 32 }),
          fc.integer({ min: 0, max: 17 }),
          fc.boolean(),
        )
        .map(
          ([y, m, d, offset, bc]) =>
            `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')} 23:59:59.999999-${String(offset).padStart(2, '0')}${bc ? ' BC' : ''}`,
        ),
    ),
    bigint: fc.oneof(goodKey.bigint, badKey.bigint),
    numeric: fc.oneof(goodKey.numeric, badKey.numeric),
  };

  it('are keys PostgreSQL takes, and writes back as keys it takes again, in any session time zone', async () => {
    const client = new Client({ connectionString: t.databaseUrl });
    await client.connect();
    try {
      for (const zone of ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Europe/Amsterdam']) {
        await client.query(`SET TimeZone = '${zone}'`);
        for (const type of ['timestamptz', 'bigint', 'numeric'] as const) {
          const taken = fc.sample(near[type], { numRuns: 400, seed: RUNS.seed }).filter((key) => sortKeyFits(type, key));
          const { rows } = await client.query<{ back: string }>(`SELECT k::${type}::text AS back FROM unnest($1::text[]) AS k`, [taken]);
          expect([zone, type, rows.filter(({ back }) => !sortKeyFits(type, back))]).toEqual([zone, type, []]);
        }
      }
    } finally {
      await client.end();
    }
  });
});
