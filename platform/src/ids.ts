import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Random numbers for ulid from a refilled buffer: its default draws from the OS once per character. */
let pool = randomBytes(0);
let at = 0;
function random(): number {
  if (at + 2 > pool.length) {
    pool = randomBytes(8192);
    at = 0;
  }
  const value = pool.readUInt16BE(at) / 65536;
  at += 2;
  return value;
}

const ulid = monotonicFactory(random);

/** Sortable, prefixed identifiers (`key_01J…`): the prefix tells what a thing is when it shows up in a log. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

export const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';
