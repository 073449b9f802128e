import fc from 'fast-check';
import { decodeCursor, encodeCursor, type CursorOrder } from '../../platform/src/connection';
import { AppError } from '../../platform/src/errors';
import { feedPositionInput, isFeedPosition } from '../../platform/src/event-feed';
import { t } from '../../platform/src/schema';
import { type SortKeyType, sortKeyFits } from '../../platform/src/sort-key';
import { validate } from '../../platform/src/validation';
import { decodePosition, encodePosition } from '../../gateway/src/stream-position';
import { badKey, base64url, cursorOf, forgedCursor, goodId, goodKey, goodPosition, INT8_MAX, outOfRangePosition } from '../fuzz/cursors';

/** Connection cursors and feed positions, decoded without the system: what a forged one gets. */

const TYPES: SortKeyType[] = ['timestamptz', 'bigint', 'numeric', 'text'];
const LISTS = ['products', 'skus', 'orders', 'stores'];
const RUNS = { numRuns: 300, seed: 20260101 };

const order = fc.record({
  list: fc.constantFrom(...LISTS),
  field: fc.constantFrom('created_at', 'title', 'amount'),
  direction: fc.constantFrom('ASC' as const, 'DESC' as const),
  type: fc.constantFrom(...TYPES),
});
const argument = fc.constantFrom('after' as const, 'before' as const);

/** The refusal every bad cursor gets: validation_failed naming the argument. */
function refusalOf(decode: () => unknown): AppError {
  try {
    decode();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('decoded');
}

const products: CursorOrder = { list: 'products', field: 'created_at', direction: 'DESC', type: 'timestamptz' };

describe('connection cursors', () => {
  it('round-trip the list, the order, the sort value and the id', () => {
    const cursor = encodeCursor(products, '2026-11-25 10:00:00.123456+00', 'prd_1');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, products, 'after')).toEqual({ key: '2026-11-25 10:00:00.123456+00', id: 'prd_1' });
  });

  it('round-trip every sort key PostgreSQL writes of their type', () => {
    const keyed = order.chain((o) => fc.tuple(fc.constant(o), goodKey[o.type], goodId));
    fc.assert(
      fc.property(keyed, argument, ([o, key, id], arg) => {
        expect(decodeCursor(encodeCursor(o, key, id), o, arg)).toEqual({ key, id });
      }),
      RUNS,
    );
  });

  it('refuse what is not theirs, naming the argument', () => {
    expect(() => decodeCursor('bm9wZQ', products, 'before')).toThrow('before is not a cursor of this list');
    expect(() => decodeCursor(cursorOf([1, 2, 3, 4, 5]), products, 'after')).toThrow('not a cursor');
    expect(() => decodeCursor(encodeCursor({ ...products, direction: 'ASC' }, '2026-01-01 00:00:00+00', 'p'), products, 'after')).toThrow(
      'after is a cursor of another order, not of created_at DESC',
    );
    expect(() => decodeCursor(encodeCursor({ ...products, list: 'skus' }, '2026-01-01 00:00:00+00', 'p'), products, 'after')).toThrow(
      'after is not a cursor of this list',
    );
    // The earlier form (no list) is refused: clients keep no cursor for long.
    expect(() => decodeCursor(cursorOf(['created_at', 'DESC', '2026-01-01 00:00:00+00', 'p']), products, 'after')).toThrow('not a cursor');
  });

  it('refuse every forged cursor before any statement: validation_failed naming the argument', () => {
    const forged = order.chain((o) => fc.tuple(fc.constant(o), forgedCursor(o, LISTS)));
    fc.assert(
      fc.property(forged, argument, ([o, { cursor }], arg) => {
        const refusal = refusalOf(() => decodeCursor(cursor, o, arg));
        expect([refusal.kind, refusal.field, refusal.message.startsWith(`${arg} `)]).toEqual(['validation_failed', arg, true]);
      }),
      { ...RUNS, numRuns: 2000 },
    );
  });

  it('answer any text at all with a key of the sort’s type or a validation_failed', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 600 }),
      fc.uint8Array({ maxLength: 450 }).map((b) => Buffer.from(b).toString('base64url')),
    );
    fc.assert(
      fc.property(order, text, argument, (o, cursor, arg) => {
        try {
          const { key, id } = decodeCursor(cursor, o, arg);
          expect([sortKeyFits(o.type, key), id.length > 0]).toEqual([true, true]);
        } catch (error) {
          expect([(error as AppError).kind, (error as AppError).field]).toEqual(['validation_failed', arg]);
        }
      }),
      { ...RUNS, numRuns: 1000 },
    );
  });
});

