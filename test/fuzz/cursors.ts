/**
 * Forged connection cursors and feed positions (platform/src/connection.ts, platform/src/event-feed.ts):
 * what a client may send in place of one the system handed out. Each forgery is wrong for the list it
 * is aimed at whatever else it holds, so every one must be refused; the unit test throws them at the
 * decoding, test/cursor-forgery.test.ts at every list and event feed of the running system.
 */
import fc from 'fast-check';
import type { SortKeyType } from '../../platform/src/sort-key';

/** The list and order a forgery imitates a cursor of. */
export interface CursorTarget {
  list: string;
  field: string;
  direction: 'ASC' | 'DESC';
  type: SortKeyType;
}

export const INT8_MAX = 9223372036854775807n;

export const base64url = (text: string) => Buffer.from(text).toString('base64url');
/** A cursor of the current form: list, sort field, direction, sort key, id. */
export const cursorOf = (parts: readonly unknown[]) => base64url(JSON.stringify(parts));

const two = (n: number) => String(n).padStart(2, '0');

/** A timestamptz as PostgreSQL writes it, any year of its range, any offset it takes. */
const goodTimestamp = fc
  .record({
    year: fc.oneof(fc.integer({ min: 1970, max: 2100 }), fc.integer({ min: 1, max: 294275 })),
    bc: fc.boolean(),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    time: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,6}$/), { nil: '' }),
    offset: fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 15 }), fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined })),
  })
  .map(({ year, bc, month, day, time, fraction, offset }) => {
    const era = bc && year <= 4713 ? ' BC' : '';
    const [sign, hours, minutes] = offset;
    return (
      `${String(year).padStart(4, '0')}-${two(month)}-${two(day)} ${time.map(two).join(':')}${fraction ? `.${fraction}` : ''}` +
      `${sign}${two(hours)}${minutes === undefined ? '' : `:${two(minutes)}`}${era}`
    );
  });

/** Sort keys each type reads back, as PostgreSQL writes them. */
export const goodKey: Record<SortKeyType, fc.Arbitrary<string>> = {
  timestamptz: fc.oneof({ weight: 9, arbitrary: goodTimestamp }, { weight: 1, arbitrary: fc.constantFrom('infinity', '-infinity') }),
  bigint: fc.bigInt({ min: -INT8_MAX - 1n, max: INT8_MAX }).map(String),
  numeric: fc
    .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: '' }))
    .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : String(whole))),
  text: fc.string({ maxLength: 80, unit: 'grapheme' }).filter((key) => !key.includes('\u0000')),
};

export const goodId = fc.stringMatching(/^[a-z]{3}_[0-9A-Z]{26}$/);

const DATE_TIME = /^([0-9]+)-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})/;
/** Which part of DATE_TIME (1: year) and values beyond its range. */
const PAST_RANGE: [number, number, number][] = [
  [2, 13, 99],
  [2, 0, 0],
  [3, 32, 99],
  [3, 0, 0],
  [4, 24, 99],
  [5, 60, 99],
  [6, 60, 99],
];

/** A timestamp with one part pushed out of its range, a letter in it, or a form PostgreSQL would not write. */
const badTimestamp = fc.oneof(
  fc.tuple(goodTimestamp, fc.constantFrom(...PAST_RANGE)).chain(([key, [part, min, max]]) =>
    fc.integer({ min, max }).map((value) => {
      const parts = DATE_TIME.exec(key)!;
      const [year, month, day, hour, minute, second] = parts.slice(1).map((text, i) => (i + 1 === part ? two(value) : text));
      return `${year}-${month}-${day} ${hour}:${minute}:${second}${key.slice(parts[0].length)}`;
    }),
  ),
  fc.tuple(goodTimestamp, fc.nat()).map(([key, at]) => `${key.slice(0, at % (key.length + 1))}x${key.slice(at % (key.length + 1))}`),
  fc.constantFrom(
    '',
    'garbage',
    '12345',
    'NaN',
    'now',
    'epoch',
    'today',
    '2024-02-30 00:00:00+00',
    '2023-02-29 00:00:00+00',
    '2100-02-29 00:00:00+00',
    '2024-04-31 00:00:00+00',
    '2024-01-01 24:00:00+00',
    '2024-01-01 23:59:60+00',
    '2024-01-01 00:00:00+16',
    '2024-01-01 00:00:00+99',
    '2024-01-01 00:00:00+05:60',
    '2024-01-01 00:00:00',
    '2024-01-01T00:00:00Z',
    '2024-01-01 00:00:00.1234567+00',
    '0000-01-01 00:00:00+00',
    '294276-06-01 00:00:00+00',
    '300000-01-01 00:00:00+00',
    '4714-06-01 00:00:00+00 BC',
    '02024-01-01 00:00:00+00',
    '2024-01-01 00:00:00+00 AD',
    ' 2024-01-01 00:00:00+00',
  ),
);

