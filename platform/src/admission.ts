import { GraphQLError } from 'graphql';
import type { Actor } from './actor';
import { type AppError, RatedError, RateLimited } from './errors';
import { newId } from './ids';
import type { RateDecision, RateLimiter } from './rate-limit';

/**
 * Letting a request in by its `Authorization: Bearer` header, shared by the gateway (its Gatekeeper)
 * and by a subgraph answering a router that forwards the header (`subgraph-access.ts`).
 */

/** Who a bearer token is: identity's Authenticator in its own process, its `/internal/authenticate` elsewhere. */
export type Authenticate = (token: string) => Promise<Actor | null>;

const REQUEST_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : newId('req');
}

/**
 * The headers of a limit's decision (IETF draft: `RateLimit`, `RateLimit-Policy`); a refusal's
 * also `Retry-After`, in whole seconds and at least 1 (0 would invite an immediate retry).
 */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    RateLimit: `limit=${rate.limit}, remaining=${rate.remaining}, reset=${rate.reset}`,
    'RateLimit-Policy': `${rate.limit};w=${rate.window}`,
  };
  if (!rate.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil(rate.retryAfter)));
  return headers;
}

/**
 * A refusal of a whole GraphQL-over-HTTP request, before any field runs: the kind's status, its
 * details in the extensions, and a rated refusal's headers (those of the limit that refused).
 */
export function requestRefusal(error: AppError): GraphQLError {
  const headers = new Map(Object.entries(error instanceof RatedError ? rateHeaders(error.rate) : {}));
  return new GraphQLError(error.message, { extensions: { code: error.kind, ...error.details, http: { status: error.status, headers } } });
}

/** A failed authentication, with the decision of the address's failure bucket it was charged to. */
export class Unauthenticated extends RatedError {
  constructor(message: string, rate: RateDecision) {
    super('unauthorized', message, rate);
  }
}

export interface BearerAdmission {
  actor: Actor | null;
  rate: RateDecision;
  /** The bucket the request spends from: `cred:<credential id>`, or `ip:<address>` without a credential. */
  rateKey: string;
}

export interface AdmitBearerOptions {
  authenticate: Authenticate;
  limiter: RateLimiter;
  /** Told when a known actor is refused for its rate (to audit it). */
  rateLimited?: (actor: Actor) => void;
}

/**
 * Authenticates the bearer (if any) and spends one token of its credential's bucket (or, without a
 * credential, of the address's). Throws Unauthenticated or RateLimited.
 */
export async function admitBearer(authorization: string | undefined, ip: string, options: AdmitBearerOptions): Promise<BearerAdmission> {
  const { limiter } = options;
  // Gives a reserved failure token back without holding up the request (the limiters never throw; a rejection is dropped).
  const refund = (key: string) => void limiter.refund(key, 1).catch(() => undefined);
  let actor: Actor | null = null;
  if (authorization !== undefined) {
    // Failed authentications spend from the address's own bucket. One token is reserved before the
    // lookup (so guesses sent at once are throttled like guesses in a row, and an empty bucket
    // costs the database no query) and given back when the token turns out valid.
    const failures = `authfail:${ip}`;
    const reserved = await limiter.consume(failures);
    if (!reserved.allowed) throw new RateLimited(reserved);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    try {
      actor = match ? await options.authenticate(match[1]) : null;
    } catch (error) {
      // Not a judgement on the token (e.g. the database is away): the reservation is not owed.
      refund(failures);
      throw error;
    }
    if (!actor) {
      throw new Unauthenticated(match ? 'the API key is unknown, expired or revoked' : 'the Authorization header must be "Bearer <token>"', reserved);
    }
    refund(failures);
  }
  // Counted per credential (token generation); calls without one share a bucket per address.
  const rateKey = actor ? `cred:${actor.credential_id}` : `ip:${ip}`;
  const rate = await limiter.consume(rateKey);
  if (!rate.allowed) {
    if (actor) options.rateLimited?.(actor);
    throw new RateLimited(rate);
  }
  return { actor, rate, rateKey };
}
