import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** The content codings the gateway compresses with (RFC 9110 8.4.1); a body not sent in one goes as it is. */
export type Coding = 'br' | 'gzip';

interface PreferringNegotiator {
  encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
}

/** Distinct `Accept-Encoding` headers whose choice is remembered (clients send a handful). */
const REMEMBERED = 64;
const chosen = new Map<string, Coding | null>();

/**
 * The coding to send a body in: the one of `offered` the client takes with the highest weight (q > 0),
 * brotli first on a tie (at quality 1 faster than gzip at level 1 on a page of products, and as small:
 * docs/decisions/storefront-pages.md); null for the body as it is (no header, identity preferred, or nothing offered taken).
 */
export function codingOf(request: FastifyRequest, offered: readonly Coding[]): Coding | null {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return null;
  const key = `${offered.join(',')}\n${header}`;
  let coding = chosen.get(key);
  if (coding === undefined) {
    const preferred = [...offered, 'identity'];
    // negotiator 1.x breaks ties by a preference (its published types are still 0.6's, without it).
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as PreferringNegotiator;
    const best = negotiator.encoding(preferred, { preferred });
    coding = offered.find((c) => c === best) ?? null;
    if (chosen.size >= REMEMBERED) chosen.delete(chosen.keys().next().value as string);
    chosen.set(key, coding);
  }
  return coding;
}

/** The strong tag of a representation's encoded form: another tag, as the bytes differ (RFC 9110 8.8.3). */
export const codedTag = (etag: string, coding: Coding): string => `${etag.slice(0, -1)}-${coding === 'gzip' ? 'gz' : coding}"`;
