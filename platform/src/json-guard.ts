/**
 * What any JSON given to the system must be, before its schema is even looked at: what PostgreSQL
 * can store and what can be read back. One walk, without recursion (a value nested thousands of
 * levels deep must not overflow the stack of the code that refuses it).
 */

/** Levels of objects and arrays an input may nest, the input object itself being level 1. */
export const MAX_INPUT_DEPTH = 32;

/** Levels a whole request body may nest: an input plus its envelope (GraphQL variables, JSON-RPC params). */
export const MAX_BODY_DEPTH = MAX_INPUT_DEPTH + 8;

const LIMIT = Number.MAX_SAFE_INTEGER;

function textProblem(text: string): string | null {
  // U+0000 cannot be stored in text or jsonb; a lone surrogate is not Unicode and jsonb refuses it.
  if (text.includes('\u0000')) return 'contains U+0000, which cannot be stored';
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) return 'contains a lone UTF-16 surrogate (not valid Unicode)';
  return null;
}

/** Where a problem is: the path, cut short when a value is deeply nested. */
function named(path: string): string {
  if (!path) return 'input';
  const parts = path.split('.');
  return parts.length > 4 ? `${parts.slice(0, 3).join('.')}.….${parts[parts.length - 1]}` : path;
}

/**
 * The first reason `value` cannot be taken, naming where it is (`metadata.a.0`), or null. Refused:
 * nesting deeper than `maxDepth`, U+0000 or lone surrogates in any string or key, the key
 * `__proto__` (the REST body parser refuses it too), numbers that are not finite or lie outside the
 * safe-integer range (JSON would silently change them). `structureOnly` checks nesting and
 * `__proto__` alone: a request body's texts and numbers are judged with its input, which names them.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH, structureOnly = false): string | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { value: v, path, depth } = top;
    if (structureOnly && (v === null || typeof v !== 'object')) continue;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return `${named(path)} ${problem}`;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${named(path)} must be a finite number`;
      if (Math.abs(v) > LIMIT) return `${named(path)} must lie within ±${LIMIT} (the safe-integer range)`;
    } else if (v !== null && typeof v === 'object') {
      if (depth + 1 > maxDepth) return `${named(path)} nests deeper than ${maxDepth} levels`;
      const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
      for (const [key, item] of entries) {
        const keyProblem = key === '__proto__' ? 'is a reserved name' : structureOnly ? null : textProblem(key);
        const at = path ? `${path}.${key}` : key;
        if (keyProblem) return `the key ${JSON.stringify(key.replaceAll('\u0000', '\\u0000'))} of ${named(path)} ${keyProblem}`;
        stack.push({ value: item, path: at, depth: depth + 1 });
      }
    }
  }
  return null;
}
