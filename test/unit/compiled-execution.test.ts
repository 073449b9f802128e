import { buildSchema, parse, type GraphQLFieldResolver } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { compilable } from '../../gateway/src/graphql-fast-path/compiled-execution';

/*
 * Which subgraph documents graphql-jit may run (gateway/src/graphql-fast-path/compiled-execution.ts): the ones it answers as
 * graphql-js does. The system-level comparison is test/graphql-lane.test.ts; here, the rules alone.
 */
const schema = buildSchema(`
  type Query { x: X, z_x: Z, list(first: Int, after: String): [Z!] }
  type X { y_z: String }
  type Z { y: String }
`);
const fieldName: GraphQLFieldResolver<unknown, unknown> = (_source, _args, _context, info) => info.fieldName;
for (const [type, field] of [
  ['X', 'y_z'],
  ['Z', 'y'],
] as const) {
  const definition = schema.getType(type);
  if (definition && 'getFields' in definition) Object.assign(definition.getFields()[field], { resolve: fieldName });
}
const rootValue = { x: {}, z_x: {}, list: [{}] };
const allowed = (text: string) => compilable(schema, parse(text));

describe('documents compiled with graphql-jit', () => {
  it('plain fields, variables and whole-number literals are compiled', () => {
    expect(allowed('{ x { y_z } }')).toBe(true);
    expect(allowed('query L($after: String) { list(first: 2, after: $after) { y } }')).toBe(true);
  });

  it('two paths that graphql-jit names alike are not: it would hand one resolver the other field’s info', async () => {
    const text = '{ x { y_z } z_x { y } }';
    const compiled = compileQuery(schema, parse(text));
    if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile the document');
    // What the rule keeps out: `y_z` resolved with the info of `y` (both named `y_z_x`).
    expect(await compiled.query(rootValue, {}, {})).toEqual({ data: { x: { y_z: 'y' }, z_x: { y: 'y' } } });
    expect(allowed(text)).toBe(false);
  });

  it('literals that graphql-jit writes into its code, aliases, directives, spreads and defaults are not', () => {
    expect(allowed('{ list(after: "__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d1") { y } }')).toBe(false);
    expect(allowed('{ list(first: 1.5) { y } }')).toBe(false);
    expect(allowed('{ x { __proto__: y_z } }')).toBe(false);
    expect(allowed('query Q($s: Boolean!) { x @include(if: $s) { y_z } }')).toBe(false);
    expect(allowed('{ x { ...F } } fragment F on X { y_z }')).toBe(false);
    expect(allowed('query Q($n: Int! = 1) { list(first: $n) { y } }')).toBe(false);
    expect(allowed('query Q($__proto__: Int) { list(first: $__proto__) { y } }')).toBe(false);
  });
});
