import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

/** Sortable, prefixed identifiers (`key_01J…`): the prefix tells what a thing is when it shows up in a log. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

export const ULID_PATTERN = '[0-9A-HJKMNP-TV-Z]{26}';
