import { AppError } from '@backoffice/platform';
import type { FastifyRequest } from 'fastify';

/**
 * The admin front-end's operator session, kept in an HttpOnly cookie so that its token never reaches
 * page scripts (`POST /v1/auth/session` sets it, `DELETE` ends it: auth-routes.ts). A browser
 * sends a cookie with any request to this host, a forged one included, so the cookie counts only on a
 * request of the gateway's own origin: the one rule, written here and used by every surface that
 * takes it (/graphql on both paths, the REST shim, the event stream, the session routes).
 */
export const SESSION_COOKIE = 'bo_session';

/** One cookie's value from a Cookie header. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie of a session: HttpOnly (no page script reads it), SameSite=Strict (no other site's
 * page sends it), Secure when the request came over https; Max-Age 0 clears it.
 */
export function sessionCookie(request: FastifyRequest, token: string, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** scheme://host as the request reached the gateway (x-forwarded-proto and -host with TRUST_PROXY), as a browser writes an origin. */
function ownOrigin(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses (403 `forbidden`) a request a page of another origin made: its `Origin`, when sent, must be
 * the gateway's own, and `Sec-Fetch-Site`, when sent, `same-origin`. A browser sends at least one of
 * them on every request that could carry a forged intent (Origin on every POST, Sec-Fetch-Site on
 * every request of a current browser); a program sends neither and is not a browser's victim.
 */
export function assertSameOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    throw new AppError('forbidden', `the session cookie is taken only from the gateway's own pages; this request came from a ${site} page (Sec-Fetch-Site)`);
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== ownOrigin(request))
    throw new AppError(
      'forbidden',
      `the session cookie is taken only from the gateway's own origin, not from ${origin.slice(0, 200)}: send Authorization instead`,
    );
}

/**
 * The credential to admit a request with: its Authorization header as given; else the session cookie
 * as a bearer, once the request is shown to come from the gateway's own origin (else 403: a foreign
 * page's request is refused, never run as anonymous); else none.
 */
export function credentialOf(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined) return request.headers.authorization;
  const token = cookieOf(request.headers.cookie, SESSION_COOKIE);
  if (!token) return undefined;
  assertSameOrigin(request);
  return `Bearer ${token}`;
}
