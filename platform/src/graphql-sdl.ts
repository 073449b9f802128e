import type { TSchema } from '@sinclair/typebox';
import { deprecationNotice, fieldName, typeStem, type Operation } from './operation';
import { GRAPHQL_NAME, GRAPHQL_VALUES, SAFE_INTEGER_MAX, unwrapNullable } from './schema';

/** Federation link every subgraph's schema starts with. */
export const FEDERATION_LINK =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@shareable", "@external", "@requires", "@listSize"])';

/**
 * The most items a result's list holds, as the cost estimate reads it: `@listSize(assumedSize:)`,
 * the directive Apollo's and Hive's demand control read too. Every list of a result declares it
 * (its `maxItems`), and the writes that grow it refuse past it.
 */
export const listSize = (maxItems: number): string => `@listSize(assumedSize: ${maxItems})`;

const SCALARS = `"""An integer in the safe-integer range -9007199254740991 to 9007199254740991."""
scalar SafeInt

"""A date and time in RFC 3339 with its offset (\`2024-05-01T12:00:00.000Z\`), exactly as the REST body spells it."""
scalar DateTime

"""Any JSON value."""
scalar JSON`;

type Mode = 'input' | 'output';

interface Schema {
  type?: string;
  properties?: Record<string, TSchema>;
  required?: string[];
  additionalProperties?: boolean | TSchema;
  items?: TSchema;
  enum?: unknown[];
  anyOf?: TSchema[];
  description?: string;
  default?: unknown;
  [rule: string]: unknown;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The values of the GraphQL enum a schema is, when it is one: each value is the wire's own text, so
 * each must be a GraphQL name other than true, false and null. Otherwise (scopes: `order.read`) the
 * field stays a String and its description lists the values.
 */
function enumValues(s: Schema): string[] | undefined {
  const values = (s[GRAPHQL_VALUES] as unknown[] | undefined) ?? s.enum;
  if (!values?.every((v) => typeof v === 'string' && NAME.test(v) && !['true', 'false', 'null'].includes(v))) return undefined;
  return values as string[];
}

/** An identifier by its name (`id`, `order_id`; the items of `zone_ids`): GraphQL's ID, the same text on the wire. */
const isIdName = (key: string) => key === 'id' || key.endsWith('_id');

/** The schema's rules in words, for the explorer: the same rules the validator enforces. */
export function describeRules(schema: TSchema): string {
  const s = (unwrapNullable(schema) ?? schema) as Schema;
  const rules: string[] = [];
  if (s.description) rules.push(s.description);
  // A GraphQL enum lists its values itself.
  if (s.enum && !enumValues(s)) rules.push(`one of: ${s.enum.join(', ')}`);
  if (s.format && s.format !== 'date-time') rules.push(`format: ${String(s.format)}`);
  if (s.minLength !== undefined && s.maxLength !== undefined) rules.push(`length ${s.minLength} to ${s.maxLength}`);
  else if (s.minLength !== undefined) rules.push(`min length ${s.minLength}`);
  else if (s.maxLength !== undefined) rules.push(`max length ${s.maxLength}`);
  if (s.pattern) rules.push(`pattern ${String(s.pattern)}`);
  const min = s.minimum !== undefined && s.minimum !== -SAFE_INTEGER_MAX ? s.minimum : undefined;
  const max = s.maximum !== undefined && s.maximum !== SAFE_INTEGER_MAX ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) rules.push(`${min} to ${max}`);
  else if (min !== undefined) rules.push(`min ${min}`);
  else if (max !== undefined) rules.push(`max ${max}`);
  if (s.exclusiveMinimum !== undefined) rules.push(`greater than ${s.exclusiveMinimum}`);
  if (s.minItems !== undefined) rules.push(`at least ${s.minItems} item(s)`);
  if (s.maxItems !== undefined) rules.push(`at most ${s.maxItems} item(s)`);
  if (s.uniqueItems) rules.push('no repeats');
  const itemRules = s.type === 'array' && s.items ? describeRules(s.items) : '';
  if (itemRules) rules.push(`each: ${itemRules}`);
  if (s.default !== undefined) rules.push(`default ${JSON.stringify(s.default)}`);
  if (unwrapNullable(schema)) rules.push('or null');
  return rules.join('; ');
}

/**
 * An object GraphQL types field by field: a closed one; in a result also an open one (the reference's
 * "open"), typed by its declared properties, since GraphQL answers only fields it names anyway. An open
 * input stays JSON: a typed one would refuse the extra properties REST takes.
 */
function isTypedObject(s: Schema, mode: Mode): boolean {
  return s.type === 'object' && !!s.properties && Object.keys(s.properties).length > 0 && (s.additionalProperties === false || mode === 'output');
}

