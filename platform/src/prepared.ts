import type { TSchema } from '@sinclair/typebox';
import { unwrapNullable } from './schema';

/** What an HTTP cache may do with a prepared answer: its strong validator, how long it stays fresh, what purges it. */
export interface HttpCaching {
  /** A strong entity tag, quoted (`"v42-…"`): the same tag is the same bytes. */
  etag: string;
  /** `Cache-Control: public, max-age=…, stale-while-revalidate=…` in seconds. */
  maxAge: number;
  staleWhileRevalidate: number;
  /** Purge keys for a CDN (`Surrogate-Key`, space-separated; `Cache-Tag`, comma-separated). */
  tags: readonly string[];
}

/**
 * A read's answer rendered ahead of time: JSON text checked against the result schema when it was
 * written (see the catalog's documents), sent by the REST shim as bytes, parsed only for surfaces
 * that need an object (GraphQL, MCP).
 */
export class PreparedJson {
  constructor(
    readonly text: string,
    readonly caching?: HttpCaching,
  ) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

type Walk = (value: unknown) => unknown;
const walks = new WeakMap<TSchema, Walk>();

/**
 * The part of `value` a narrower schema declares (a projection such as the catalog's feed): closed
 * objects keep only their declared keys, arrays are walked, anything else is kept whole. Compiled
 * once per schema.
 */
export function projectTo(schema: TSchema, value: unknown): unknown {
  return walkOf(schema)(value);
}

function walkOf(schema: TSchema): Walk {
  const known = walks.get(schema);
  if (known) return known;
  const s = (unwrapNullable(schema) ?? schema) as TSchema & { type?: string; items?: TSchema; properties?: Record<string, TSchema>; additionalProperties?: unknown };
  let walk: Walk = (value) => value;
  walks.set(schema, (value) => walk(value)); // a recursive schema refers to itself
  if (s.type === 'array' && s.items) {
    const item = walkOf(s.items);
    walk = (value) => (Array.isArray(value) ? value.map(item) : value);
  } else if (s.type === 'object' && s.properties && s.additionalProperties === false) {
    const fields = Object.entries(s.properties).map(([key, prop]) => [key, walkOf(prop)] as const);
    walk = (value) => {
      if (value === null || typeof value !== 'object') return value;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of fields) if (source[key] !== undefined) out[key] = inner(source[key]);
      return out;
    };
  }
  walks.set(schema, walk);
  return walk;
}

/** Whether an `If-None-Match` header names this tag (weak comparison, as RFC 9110 asks for it; `*` matches any). */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((token) => {
    const t = token.trim();
    return t === '*' || t.replace(/^W\//, '') === bare;
  });
}
