import { Type, type TSchema, type TObject, type TProperties, type SchemaOptions, type Static } from '@sinclair/typebox';

/** Schema building blocks carrying the reference's rules; every operation's input and result is made of these. */
export const SAFE_INTEGER_MAX = Number.MAX_SAFE_INTEGER;
/** Identifiers and handles are short: a caller's 1 MB "id" is refused before anything looks it up. */
export const ID_MAX_LENGTH = 200;

/**
 * `personal: true` marks a property as personal data (spec rule 7): it is masked by `maskPersonal`
 * for an actor without `pii.read`, and the JSON schema carries it as `x-personal: true` (validation
 * ignores it). On an object, every string inside is personal except what is marked `personal: false`.
 */
export interface PersonalOption {
  personal?: boolean;
}

/** The keyword that carries the mark in a JSON schema. */
export const PERSONAL_KEYWORD = 'x-personal';

/** The GraphQL type name of an entity, a named object or a named enum. */
export const GRAPHQL_NAME = 'x-graphql-name';
/** A named enum's whole value set, on a field holding only some of it. */
export const GRAPHQL_VALUES = 'x-graphql-values';

export interface EnumOptions<V extends string> {
  default?: V;
  description?: string;
  /** The GraphQL enum's name, when several fields share it (a state machine's states, a kind). */
  name?: string;
  among?: readonly string[];
}

/** Options with `personal` turned into the `x-personal` annotation. */
function annotated<O extends PersonalOption>(options: O): Omit<O, 'personal'> {
  const { personal, ...rest } = options;
  return personal === undefined ? rest : { ...rest, [PERSONAL_KEYWORD]: personal };
}

export const t = {
  object: <P extends TProperties>(properties: P, options: SchemaOptions & PersonalOption = {}) =>
    Type.Object(properties, { additionalProperties: false, ...annotated(options) }),
  /**
   * A result object with a GraphQL type name of its own (shared by every operation that returns it);
   * with `key`, a federation entity other subgraphs can reference.
   */
  entity: <P extends TProperties>(graphqlName: string, properties: P, key?: string) =>
    Type.Object(properties, { additionalProperties: false, [GRAPHQL_NAME]: graphqlName, ...(key ? { 'x-graphql-key': key } : {}) }),
  /** An object the reference calls open: extra properties allowed. */
  openObject: <P extends TProperties>(properties: P, options: SchemaOptions & PersonalOption = {}) =>
    Type.Object(properties, { additionalProperties: true, ...annotated(options) }),
  string: (options: { minLength?: number; maxLength?: number; pattern?: string; format?: string; description?: string } & PersonalOption = {}) =>
    Type.String(annotated(options)),
  /** An identifier, handle or other short required text: 1 to ID_MAX_LENGTH characters. */
  id: (description?: string) => Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH, ...(description ? { description } : {}) }),
  integer: (options: { minimum?: number; maximum?: number; exclusiveMinimum?: number; default?: number; description?: string } = {}) =>
    Type.Integer({ minimum: -SAFE_INTEGER_MAX, maximum: SAFE_INTEGER_MAX, ...options }),
  boolean: (options: { default?: boolean; description?: string } = {}) => Type.Boolean(options),
  /**
   * One of `values`. GraphQL makes it an enum named `name` (one type for every field naming it), or
   * `<ParentType><FieldStem>` without. `among`: the named enum's whole value set when this field holds
   * only some of it (a command's result `cancelled` is still an `OrderStatus`).
   */
  enum: <const V extends readonly string[]>(values: V, options: EnumOptions<V[number]> = {}) => {
    const { name, among, ...rest } = options;
    return Type.Unsafe<V[number]>({
      type: 'string',
      enum: [...values],
      ...rest,
      ...(name ? { [GRAPHQL_NAME]: name } : {}),
      ...(among ? { [GRAPHQL_VALUES]: [...among] } : {}),
    });
  },
  nullable: <S extends TSchema>(schema: S) => Type.Union([schema, Type.Null()]),
  optional: <S extends TSchema>(schema: S) => Type.Optional(schema),
  array: <S extends TSchema>(items: S, options: { minItems?: number; maxItems?: number; uniqueItems?: boolean; description?: string } = {}) =>
    Type.Array(items, options),
  /** An object with string keys and any values (metadata, credentials). */
  record: (options: SchemaOptions & PersonalOption = {}) => Type.Record(Type.String(), Type.Unknown(), annotated(options)),
  /** Any JSON value. */
  json: (options: SchemaOptions & PersonalOption = {}) => Type.Unknown(annotated(options)),
  email: (options: PersonalOption = {}) => Type.String({ format: 'email', maxLength: 320, ...annotated(options) }),
  uri: (maxLength: number) => Type.String({ format: 'uri', maxLength }),
  timestamp: () => Type.String({ format: 'date-time' }),
};

export type { TSchema, TObject, Static };

/** Is this schema `X or null`? Returns X, or undefined when it is not nullable. */
export function unwrapNullable(schema: TSchema): TSchema | undefined {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (anyOf?.length !== 2) return undefined;
  const nonNull = anyOf.filter((s) => s.type !== 'null');
  return nonNull.length === 1 ? nonNull[0] : undefined;
}