function block(description: string): string {
  // A block string cannot end in a quote (it would run into the closing quotes) nor hold three of them.
  const text = description.replace(/"""/g, "'''").replace(/"$/, '" ');
  return text ? `"""${text}"""\n` : '';
}

/** A result field's `@listSize` when it is a list (which must declare its `maxItems`); '' otherwise. */
function resultListSize(prop: TSchema, field: string): string {
  const s = (unwrapNullable(prop) ?? prop) as Schema;
  if (s.type !== 'array') return '';
  if (typeof s.maxItems !== 'number') throw new Error(`${field}: a result's list declares its maxItems (the cost estimate multiplies by it)`);
  return ` ${listSize(s.maxItems)}`;
}

class SdlBuilder {
  readonly types: string[] = [];
  /** Keyed entities and their key: each answers `id`, resolved by the platform. */
  readonly entityIds = new Map<string, string>();
  private readonly named = new Set<string>();
  private readonly enums = new Map<string, string>();

  /** `key`: the property's name (an `_id` is an ID). */
  typeRef(schema: TSchema, name: string, mode: Mode, key = ''): string {
    const s = (unwrapNullable(schema) ?? schema) as Schema;
    const values = enumValues(s);
    if (values) return this.enumType(values, (s[GRAPHQL_NAME] as string | undefined) ?? name);
    switch (s.type) {
      case 'string':
        if (s.format === 'date-time') return 'DateTime';
        return isIdName(key) ? 'ID' : 'String';
      case 'integer':
        return 'SafeInt';
      case 'number':
        return 'Float';
      case 'boolean':
        return 'Boolean';
      case 'array':
        return `[${this.typeRef(s.items as TSchema, name, mode, key.replace(/_ids$/, '_id'))}!]`;
    }
    if (isTypedObject(s, mode))
      return this.objectType(s, (s[mode === 'output' ? 'x-graphql-name' : 'x-graphql-input-name'] as string | undefined) || name, mode);
    return 'JSON';
  }

  enumType(values: string[], name: string): string {
    const known = this.enums.get(name);
    if (known === undefined) {
      this.enums.set(name, values.join(', '));
      this.types.push(`enum ${name} {\n${values.map((v) => `  ${v}`).join('\n')}\n}`);
    } else if (known !== values.join(', ')) {
      throw new Error(`enum ${name} is declared with the values ${known} and ${values.join(', ')}: one name, one value set (see \`among\`)`);
    }
    return name;
  }

  objectType(s: Schema, name: string, mode: Mode): string {
    if (this.named.has(name)) return name;
    this.named.add(name);
    // A federation entity: other subgraphs may refer to it by its key.
    const entityKey = mode === 'output' ? (s['x-graphql-key'] as string | undefined) : undefined;
    // A type every subgraph defines alike (a connection's PageInfo): federation needs it marked.
    const shareable = mode === 'output' && s['x-graphql-shareable'] ? ' @shareable' : '';
    const required = new Set(s.required ?? []);
    const fields = Object.entries(s.properties ?? {}).map(([key, prop]) => {
      const p = prop as Schema;
      const ref = this.typeRef(prop, name + typeStem(key), mode, key);
      const nonNull = required.has(key) && !unwrapNullable(prop) && (mode === 'output' || p.default === undefined);
      // graphql-js keeps an explicit null apart from an absent field: the validator refuses the absent one.
      const presence = mode === 'input' && required.has(key) && unwrapNullable(prop) ? 'required: a value or null' : '';
      const rules = [describeRules(prop), presence].filter(Boolean).join('; ');
      const size = mode === 'output' ? resultListSize(prop, `${name}.${key}`) : '';
      return `  ${block(rules).replace(/\n$/, '\n  ')}${key}: ${ref}${nonNull ? '!' : ''}${size}`;
    });
    if (entityKey && !s.properties?.id) {
      if (!isIdName(entityKey)) throw new Error(`entity ${name}: its id needs a key of one id field, not "${entityKey}"`);
      this.entityIds.set(name, entityKey);
      fields.unshift(`  """Its key, \`${entityKey}\`: every entity answers it as \`id\`."""\n  id: ID!`);
    }
    const directive = entityKey ? ` @key(fields: "${entityKey}")` : '';
    this.types.push(`${mode === 'input' ? 'input' : 'type'} ${name}${directive}${shareable} {\n${fields.join('\n')}\n}`);
    return name;
  }
}

/** A connection's input fields as the root field's own arguments (`first`, `after`, `filter`…), as Relay clients expect. */
function connectionArguments(input: Schema, stem: string, builder: SdlBuilder): string {
  const args = Object.entries(input.properties ?? {}).map(([key, prop]) => `${key}: ${builder.typeRef(prop, stem + typeStem(key), 'input')}`);
  return `(${args.join(', ')})`;
}

function rootField(op: Operation, builder: SdlBuilder): string {
  const stem = typeStem(op.name);
  const input = op.input as Schema;
  const hasInput = Object.keys(input.properties ?? {}).length > 0;
  const args = op.connection
    ? connectionArguments(input, stem, builder)
    : hasInput
      ? `(input: ${builder.objectType(input, `${stem}Input`, 'input')}${(input.required ?? []).length ? '!' : ''})`
      : '';
  const result = builder.typeRef(op.result, `${stem}Result`, 'output');
  const access = op.access === 'public' ? 'Public: no credential.' : `Scope: ${op.scope ?? 'any valid credential'}${op.ownerGated ? ', owner key only' : ''}.`;
  const events = op.events.length ? ` Events: ${op.events.map((e) => e.name).join(', ')}.` : '';
  const notice = deprecationNotice(op);
  const deprecated = notice ? ` @deprecated(reason: ${JSON.stringify(notice)})` : '';
  // Nullable: a failing root field answers null with its error and leaves the other root fields'
  // results in `data` (a non-null one would null them all, losing e.g. a token minted by a mutation
  // that already committed).
  const size = resultListSize(op.result, op.name);
  return `  ${block(`${op.name}: ${op.summary} ${access}${events}`).replace(/\n$/, '\n  ')}${op.connection?.field ?? fieldName(op.name)}${args}: ${result}${size}${deprecated}`;
}

