import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { buildSchema, getIntrospectionQuery, getNullableType, type GraphQLObjectType, isListType, isObjectType, parse } from 'graphql';
import { COST_MEMO, documentCost, GRAPHQL_LIMITS, listSizesOf, useListSizes } from '../../platform/src/graphql-cost';

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

/** A catalog in miniature: each list declares its most items, as the generated subgraph schemas do. */
const sized = buildSchema(`
  directive @listSize(assumedSize: Int) on FIELD_DEFINITION
  type Query {
    product(id: ID!): Product
    products(first: Int, after: String): ProductConnection
  }
  type ProductConnection { edges: [ProductEdge!]! @listSize(assumedSize: 100) totalCount: Int }
  type ProductEdge { node: Product! }
  type Product { id: ID! tags: [String!]! @listSize(assumedSize: 30) skus: [Sku!]! @listSize(assumedSize: 100) }
  type Sku { id: ID! product: Product media: [Media!]! }
  type Media { url: String }
`);
const cost = (text: string, variables: Record<string, unknown> = {}) => documentCost(sized, parse(text), variables);

describe('the cost estimate multiplies by the most items each list holds', () => {
  it('counts a list at its declared @listSize, a list of scalars as one field', () => {
    // product 1 + id 1 + skus (1 + 100 × (1 + id 1)) + tags 1
    expect(cost('{ product(id: "p") { id skus { id } tags } }')).toBe(1 + 1 + (1 + 100 * 1) + 1);
  });

  it('costs a cycle through the graph like any nesting: each turn multiplies', () => {
    const turns = (n: number): string => (n === 0 ? '{ id }' : `{ id product { skus ${turns(n - 1)} } }`);
    const two = cost(`{ product(id: "p") { skus ${turns(1)} } }`);
    const four = cost(`{ product(id: "p") { skus ${turns(3)} } }`);
    expect(two).toBeGreaterThan(100 ** 2);
    expect(four).toBeGreaterThan(100 ** 4);
  });

  it('scales a page to the size asked, its lists counted at their most', () => {
    const page = (first: number) => cost(`query($first: Int) { products(first: $first) { edges { node { id } } } }`, { first });
    expect(page(100)).toBe(1 + (1 + 100 * (1 + 1)));
    expect(page(10)).toBe(1 + Math.ceil(((1 + 100 * (1 + 1)) * 10) / 100));
  });

  it('counts a list that declares no size at the unsized bound', () => {
    expect(cost('{ product(id: "p") { skus { media { url } } } }')).toBe(1 + 1 + 100 * (1 + GRAPHQL_LIMITS.unsizedList * 1));
  });
});

describe('list sizes', () => {
  it('are read from a schema document, the supergraph’s included', () => {
    const sizes = listSizesOf(parse('type T { a: [Int] @listSize(assumedSize: 7) b: [Int] } extend type U { c: [T] @listSize(assumedSize: 3) }'));
    expect([...sizes]).toEqual([
      ['T.a', 7],
      ['U.c', 3],
    ]);
  });

  it('are given to a schema that lost its directives (the gateway’s API schema)', () => {
    const bare = buildSchema('type Query { list: [Item!]! } type Item { id: ID }');
    const before = documentCost(bare, parse('{ list { id } }'), {});
    useListSizes(bare, new Map([['Query.list', 3]]));
    expect([before, documentCost(bare, parse('{ list { id } }'), {})]).toEqual([1 + GRAPHQL_LIMITS.unsizedList, 1 + 3]);
  });
});

describe('the committed supergraph', () => {
  it('declares the most items of every list an answer can hold', () => {
    const sdl = readFileSync(join(__dirname, '..', '..', 'supergraph.graphql'), 'utf8');
    const sizes = listSizesOf(parse(sdl));
    const api = Supergraph.build(sdl).apiSchema().toGraphQLJSSchema();
    const lists = Object.values(api.getTypeMap())
      .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'))
      .flatMap((type) => Object.values(type.getFields()).flatMap((field) => (isListType(getNullableType(field.type)) ? [`${type.name}.${field.name}`] : [])));
    expect(lists.length).toBeGreaterThan(90);
    expect(lists.filter((key) => !sizes.has(key))).toEqual([]);
    expect(sizes.get('Product.skus')).toBe(100);
  });
});

describe('introspection', () => {
  it(`counts its lists ${GRAPHQL_LIMITS.introspectionList} long: an explorer's query is within the limit, a cycle through types is not`, () => {
    expect(documentCost(sized, parse(getIntrospectionQuery()), {})).toBeLessThan(GRAPHQL_LIMITS.maxCost / 10);
    const turns = (n: number): string => (n === 0 ? '{ name }' : `{ name fields { type ${turns(n - 1)} } }`);
    expect(documentCost(sized, parse(`{ __schema { types ${turns(10)} } }`), {})).toBeGreaterThan(GRAPHQL_LIMITS.maxCost);
  });
});
