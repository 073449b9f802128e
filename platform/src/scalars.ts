import { fullFormats } from 'ajv-formats/dist/formats';
import { GraphQLError, GraphQLScalarType, Kind, isScalarType, valueFromASTUntyped, type GraphQLSchema, type ValueNode } from 'graphql';

/**
 * A refusal saying why: graphql-js puts it after the variable and the path (`Variable "$in" got
 * invalid value 1.5 at "in.items[0].qty"; SafeInt cannot represent 1.5: not an integer`). Numbers
 * are quoted, text is not (it may be a secret put in the wrong field).
 */
function refusal(scalar: string, value: unknown, why: string): GraphQLError {
  const shown = typeof value === 'number' ? String(value) : value === null ? 'null' : `a ${Array.isArray(value) ? 'list' : typeof value}`;
  return new GraphQLError(`${scalar} cannot represent ${shown}: ${why}`);
}

/**
 * A literal's refusal is a plain Error: graphql-js then says where (`Expected value of type "SafeInt",
 * found 1.5; …` with the location), which it leaves out for a GraphQLError.
 */
function inLiteral<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new Error((error as Error).message);
  }
}

/** A literal as a refusal names it: a number as written, anything else by its kind (`an object literal`). */
function literalShown(ast: ValueNode): string {
  if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return ast.value;
  const kind = ast.kind.replace(/Value$/, '').toLowerCase();
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} literal`;
}

function safeInteger(value: unknown): number {
  if (typeof value !== 'number') throw refusal('SafeInt', value, 'not a number');
  if (!Number.isInteger(value)) throw refusal('SafeInt', value, 'not an integer');
  if (!Number.isSafeInteger(value)) throw refusal('SafeInt', value, 'outside -9007199254740991 to 9007199254740991');
  return value;
}

export const SafeInt = new GraphQLScalarType({
  name: 'SafeInt',
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new Error(`SafeInt cannot represent ${literalShown(ast)}: not an integer literal`);
    return inLiteral(() => safeInteger(Number(ast.value)));
  },
});

/** The check Ajv applies to `format: date-time` (ajv-formats' full mode): the scalar takes exactly what validation takes. */
const isDateTime = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;

function dateTime(value: unknown): string {
  if (typeof value !== 'string') throw refusal('DateTime', value, 'not a string');
  if (!isDateTime(value)) throw refusal('DateTime', value, 'not an RFC 3339 date-time with an offset, such as 2024-05-01T12:00:00Z');
  return value;
}

/** RFC 3339 text, kept as it is: the answer is the very string the resolver (and REST) gives. */
export const DateTime = new GraphQLScalarType({
  name: 'DateTime',
  serialize: dateTime,
  parseValue: dateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new Error(`DateTime cannot represent ${literalShown(ast)}: not a string literal`);
    return inLiteral(() => dateTime(ast.value));
  },
});

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/**
 * Gives a router's schema (built from the supergraph, where custom scalars take anything) the
 * platform's input rules, in place: variables and literals are then refused before any subgraph is
 * asked, with the path and the reason, as graphql-js does for String and ID.
 */
export function checkScalarInputs(schema: GraphQLSchema): void {
  for (const scalar of [SafeInt, DateTime]) {
    const type = schema.getType(scalar.name);
    if (isScalarType(type)) Object.assign(type, { parseValue: scalar.parseValue, parseLiteral: scalar.parseLiteral });
  }
}
