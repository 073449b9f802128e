import { jsonProblem, MAX_BODY_DEPTH, MAX_INPUT_DEPTH } from '../../platform/src/json-guard';
import { t as schema } from '../../platform/src/schema';
import { validate } from '../../platform/src/validation';

/** What any JSON given to the system must be (platform/src/json-guard.ts), without the system. */

/** `levels` nested arrays around 1: `[[1]]` is 2 levels. */
const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('jsonProblem', () => {
  it('takes ordinary JSON', () => {
    expect(jsonProblem({ a: 'text ✓ 𝄞', b: [1, 2.5, -3, null, true], c: { d: 9007199254740991 } })).toBeNull();
  });

  it('names the field holding what PostgreSQL cannot store or JSON would change', () => {
    expect(jsonProblem({ a: { b: 'x\u0000y' } })).toBe('a.b contains U+0000, which cannot be stored');
    expect(jsonProblem({ a: ['ok', '\ud800'] })).toBe('a.1 contains a lone UTF-16 surrogate (not valid Unicode)');
    expect(jsonProblem({ a: { 'k\u0000': 1 } })).toBe('the key "k\\\\u0000" of a contains U+0000, which cannot be stored');
    expect(jsonProblem(JSON.parse('{"a":{"__proto__":{"x":1}}}'))).toBe('the key "__proto__" of a is a reserved name');
    expect(jsonProblem({ n: Infinity })).toBe('n must be a finite number');
    expect(jsonProblem(JSON.parse('{"n":12345678901234567890}'))).toMatch(/^n must lie within ±9007199254740991/);
  });

  it('bounds nesting, counting the input itself, without recursion', () => {
    expect(jsonProblem({ m: JSON.parse(nested(MAX_INPUT_DEPTH - 1)) })).toBeNull();
    expect(jsonProblem({ m: JSON.parse(nested(MAX_INPUT_DEPTH)) })).toMatch(/nests deeper than 32 levels$/);
    expect(jsonProblem(JSON.parse(nested(100_000)), 64)).toMatch(/nests deeper than 64 levels$/);
  });
});

describe('uniqueItems', () => {
  it('compares items by value, "__proto__" and objects with their keys in another order included', () => {
    const ids = schema.object({ ids: schema.array(schema.string({ maxLength: 20 }), { uniqueItems: true }) });
    expect(() => validate(ids, { ids: ['__proto__', '__proto__'] })).toThrow('ids must not contain the same item twice');
    expect(() => validate(ids, { ids: ['a', 'a'] })).toThrow('ids must not contain the same item twice');
    expect(validate(ids, { ids: ['a', 'b', '__proto__'] })).toEqual({ ids: ['a', 'b', '__proto__'] });
    const pairs = schema.object({ p: schema.array(schema.record(), { uniqueItems: true }) });
    expect(() =>
      validate(pairs, {
        p: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
    ).toThrow('must not contain the same item twice');
  });
});

describe('jsonProblem beyond one field', () => {
  it('names the input itself, and a deep path by its first three parts and its last', () => {
    expect(jsonProblem('a\u0000')).toBe('input contains U+0000, which cannot be stored');
    expect(jsonProblem({ a: { b: { c: { d: { e: -Infinity } } } } })).toBe('a.b.c.….e must be a finite number');
    expect(jsonProblem({ a: { b: { c: 'x\u0000' } } })).toBe('a.b.c contains U+0000, which cannot be stored');
    expect(jsonProblem({ n: -9007199254740991, m: 9007199254740991 })).toBeNull();
    expect(jsonProblem({ n: Number.NaN })).toBe('n must be a finite number');
  });

  it('checks nesting and __proto__ alone when told to judge the structure only', () => {
    expect(jsonProblem({ a: 'x\u0000', b: Infinity, 'k\u0000': '\ud800' }, MAX_INPUT_DEPTH, true)).toBeNull();
    expect(jsonProblem(JSON.parse('{"a":[{"__proto__":1}]}'), MAX_INPUT_DEPTH, true)).toBe('the key "__proto__" of a.0 is a reserved name');
    expect(jsonProblem(JSON.parse(nested(MAX_BODY_DEPTH + 1)), MAX_BODY_DEPTH, true)).toMatch(/nests deeper than 40 levels$/);
    expect(jsonProblem(JSON.parse(nested(MAX_BODY_DEPTH)), MAX_BODY_DEPTH, true)).toBeNull();
  });
});
