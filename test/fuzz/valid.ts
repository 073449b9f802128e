/**
 * Valid-shaped inputs, walked from an operation's JSON Schema: the starting point every mutation
 * breaks. "Valid-shaped" means the schema holds; references may point at real rows (the pool) or not.
 */
import fc from 'fast-check';
import { PROTOTYPE_NAMES } from './json-text';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  default?: unknown;
}

/** Real things seeded before the run, by the input field that names them, and names that name nothing. */
export interface Pool {
  real: Record<string, string[]>;
  missing: string[];
}

/** `X or null` → X. */
export function nonNull(s: Schema): { schema: Schema; nullable: boolean } {
  const branches = s.anyOf?.filter((b) => b.type !== 'null');
  return s.anyOf && branches?.length === 1 ? { schema: branches[0], nullable: true } : { schema: s, nullable: false };
}

/** Any JSON (metadata): open by design, so no schema type at all. */
export const isAnyJson = (s: Schema) => !s.type && !s.anyOf && !s.enum;
/** An object whose keys the caller chooses (custom_fields, a SKU's metadata). */
export const isOpenRecord = (s: Schema) => s.type === 'object' && !!s.patternProperties;

/** Numbers inside open JSON stay exact: safe integers and small decimals. */
const scalar = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...PROTOTYPE_NAMES.filter((n) => n !== '__proto__')),
);
const openKey = fc.oneof(
  fc.string({ minLength: 1, maxLength: 10 }).filter((k) => k !== '__proto__'),
  fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', 'color'),
);
const anyJson = fc.oneof(
  { weight: 3, arbitrary: scalar },
  fc.constant(null),
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(openKey, fc.oneof(scalar, fc.dictionary(openKey, scalar, { maxKeys: 2 })), { maxKeys: 3 }),
);

function stringArb(s: Schema, field: string, pool: Pool): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 40);
  const fits = (v: string) => [...v].length >= min && [...v].length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern).test(v));
  const real = pool.real[field] ?? [];
  // Fixed candidates are chosen among those that fit, up front: a filter no candidate passes would
  // make the generator retry for ever (a field of 32 characters or more fits no prototype name).
  const missing = pool.missing.filter(fits);
  if (real.length) {
    return missing.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, fc.constantFrom(...missing)) : fc.constantFrom(...real);
  }
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern), { size: 'xsmall' }).filter(fits);
  const prototypeNames = PROTOTYPE_NAMES.filter(fits);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    fc.string({ minLength: Math.max(min, 1), maxLength: max, unit: 'grapheme' }).filter(fits),
    ...(prototypeNames.length ? [fc.constantFrom(...prototypeNames)] : []),
  );
}

function integerArb(s: Schema): fc.Arbitrary<number> {
  const min = s.minimum ?? -1e6;
  const max = s.maximum ?? 1e6;
  return fc.oneof({ weight: 3, arbitrary: fc.integer({ min, max: Math.min(max, min + 100) }) }, fc.constantFrom(min, max));
}

/** A value meeting `schema`; `field` is the property name it sits under (to pick pool ids). */
export function validArb(schema: Schema, pool: Pool, field = ''): fc.Arbitrary<unknown> {
  const { schema: s, nullable } = nonNull(schema);
  if (nullable) return fc.oneof({ weight: 3, arbitrary: validArb(s, pool, field) }, fc.constant(null));
  if (s.enum) return fc.constantFrom(...s.enum);
  // A union of several kinds (a flag as a boolean or as one of its strings): any branch.
  if (s.anyOf) return fc.oneof(...s.anyOf.map((branch) => validArb(branch, pool, field)));
  if (isAnyJson(s)) return anyJson;
  if (isOpenRecord(s)) return fc.dictionary(openKey, scalar, { maxKeys: Math.min(s.maxProperties ?? 3, 3) });
  switch (s.type) {
    case 'string':
      return stringArb(s, field, pool);
    case 'integer':
      return integerArb(s);
    case 'number':
      return fc.double({ min: -1e6, max: 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = validArb(s.items ?? {}, pool, field.replace(/s$/, ''));
      const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) };
      return s.uniqueItems ? fc.uniqueArray(item, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(item, constraints);
    }
    case 'object': {
      const props = s.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, validArb(p, pool, k)]));
      return fc.record(model, { requiredKeys: (s.required ?? []) as never[] });
    }
  }
  return anyJson;
}

/**
 * Rules no schema states, kept by valid-shaped inputs so that a `conflict` case is not refused for
 * another reason first (the case then expects either kind anyway).
 */
export function fixup(operation: string, input: Record<string, unknown>): Record<string, unknown> {
  if ('expires_in_days' in input && input.never_expires === true) delete input.never_expires;
  if (operation === 'catalog.option.create' && Array.isArray(input.values) && input.values.length) input.default_value = input.values[0];
  if ('projection' in input && typeof input.projection === 'string') input.projection = input.projection.length % 2 ? 'feed' : 'full';
  // read.internal.pages: include_archived given with archived must agree with it.
  if ('include_archived' in input && 'archived' in input) delete input.include_archived;
  if (typeof input.price_min === 'number' && typeof input.price_max === 'number' && input.price_min > input.price_max) delete input.price_min;
  if (Array.isArray(input.categories)) {
    let primary = false;
    for (const c of input.categories as Array<Record<string, unknown>>) {
      if (c.is_primary && primary) c.is_primary = false;
      primary ||= c.is_primary === true;
    }
  }
  return input;
}
