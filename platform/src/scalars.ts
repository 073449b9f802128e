import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';

function safeInteger(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new GraphQLError(`SafeInt must be an integer from -9007199254740991 to 9007199254740991, got ${JSON.stringify(value)}`);
}

export const SafeInt = new GraphQLScalarType({
  name: 'SafeInt',
  serialize: safeInteger,
  parseValue: safeInteger,
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT) throw new GraphQLError('SafeInt must be an integer literal');
    return safeInteger(Number(ast.value));
  },
});

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