describe('sort keys', () => {
  it('take a bigint exactly when it is PostgreSQL’s own form within int8', () => {
    const integer = fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n });
    fc.assert(
      fc.property(integer, (n) => {
        expect(sortKeyFits('bigint', String(n))).toBe(n >= -INT8_MAX - 1n && n <= INT8_MAX);
      }),
      RUNS,
    );
    expect(['9223372036854775807', '-9223372036854775808', '0'].map((key) => sortKeyFits('bigint', key))).toEqual([true, true, true]);
  });

  it('take timestamps of real dates within PostgreSQL’s range, in its own form', () => {
    const taken = ['2024-02-29 23:59:59.999999+00', '2000-02-29 00:00:00-15:59:59', '0005-02-29 00:00:00+00 BC', '294275-12-31 23:59:59+15', 'infinity'];
    expect(taken.filter((key) => !sortKeyFits('timestamptz', key))).toEqual([]);
  });

  it('refuse each type’s impossible keys (U+0000 and lone surrogates of a text key: with the whole cursor, above)', () => {
    for (const type of ['timestamptz', 'bigint', 'numeric'] as const) {
      fc.assert(
        fc.property(badKey[type], (key) => {
          expect(sortKeyFits(type, key)).toBe(false);
        }),
        RUNS,
      );
    }
    expect(sortKeyFits('text', 'x'.repeat(451))).toBe(false);
  });
});

describe('event feed positions', () => {
  const feedInput = t.object({ after: feedPositionInput('a position') });

  it('take `<tx>.<seq>` within bigint, the largest included', () => {
    fc.assert(
      fc.property(goodPosition, (position) => {
        expect(isFeedPosition(position)).toBe(true);
        expect(validate(feedInput, { after: position })).toEqual({ after: position });
      }),
      RUNS,
    );
    expect(isFeedPosition(`${INT8_MAX}.${INT8_MAX}`)).toBe(true);
  });

  it('refuse a number past bigint in the input’s validation, naming `after`', () => {
    fc.assert(
      fc.property(outOfRangePosition, (position) => {
        expect(isFeedPosition(position)).toBe(false);
        const refusal = refusalOf(() => validate(feedInput, { after: position }));
        expect([refusal.kind, refusal.reason, refusal.field, refusal.message]).toEqual([
          'validation_failed',
          'out_of_range',
          'after',
          `after must hold numbers of at most ${INT8_MAX} (a bigint)`,
        ]);
      }),
      RUNS,
    );
  });

  it('refuse a Last-Event-ID holding one, naming the header', () => {
    const subgraphs = ['identity', 'catalog'];
    fc.assert(
      fc.property(goodPosition, outOfRangePosition, fc.constantFrom(...subgraphs), (good, bad, subgraph) => {
        const id = encodePosition({ identity: good, [subgraph]: bad });
        const refusal = refusalOf(() => decodePosition(id, subgraphs));
        expect([refusal.kind, refusal.message]).toEqual(['validation_failed', 'Last-Event-ID is not an id this stream sent']);
        expect(decodePosition(encodePosition({ identity: good }), subgraphs)).toEqual({ identity: good });
      }),
      RUNS,
    );
    expect(() => decodePosition(base64url('identity:9999999999999999999.1'), subgraphs)).toThrow('Last-Event-ID');
  });
});
