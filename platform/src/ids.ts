import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

let pool = randomBytes(0);
let at = 0;

/**
 * Bytes from the operating system's CSPRNG, drawn 8 KiB at a time: one call into OpenSSL for many
 * ids and tokens instead of one each. Bytes handed out are wiped from the pool.
 */
export function pooledRandomBytes(size: number): Buffer {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`random byte count must be a whole number, not ${size}`);
  if (size > 1024) return randomBytes(size);
  const from = take(size);
  const bytes = Buffer.from(pool.subarray(from, from + size));
  pool.fill(0, from, from + size);
  return bytes;
}

/** The offset of `size` fresh bytes in the pool, refilled when it runs short. */
function take(size: number): number {
  if (at + size > pool.length) {
    pool = randomBytes(8192);
    at = 0;
  }
  at += size;
  return at - size;
}

/** Random numbers for ulid (ids are public, so these bytes need no wiping): its default draws from the OS once per character. */
function random(): number {
  const from = take(2);
  return pool.readUInt16BE(from) / 65536;
}

const ulid = monotonicFactory(random);

/** Sortable, prefixed identifiers (`key_01J…`): the prefix tells what a thing is when it shows up in a log. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

export const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';
