import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Cross-origin access for the admin front-end, served from an origin of its own (`ADMIN_ORIGINS`).
 * Only /graphql answers other origins: REST, MCP and the rest are for programs, which need no CORS,
 * and a browser page of another origin gets nothing from them. A route added for the admin (an event
 * stream) joins by its path here.
 */
export const CORS_PATHS: ReadonlySet<string> = new Set(['/graphql']);

/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours; 10 minutes here). */
export const CORS_MAX_AGE_SECONDS = 600;

/** What the admin may send: its credential, JSON, and the headers the gateway reads. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-request-id', 'traceparent', 'tracestate', 'apollo-require-preflight', 'x-apollo-operation-name'];

/** What the admin may read beyond the safelisted headers: the rate it has left and the id to quote. */
const EXPOSED_HEADERS = ['ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id'];

/**
 * The origins of `ADMIN_ORIGINS` (comma-separated, exact: `https://admin.example.com,http://localhost:5173`).
 * An entry that is not a bare http(s) origin (a path, a trailing slash, `*`, upper case) is refused at
 * start: a near miss would otherwise fail only in the browser, as a CORS error naming nothing.
 */
export function adminOriginsOf(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
    } catch {
      origin = undefined;
    }
    if (origin !== entry) {
      throw new Error(
        `ADMIN_ORIGINS: ${JSON.stringify(entry)} is not an origin; give scheme://host[:port] with no path or trailing slash, ` +
          `lower case, comma-separated (e.g. https://admin.example.com,http://localhost:5173)${origin ? `; did you mean ${origin}?` : ''}`,
      );
    }
  }
  return entries;
}

/**
 * @fastify/cors answers a listed origin's preflight (204) and marks its requests; an origin not listed
 * gets no CORS header and meets what it met before (Apollo's CSRF refusal). Other routes are left out
 * through their route config, so their answers do not vary by Origin (the products read is cached by CDNs).
 */
export async function registerCors(app: FastifyInstance, origins: string[]): Promise<void> {
  if (origins.length === 0) return;
  app.addHook('onRoute', (route) => {
    if (!CORS_PATHS.has(route.url ?? '')) route.config = { ...(route.config as object), cors: false } as typeof route.config;
  });
  const listed = new Set(origins);
  await app.register(fastifyCors, {
    // false (not a list) for another origin: no CORS at all, so its preflight goes on to Apollo's refusal.
    origin: (origin, done) => done(null, origin !== undefined && listed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: true,
    maxAge: CORS_MAX_AGE_SECONDS,
  });
}