/** The subgraph schema (SDL) of a set of operations, plus any hand-written entity types. */
export function operationsSdl(operations: readonly Operation[], extraTypeDefs = ''): string {
  return operationsSchema(operations, extraTypeDefs).sdl;
}

/** The SDL and the keyed entities whose `id` (their key's value) the subgraph resolves. */
export function operationsSchema(operations: readonly Operation[], extraTypeDefs = ''): { sdl: string; entityIds: ReadonlyMap<string, string> } {
  const builder = new SdlBuilder();
  const queries = operations.filter((op) => op.kind === 'read').map((op) => rootField(op, builder));
  const mutations = operations.filter((op) => op.kind === 'command').map((op) => rootField(op, builder));
  const parts = [FEDERATION_LINK, SCALARS];
  if (queries.length) parts.push(`type Query {\n${queries.join('\n')}\n}`);
  if (mutations.length) parts.push(`type Mutation {\n${mutations.join('\n')}\n}`);
  parts.push(...builder.types);
  if (extraTypeDefs.trim()) parts.push(extraTypeDefs.trim());
  const sdl = `# Generated from the operation declarations by \`npm run generate\`. Do not edit.\n\n${parts.join('\n\n')}\n`;
  return { sdl, entityIds: builder.entityIds };
}

/** A GraphQL selection of every field of a result schema: the REST shim asks for the whole result. */
export function selectionOf(schema: TSchema): string {
  const s = (unwrapNullable(schema) ?? schema) as Schema;
  if (s.type === 'array') return selectionOf(s.items as TSchema);
  if (!isTypedObject(s, 'output')) return '';
  const fields = Object.entries(s.properties ?? {}).map(([key, prop]) => `${key}${selectionOf(prop)}`);
  return ` { ${fields.join(' ')} }`;
}

/**
 * The fixed GraphQL document the REST shim sends for an operation, input as `$input`: all of its
 * result, or the fields of a named projection.
 */
export function operationDocument(op: Operation, projection?: string): string {
  const input = op.input as Schema;
  const hasInput = Object.keys(input.properties ?? {}).length > 0;
  const inputType = `${typeStem(op.name)}Input${(input.required ?? []).length ? '!' : ''}`;
  const kind = op.kind === 'command' ? 'mutation' : 'query';
  const field = fieldName(op.name);
  const selection = selectionOf((projection && op.projections?.[projection]) || op.result);
  const name = `Rest_${field}${projection ? `_${projection}` : ''}`;
  return hasInput ? `${kind} ${name}($input: ${inputType}) { ${field}(input: $input)${selection} }` : `${kind} ${name} { ${field}${selection} }`;
}

type Shaper = (value: unknown) => unknown;
const shapers = new WeakMap<TSchema, Shaper>();

/** The walk `wholeAnswer` takes for a schema, compiled once. */
function shaperOf(schema: TSchema): Shaper {
  const known = shapers.get(schema);
  if (known) return known;
  let shaper: Shaper = (value) => value;
  shapers.set(schema, (value) => shaper(value)); // a recursive schema refers to itself
  const s = (unwrapNullable(schema) ?? schema) as Schema;
  if (s.type === 'array' && s.items) {
    const item = shaperOf(s.items as TSchema);
    shaper = (value) => (Array.isArray(value) ? value.map(item) : value);
  } else if (isTypedObject(s, 'output')) {
    const fields = Object.entries(s.properties ?? {}).map(([key, prop]) => [key, shaperOf(prop), unwrapNullable(prop) !== undefined] as const);
    shaper = (value) => {
      if (value === null || typeof value !== 'object') return value;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, inner, nullable] of fields) {
        const field = source[key];
        if (field !== undefined && field !== null) out[key] = inner(field);
        else if (nullable) out[key] = null;
      }
      return out;
    };
  }
  shapers.set(schema, shaper);
  return shaper;
}

/**
 * A result as the REST shim sends it: as GraphQL answers the result's whole selection
 * (`operationDocument`), a typed object keeping its declared fields only (an open one too: GraphQL
 * answers what it names), without the nulls GraphQL puts in place of absent fields the schema does
 * not allow to be null (an absent `url`, an absent `promotional_price`): an absent field that may be
 * null is null, one that may not is left out. Shapes a handler's own result (an operation run in this
 * process) and GraphQL's answer alike (one run in another).
 */
export function wholeAnswer(schema: TSchema, value: unknown): unknown {
  return shaperOf(schema)(value);
}
