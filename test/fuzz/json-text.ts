/**
 * Values JSON.stringify cannot express, and the writers that can: a number kept as its raw text
 * (`1e400`, `12345678901234567890`) and an own `__proto__` key. Request bodies and GraphQL literals
 * are written from these, so a case says exactly which bytes were sent.
 */

/** A number sent as this exact text (JSON.parse would turn `1e400` into Infinity before we could send it). */
export class RawNumber {
  constructor(readonly text: string) {}
}

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** Sets `key` as an own, enumerable property, even `__proto__` (plain assignment would replace the prototype). */
export function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawNumber);
}

/** A copy that keeps own `__proto__` keys and raw numbers. */
export function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) put(out, key, clone(v[key]));
    return out as T;
  }
  return v;
}

/** JSON text; strings go through JSON.stringify, so NUL and lone surrogates travel as `\u` escapes (ASCII). */
export function toJsonText(v: unknown): string {
  if (v instanceof RawNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${toJsonText(v[k])}`)
      .join(',')}}`;
  if (v === undefined) return 'null';
  return JSON.stringify(v);
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Whether `v` can be written as a GraphQL literal (object keys must be GraphQL names). */
export function literalExpressible(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(literalExpressible);
  if (isPlainObject(v)) return Object.keys(v).every((k) => GRAPHQL_NAME.test(k) && literalExpressible(v[k]));
  return true;
}

/** A GraphQL value literal. Strings as JSON strings: GraphQL reads the same escapes. */
export function toGraphqlLiteral(v: unknown): string {
  if (v instanceof RawNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(toGraphqlLiteral).join(', ')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .map((k) => `${k}: ${toGraphqlLiteral(v[k])}`)
      .join(', ')}}`;
  if (v === null || v === undefined) return 'null';
  return JSON.stringify(v);
}

/** Does the value hold anything only raw JSON text can carry (raw numbers, `__proto__` keys)? */
export function needsRawText(v: unknown): boolean {
  if (v instanceof RawNumber) return true;
  if (Array.isArray(v)) return v.some(needsRawText);
  if (isPlainObject(v)) return Object.keys(v).some((k) => k === '__proto__' || needsRawText(v[k]));
  return false;
}

/** `depth` levels of alternating objects and arrays around `leaf` (the outermost counts as 1). */
export function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { d: v };
  return v;
}

/** Short text for reports: long strings are cut, so a 1 MiB case still prints on one line. */
export function preview(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;
}
