/**
 * The values a connection's cursor may carry back as its sort key, by the key's type: only what
 * PostgreSQL takes as that type, so a forged cursor is refused before any statement runs (a value
 * PostgreSQL refuses would fail the list's statement, `internal`).
 */

/** The bounds of PostgreSQL's bigint (int8). */
export const INT8_MAX = 9223372036854775807n;
const INT8_MIN = -INT8_MAX - 1n;

/** Is this integer literal (digits, perhaps signed) within bigint? */
export const withinInt8 = (integer: string): boolean => {
  const value = BigInt(integer);
  return value >= INT8_MIN && value <= INT8_MAX;
};

/** What 600 base64url characters (a cursor at most: CURSOR_MAX_LENGTH) decode to: no key of a cursor is longer. */
export const SORT_TEXT_MAX_LENGTH = 450;

/** A bigint as PostgreSQL writes it: no sign but `-`, no leading zero. */
const BIGINT = /^(?:0|-?[1-9][0-9]{0,18})$/;
/** A finite numeric as PostgreSQL writes it (never an exponent; `NaN` and the infinities are not finite). */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
/** A timestamptz as PostgreSQL writes it (DateStyle ISO, its default): microseconds at most, the session zone's offset, the era. */
const TIMESTAMPTZ =
  /^([0-9]{4}|[1-9][0-9]{4,5})-([0-9]{2})-([0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]{1,6})?[+-]([0-9]{2})(?::([0-9]{2})(?::([0-9]{2}))?)?( BC)?$/;

/**
 * The years whose every instant lies within PostgreSQL's timestamptz range (4714-11-24 BC to
 * 294276-12-31 AD, in UTC) at any offset it takes (at most 15:59:59).
 */
const LAST_YEAR = { AD: 294275, BC: 4713 };

/** Days in a month of the proleptic Gregorian calendar PostgreSQL counts in (1 BC is the year 0, a leap year). */
function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** A timestamp PostgreSQL takes and writes back as the same instant: a real date, no 24:00 or leap second (they roll over), in range. */
function isTimestamptz(key: string): boolean {
  if (key === 'infinity' || key === '-infinity') return true;
  const parts = TIMESTAMPTZ.exec(key);
  if (!parts) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute, offsetSecond] = parts.slice(1, 10).map((part) => Number(part ?? 0));
  const bc = parts[10] !== undefined;
  if (year < 1 || year > (bc ? LAST_YEAR.BC : LAST_YEAR.AD) || month < 1 || month > 12) return false;
  const date = day >= 1 && day <= daysIn(bc ? 1 - year : year, month);
  const time = hour <= 23 && minute <= 59 && second <= 59;
  return date && time && offsetHour <= 15 && offsetMinute <= 59 && offsetSecond <= 59;
}

export type SortKeyType = 'timestamptz' | 'text' | 'numeric' | 'bigint';

const FITS: Record<SortKeyType, (key: string) => boolean> = {
  timestamptz: isTimestamptz,
  bigint: (key) => BIGINT.test(key) && withinInt8(key),
  numeric: (key) => key.length <= SORT_TEXT_MAX_LENGTH && DECIMAL.test(key),
  // U+0000 is refused with the whole cursor (jsonProblem), as in any input.
  text: (key) => key.length <= SORT_TEXT_MAX_LENGTH,
};

/** Does `key` read back as a sort key of this type, as the list's statement casts it? */
export const sortKeyFits = (type: SortKeyType, key: string): boolean => FITS[type](key);
