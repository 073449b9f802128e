import type { CombinedError } from '@urql/core';
import { byField, type Refusal, refusals } from '../../graphql/errors';

/**
 * A request's refusals split for a form: those about a field the form shows (`shows(field)`), by field,
 * for their input (`rates.bands[1].amount` under its own path); the rest, and any about a field the form
 * has no input for, in an alert: none is lost.
 */
export function refusalsOf(error: CombinedError | undefined, shows: (field: string) => boolean): { fields: Record<string, string>; others: Refusal[] } {
  if (!error) return { fields: {}, others: [] };
  const found = byField(refusals(error));
  const fields: Record<string, string> = {};
  const others = [...found.others];
  for (const [field, message] of Object.entries(found.fields)) {
    if (shows(field)) fields[field] = message;
    else others.push({ message, field });
  }
  return { fields, others };
}

/**
 * A whole number typed into a field: null when empty (a limit left out, a window cleared). What is not a
 * whole number is sent as typed, for the server to refuse on that field in its own words.
 */
export function wholeOrNull(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : (trimmed as unknown as number);
}

/** A whole number a field requires: empty or not a number, it is sent as typed for the server to refuse on that field. */
export const whole = (value: string): number => wholeOrNull(value) ?? (value as unknown as number);

/** A number shown in a text field ('' for none). */
export const shown = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** A length of time in the largest whole unit it is (2 hours, 90 minutes, 45 seconds), in the operator's language. */
export function duration(seconds: number, locale: string): string {
  const units: Array<[Intl.NumberFormatOptions['unit'], number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const [unit, size] = units.find(([, size]) => seconds % size === 0) ?? ['second', 1];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(seconds / size);
}
