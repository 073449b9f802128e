import { mergedReads, type TSchema } from '@backoffice/platform';
import { OPERATIONS } from '../gateway/src/subgraphs';

type Schema = TSchema & Record<string, any>;

/** Every place an input lets a caller send more than a bounded amount. */
function unbounded(schema: Schema, path: string): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap((s: Schema) => unbounded(s, path));
  if (schema.type === 'string' && !schema.enum && schema.maxLength === undefined) return [`${path}: string without maxLength`];
  if (schema.type === 'array') return [...(schema.maxItems === undefined ? [`${path}: array without maxItems`] : []), ...unbounded(schema.items, `${path}[]`)];
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties).flatMap(([key, value]) => unbounded(value as Schema, path ? `${path}.${key}` : key));
  }
  // Open JSON (metadata) is bounded by the body (1 MiB) and the nesting depth (json-guard).
  return [];
}

describe('input bounds', () => {
  const inputs = [...[...OPERATIONS.values()].map(({ operation }) => operation), ...mergedReads];

  it.each(inputs.map((op) => [op.name, op.input]))('%s bounds every string and list it takes', (_name, input) => {
    expect(unbounded(input as Schema, '')).toEqual([]);
  });

  it('finds an unbounded string or list when there is one', () => {
    expect(
      unbounded({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'string', maxLength: 1 } } } } as never, ''),
    ).toEqual(['a: string without maxLength', 'b: array without maxItems']);
  });
});
