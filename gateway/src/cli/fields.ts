import { Option } from 'commander';

/** The parts of a JSON schema (TypeBox's output) the CLI reads. */
interface Schema {
  type?: string;
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  [keyword: string]: unknown;
}

type Scalar = 'string' | 'integer' | 'number' | 'boolean';

/** The scalar a flag carries for a field (a nullable one's non-null type; a union with boolean, boolean), or null: only `--input` gives it. */
function scalarOf(schema: Schema): Scalar | null {
  const branches = (schema.anyOf ?? [schema]).filter((s) => s.type !== 'null');
  if (branches.some((s) => s.type === 'boolean')) return 'boolean';
  const type = branches.length === 1 ? branches[0].type : undefined;
  return type === 'string' || type === 'integer' || type === 'number' ? type : null;
}

/** `string`, `integer or null`, `{sku_id: string, qty: integer}[]`: a field's type in a line of help. */
function typeOf(schema: Schema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  if (schema.properties) {
    return `{${Object.entries(schema.properties)
      .map(([name, s]) => `${name}${schema.required?.includes(name) ? '' : '?'}: ${typeOf(s)}`)
      .join(', ')}}`;
  }
  return schema.type ?? 'any JSON';
}

const BOUNDS = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'pattern',
  'format',
  'enum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'maxProperties',
  'default',
];

/** The schema's bounds, a nullable field's from its non-null branch, a list's items' prefixed `each`. */
function boundsOf(schema: Schema, prefix = ''): string[] {
  const own = [schema, ...(schema.anyOf ?? [])].flatMap((s) =>
    BOUNDS.filter((key) => s[key] !== undefined).map((key) =>
      key === 'enum'
        ? `${prefix}one of ${s.enum?.join(' | ')}`
        : key === 'uniqueItems'
          ? 'unique items'
          : `${prefix}${key} ${typeof s[key] === 'string' ? s[key] : JSON.stringify(s[key])}`,
    ),
  );
  return schema.type === 'array' && schema.items ? [...own, ...boundsOf(schema.items, 'each ')] : own;
}

/** A field's help: type, required or not, bounds, description. */
function fieldHelp(schema: Schema, required: boolean): string {
  const bounds = boundsOf(schema);
  return `${typeOf(schema)}, ${required ? 'required' : 'optional'}${bounds.length ? `; ${bounds.join(', ')}` : ''}${schema.description ? `. ${schema.description}` : ''}`;
}

/** A number when the text is one; else the text as given, for the server to refuse (its rules are the only ones). */
const parserOf = (type: Scalar) =>
  type === 'string' ? (text: string) => text : (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

export interface InputFlags {
  /** One option per field a flag can carry (a boolean two: `--x` and `--no-x`), in the help group "Input fields". */
  options: Option[];
  /** Help lines of the fields only `--input` gives (objects, lists of objects, any JSON). */
  jsonOnly: string;
  /** The fields the flags given set, by field name. */
  values(options: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The flags of an operation, from its input schema: `order_id` is `--order-id <string>`, a number is
 * parsed as one, a boolean is `--x`/`--no-x`, a list of scalars is the flag repeated. None is made
 * mandatory: a missing required field is the server's `validation_failed` (one source of rules).
 */
export function inputFlags(input: object): InputFlags {
  const schema = input as Schema;
  const options: Option[] = [];
  const fields = new Map<string, string>();
  const jsonOnly: Array<[string, string]> = [];
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const flag = `--${field.replace(/_/g, '-')}`;
    const help = fieldHelp(property, schema.required?.includes(field) ?? false);
    const scalar = scalarOf(property);
    const item = property.type === 'array' && property.items ? scalarOf(property.items) : null;
    if (scalar === 'boolean') {
      options.push(new Option(flag, help), new Option(`--no-${flag.slice(2)}`, `send ${field}: false`));
    } else if (scalar) {
      options.push(new Option(`${flag} <${scalar}>`, help).argParser(parserOf(scalar)));
    } else if (item && item !== 'boolean') {
      const parse = parserOf(item);
      options.push(
        new Option(`${flag} <${item}>`, `${help}; repeat the flag for each item`).argParser((text: string, previous?: unknown[]) => [
          ...(previous ?? []),
          parse(text),
        ]),
      );
    } else {
      jsonOnly.push([field, help]);
      continue;
    }
    fields.set(options[options.length - 1].attributeName(), field);
  }
  for (const option of options) option.helpGroup('Input fields:');
  const width = Math.max(0, ...jsonOnly.map(([field]) => field.length));
  return {
    options,
    jsonOnly: jsonOnly.length
      ? `\nInput fields only through --input (JSON):\n${jsonOnly.map(([field, help]) => `  ${field.padEnd(width)}  ${help}`).join('\n')}`
      : '',
    values: (given) =>
      Object.fromEntries([...fields].filter(([attribute]) => given[attribute] !== undefined).map(([attribute, field]) => [field, given[attribute]])),
  };
}
