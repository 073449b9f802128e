import type { TSchema } from '@sinclair/typebox';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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

/** Below this many bytes compression saves too little to pay for itself (and may grow the body). */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * How each coding compresses an answer: fast for one made for a request, smaller for one a cache
 * keeps (compressed once, sent many times; about as long to make at these two levels).
 */
const COMPRESS = {
  gzip: (body: Buffer, kept: boolean) => gzipSync(body, { level: kept ? 6 : 1 }),
  br: (body: Buffer, kept: boolean) =>
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: kept ? 4 : 1,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
};

/**
 * A read's answer rendered ahead of time: JSON checked against the result schema when it was
 * written (see the catalog's documents), kept as UTF-8 bytes and sent by the REST shim as they are
 * (or compressed once per coding, for clients that take one), parsed only for surfaces that need an
 * object (GraphQL, MCP).
 */
export class PreparedJson {
  readonly body: Buffer;
  private readonly compressed: Partial<Record<keyof typeof COMPRESS, Buffer | null>> = {};
  /** The cache keeping this answer, told when an encoding adds to its bytes. */
  private keeper?: () => void;

  constructor(
    text: string,
    readonly caching?: HttpCaching,
  ) {
    this.body = Buffer.from(text, 'utf8');
  }

  /** Marks the answer kept by a cache, which `grown` weighs again each time an encoding is made. */
  keptBy(grown: () => void): void {
    this.keeper = grown;
  }

  /** The body in `coding`, compressed on first use and kept; null when the body is too small to gain. */
  encoded(coding: keyof typeof COMPRESS): Buffer | null {
    let found = this.compressed[coding];
    if (found === undefined) {
      this.compressed[coding] = found = this.body.length < COMPRESS_FROM_BYTES ? null : COMPRESS[coding](this.body, this.keeper !== undefined);
      if (found) this.keeper?.();
    }
    return found;
  }

  /** Bytes this answer holds (body and the encodings made of it). */
  get size(): number {
    return Object.values(this.compressed).reduce((bytes, encoded) => bytes + (encoded?.length ?? 0), this.body.length);
  }

  toJSON(): unknown {
    return JSON.parse(this.body.toString('utf8'));
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
  const s = (unwrapNullable(schema) ?? schema) as TSchema & {
    type?: string;
    items?: TSchema;
    properties?: Record<string, TSchema>;
    additionalProperties?: unknown;
  };
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
