import { buildSchema, parse } from 'graphql';
import { COST_MEMO, documentCost } from '../../platform/src/graphql-cost';

/** The cost estimate, kept per document and variables: the same answer as worked out afresh, never another request's. */
const schema = buildSchema(`
  type Query { products(input: PageInput): Page }
  input PageInput { limit: Int, q: String }
  type Page { items: [Product] }
  type Product { title: String, skus: [Sku] }
  type Sku { code: String }
`);
const TEXT =
  'query Feed($input: PageInput, $n: Int!) { products(input: $input) { items { title skus { code } } } n: products(input: { limit: $n }) { items { title } } }';
const document = parse(TEXT);

describe('documentCost', () => {
  it('answers each page size its own cost, asked again and in turn', () => {
    const fresh = (limit: number) => documentCost(schema, parse(TEXT), { input: { limit }, n: 1 }, 'Feed');
    for (const round of [1, 2]) {
      for (const limit of [24, 100, 24, 3]) {
        expect([round, documentCost(schema, document, { input: { limit }, n: 1 }, 'Feed')]).toEqual([round, fresh(limit)]);
      }
    }
    expect(documentCost(schema, document, { input: { limit: 100 }, n: 1 }, 'Feed')).toBeGreaterThan(
      documentCost(schema, document, { input: { limit: 24 }, n: 1 }, 'Feed'),
    );
  });

  it('refuses variables that do not fit every time, after a fitting request was estimated', () => {
    expect(documentCost(schema, document, { input: { limit: 5 }, n: 2 }, 'Feed')).toBeGreaterThan(0);
    // Twice: a refusal is not kept as an answer.
    for (let i = 0; i < 2; i++) {
      expect(() => documentCost(schema, document, { input: { limit: 5 } }, 'Feed')).toThrow(/\$n/);
      expect(() => documentCost(schema, document, { input: { limit: 'five' }, n: 2 }, 'Feed')).toThrow(/limit|Int/);
    }
  });

  it('tells apart variables JSON would write alike (a value undefined), and long ones', () => {
    const withUndefined = { input: { limit: 100, q: undefined }, n: 1 };
    expect(documentCost(schema, document, withUndefined, 'Feed')).toBe(documentCost(schema, parse(TEXT), withUndefined, 'Feed'));
    expect(() => documentCost(schema, document, { input: { limit: 5 }, n: undefined }, 'Feed')).toThrow(/\$n/);
    const long = { input: { limit: 7, q: 'x'.repeat(COST_MEMO.keyBytes) }, n: 1 };
    expect(documentCost(schema, document, long, 'Feed')).toBe(documentCost(schema, document, { input: { limit: 7 }, n: 1 }, 'Feed'));
  });
});