/** Keys no statement could read back as each type. */
export const badKey: Record<SortKeyType, fc.Arbitrary<string>> = {
  timestamptz: badTimestamp,
  bigint: fc.oneof(
    fc.bigInt({ min: INT8_MAX + 1n, max: 10n ** 30n }).map(String),
    fc.bigInt({ min: -(10n ** 30n), max: -INT8_MAX - 2n }).map(String),
    fc.constantFrom('', 'abc', '1.5', '1e3', '+1', '01', '-0', ' 1', '0x10', 'NaN', '9'.repeat(400)),
  ),
  numeric: fc.constantFrom('', 'abc', 'NaN', 'Infinity', '-Infinity', '1e5', '1.', '.5', '--1', '+1', '1,5', '9'.repeat(451)),
  text: fc.oneof(
    fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
    fc.integer({ min: 451, max: 2000 }).map((n) => 'x'.repeat(n)),
    fc.constantFrom('\ud800', 'a\udfffb'),
  ),
};

/** Ids no list has: empty, over ID_MAX_LENGTH (200), holding U+0000 or a lone surrogate. */
export const badId = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 201, max: 400 }).map((n) => 'x'.repeat(n)),
  goodId.map((id) => `${id.slice(0, 4)}\u0000${id.slice(4)}`),
  goodId.map((id) => `${id}\ud800`),
);

/** A cursor for `target` that no list would hand out, with what is wrong with it. */
export function forgedCursor(target: CursorTarget, othersLists: readonly string[]): fc.Arbitrary<{ why: string; cursor: string }> {
  const { list, field, direction, type } = target;
  const flipped = direction === 'ASC' ? 'DESC' : 'ASC';
  const forgery = (why: string, parts: fc.Arbitrary<string>) => parts.map((cursor) => ({ why, cursor }));
  return fc.oneof(
    forgery(
      'a sort key out of its type or range',
      fc.tuple(badKey[type], goodId).map(([key, id]) => cursorOf([list, field, direction, key, id])),
    ),
    forgery(
      'an id out of bounds',
      fc.tuple(goodKey[type], badId).map(([key, id]) => cursorOf([list, field, direction, key, id])),
    ),
    forgery(
      'another list',
      fc
        .tuple(fc.oneof(fc.constantFrom(...othersLists, `${list}s`, list.toUpperCase(), ''), fc.string({ maxLength: 30 })), goodKey[type], goodId)
        .filter(([other]) => other !== list)
        .map(([other, key, id]) => cursorOf([other, field, direction, key, id])),
    ),
    forgery(
      'another direction',
      fc.tuple(goodKey[type], goodId).map(([key, id]) => cursorOf([list, field, flipped, key, id])),
    ),
    forgery(
      'another sort field',
      fc
        .tuple(fc.string({ maxLength: 30 }), goodKey[type], goodId)
        .filter(([other]) => other !== field)
        .map(([other, key, id]) => cursorOf([list, other, direction, key, id])),
    ),
    forgery(
      'the earlier form, without a list',
      fc.tuple(fc.oneof(goodKey[type], badKey[type]), goodId).map(([key, id]) => cursorOf([field, direction, key, id])),
    ),
    forgery(
      'not five texts',
      fc
        .jsonValue({ maxDepth: 2 })
        .filter((value) => !(Array.isArray(value) && value.length === 5 && value.every((part) => typeof part === 'string')))
        .map((value) => base64url(JSON.stringify(value))),
    ),
    forgery(
      'a number among the parts',
      fc.tuple(fc.integer(), goodId).map(([key, id]) => cursorOf([list, field, direction, key, id])),
    ),
    forgery(
      'bytes that are no JSON',
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    ),
    forgery(
      'text that is no base64url',
      fc.string({ minLength: 1, maxLength: 100 }).filter((s) => /[^A-Za-z0-9_-]/.test(s)),
    ),
  );
}

/** `<tx>.<seq>` with a number past bigint (each still at most 19 digits, as the pattern allows, or more). */
export const outOfRangePosition = fc
  .tuple(fc.bigInt({ min: INT8_MAX + 1n, max: 10n ** 19n - 1n }), fc.bigInt({ min: 0n, max: INT8_MAX }), fc.boolean())
  .map(([past, within, txPast]) => (txPast ? `${past}.${within}` : `${within}.${past}`));

/** Positions the feeds take: both numbers within bigint. */
export const goodPosition = fc.tuple(fc.bigInt({ min: 0n, max: INT8_MAX }), fc.bigInt({ min: 0n, max: INT8_MAX })).map(([tx, seq]) => `${tx}.${seq}`);
