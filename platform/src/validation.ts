import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { type Refinement, validationFailed } from './errors';
import type { Reason } from './reasons';
import { jsonProblem } from './json-guard';
import { INT8_MAX, withinInt8 } from './sort-key';

const strict = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true }));
/** Query strings carry only text: reads coerce "5" to 5 and "true" to true before the same rules apply. */
const coercing = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: true }));
/**
 * Results and event payloads: a guard against our own bugs, run on every answer (a list of 50 orders
 * holds some 200 timestamps), so formats are checked by Ajv's one-regex "fast" forms; input keeps the
 * full checks (a 30 February is refused there).
 */
const produced = addFormats(new Ajv({ allErrors: true, strict: false, useDefaults: true }), { mode: 'fast' });

/**
 * `uniqueItems` by value, done here: Ajv's own check of scalar items keys a plain object by the
 * item, so two `"__proto__"` items pass it as distinct.
 */
const canonical = (value: unknown): string =>
  value !== null && typeof value === 'object'
    ? Array.isArray(value)
      ? `[${value.map(canonical).join(',')}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(',')}}`
    : JSON.stringify(value);
for (const ajv of [strict, coercing, produced]) {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    error: { message: 'must not contain the same item twice' },
    validate: (unique: boolean, items: unknown[]) => !unique || new Set(items.map(canonical)).size === items.length,
  });
}

/**
 * `x-int8: true` on a string: each number in it is within PostgreSQL's bigint, which a pattern can
 * bound only by its digits (a statement given a larger one fails, `internal`).
 */
export const INT8_KEYWORD = 'x-int8';
for (const ajv of [strict, coercing, produced]) {
  ajv.addKeyword({
    keyword: INT8_KEYWORD,
    type: 'string',
    schemaType: 'boolean',
    error: { message: `must hold numbers of at most ${INT8_MAX} (a bigint)` },
    validate: (on: boolean, text: string) => !on || (text.match(/[0-9]+/g) ?? []).every(withinInt8),
  });
}

/** Each schema's validator, compiled once per instance. */
const validators = (ajv: Ajv) => ({ ajv, cache: new WeakMap<TSchema, ValidateFunction>() });
const INPUT = validators(strict);
const QUERY_INPUT = validators(coercing);
const PRODUCED = validators(produced);

function compiled(schema: TSchema, { ajv, cache }: ReturnType<typeof validators>): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

function describe(error: ErrorObject): string {
  const path = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : '';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${path ? `${path}.` : ''}${String(params.additionalProperty)} is not a known field`;
    case 'required':
      return `${path ? `${path}.` : ''}${String(params.missingProperty)} is required`;
    case 'enum':
      return `${path || 'value'} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${path || 'input'} ${error.message ?? 'is invalid'}`;
  }
}

/** The first few schema violations as one readable sentence. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  // `anyOf` failures repeat the branch errors; the branch errors already say what is wrong.
  const useful = (errors ?? []).filter((e) => e.keyword !== 'anyOf');
  const lines = [...new Set(useful.map(describe))];
  return lines.slice(0, 5).join('; ') || 'input is invalid';
}

/** Ajv's keywords as reasons; any other (type, enum, const, format's siblings) is `invalid_value`. */
const KEYWORD_REASONS: Record<string, Reason> = {
  required: 'required',
  additionalProperties: 'unknown_field',
  maxLength: 'too_long',
  maxItems: 'too_long',
  maxProperties: 'too_long',
  minLength: 'too_short',
  minItems: 'too_short',
  minProperties: 'too_short',
  minimum: 'out_of_range',
  maximum: 'out_of_range',
  exclusiveMinimum: 'out_of_range',
  exclusiveMaximum: 'out_of_range',
  multipleOf: 'out_of_range',
  pattern: 'pattern',
  format: 'pattern',
  [INT8_KEYWORD]: 'out_of_range',
  uniqueItems: 'duplicate',
};

/** A JSON pointer into the input as a field path: `/items/1/sku_id` is `items[1].sku_id`. */
export function fieldPath(pointer: string, property?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) parts.push(property);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** The first violation's reason and field (the one a form marks first). */
export function refinementOf(errors: ErrorObject[] | null | undefined): Refinement {
  const first = (errors ?? []).find((e) => e.keyword !== 'anyOf');
  if (!first) return {};
  const params = first.params as Record<string, unknown>;
  const property = first.keyword === 'required' ? params.missingProperty : first.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  const field = fieldPath(first.instancePath, property === undefined ? undefined : String(property));
  return { reason: KEYWORD_REASONS[first.keyword] ?? 'invalid_value', ...(field ? { field } : {}) };
}

/**
 * Checks `value` against `schema`, filling defaults in place; throws validation_failed naming the fields.
 * Every surface's input passes here (the REST shim first, then the subgraph), so one check covers all.
 * `coerce` is for query-string input only.
 */
export function validate<T>(schema: TSchema, value: unknown, coerce = false): T {
  // What no schema can express (storable text, bounded depth, exact numbers) holds for every input.
  const problem = jsonProblem(value);
  if (problem) throw validationFailed(problem);
  const fn = compiled(schema, coerce ? QUERY_INPUT : INPUT);
  if (!fn(value)) throw validationFailed(describeErrors(fn.errors), refinementOf(fn.errors));
  return value as T;
}

/** Same check, for results: a result breaking its own schema is a bug, reported as `internal`. */
export function resultProblem(schema: TSchema, value: unknown): string | null {
  const fn = compiled(schema, PRODUCED);
  return fn(value) ? null : describeErrors(fn.errors);
}
