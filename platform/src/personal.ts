import type { EventDeclaration } from './event';
import { PERSONAL_KEYWORD, type TSchema } from './schema';

/** What a personal value becomes for an actor without `pii.read` (spec rule 7): same shape, value hidden. */
export const MASK = '***';

type Schema = TSchema & Record<string, unknown>;

/** A personal string masked: an email keeps its domain (`***@example.com`, for support), any other text is `***`. */
export function maskString(value: string, format?: unknown): string {
  if (format === 'email') {
    const at = value.lastIndexOf('@');
    return at >= 0 ? `${MASK}@${value.slice(at + 1)}` : MASK;
  }
  return MASK;
}

function typeFits(schema: Schema, value: unknown): boolean {
  const type = schema.type;
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.some((ty) => {
    switch (ty) {
      case 'null':
        return value === null;
      case 'string':
        return typeof value === 'string';
      case 'integer':
      case 'number':
        return typeof value === 'number';
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      default:
        return true;
    }
  });
}

/** The schema a property not named in `properties` falls under (a record's values, an open object's extras). */
function extraSchema(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  const additional = schema.additionalProperties;
  if (additional && typeof additional === 'object') return additional as Schema;
  const patterns = schema.patternProperties as Record<string, Schema> | undefined;
  if (patterns) {
    const first = Object.values(patterns)[0];
    if (first) return first;
  }
  return undefined;
}

function walk(schema: Schema | undefined, value: unknown, inherited: boolean): unknown {
  const mark = schema?.[PERSONAL_KEYWORD];
  const personal = typeof mark === 'boolean' ? mark : inherited;
  if (value === null || value === undefined) return value;

  const union = (schema?.anyOf ?? schema?.oneOf) as Schema[] | undefined;
  if (Array.isArray(union)) {
    const branch = union.find((s) => typeFits(s, value));
    return walk(branch, value, personal);
  }

  if (typeof value === 'string') {
    if (!personal) return value;
    // A closed set of values (an enum, a constant) is a category, not someone's data, unless marked itself.
    if (mark !== true && schema && (schema.enum !== undefined || schema.const !== undefined)) return value;
    return maskString(value, schema?.format);
  }
  if (Array.isArray(value)) {
    const items = schema?.items;
    return value.map((item, i) => walk(Array.isArray(items) ? (items[i] as Schema | undefined) : (items as Schema | undefined), item, personal));
  }
  if (typeof value === 'object') {
    const properties = (schema?.properties ?? {}) as Record<string, Schema>;
    const extra = extraSchema(schema);
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      copy[key] = walk(Object.hasOwn(properties, key) ? properties[key] : extra, inner, personal);
    }
    return copy;
  }
  // Numbers and booleans keep their value: the shape (and type) is unchanged, and they name nobody.
  return value;
}

/**
 * A copy of `value` with the personal values its schema marks (`personal: true` in the `t` builder,
 * `x-personal` in JSON) masked, the shape unchanged: a personal string becomes `***` (an email format
 * keeps its domain: `***@example.com`); in a personal object every string is masked but those marked
 * `personal: false` (an address's country) and enum values; numbers, booleans and nulls stay.
 * A property the schema does not describe inherits its parent's mark.
 */
export function maskPersonal<T>(schema: TSchema, value: T): T {
  return walk(schema as Schema, value, false) as T;
}

/**
 * Each declared event type's payload schema, for masking payloads by type: a declaration's TypeBox
 * schema or its JSON (the contracts' generated catalog); masking reads JSON Schema keywords only.
 */
export function payloadSchemas(events: ReadonlyArray<Pick<EventDeclaration, 'name'> & { payload: object }>): ReadonlyMap<string, TSchema> {
  return new Map(events.map((event) => [event.name, event.payload as TSchema]));
}

/**
 * An event payload with its personal fields masked, by its type's declaration. A type with no
 * declaration (one since removed) is masked whole: nothing says which of its fields are not personal.
 */
export function maskEventPayload<P>(schemas: ReadonlyMap<string, TSchema>, type: string, payload: P): P {
  const schema = schemas.get(type);
  return schema ? maskPersonal(schema, payload) : (walk(undefined, payload, true) as P);
}
