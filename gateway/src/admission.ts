import { AppError, newId, signContext, unauthorized, type CallContext } from '@backoffice/platform';
import type { IdentityClient } from './identity-client';
import type { RateDecision, RateLimiter } from './rate-limit';

/** What the gateway knows of a request once it is let in: the call context and its signed form. */
export interface Admission {
  call: CallContext;
  /** The signed context for subgraphs in other processes; signed on first use (in-process ones take `call`). */
  signed(): string;
  rate: RateDecision;
  /** The bucket the request spends from. */
  rateKey: string;
}

const REQUEST_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : newId('req');
}

export function rateHeaders(rate: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    RateLimit: `limit=${rate.limit}, remaining=${rate.remaining}, reset=${rate.reset}`,
    'RateLimit-Policy': `${rate.limit};w=${Math.max(1, rate.reset)}`,
  };
  if (!rate.allowed) headers['Retry-After'] = String(rate.retryAfter);
  return headers;
}

export class RateLimited extends AppError {
  constructor(readonly rate: RateDecision) {
    super('rate_limited', `rate limit exceeded; retry after ${rate.retryAfter}s`);
  }
}

/** Authenticates the bearer (if any) and spends one token of its credential's bucket. */
export class Gatekeeper {
  constructor(
    private readonly identity: IdentityClient,
    private readonly limiter: RateLimiter,
    private readonly secret: string,
  ) {}

  async admit(authorization: string | undefined, ip: string, requestId: string, operation: string): Promise<Admission> {
    let actor = null;
    if (authorization !== undefined) {
      // Failed authentications spend from the address's own bucket, checked before the lookup:
      // guessing tokens is throttled without costing the database a query.
      const failures = `authfail:${ip}`;
      const standing = await this.limiter.consume(failures, 0);
      if (standing.remaining < 1) throw new RateLimited(standing);
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      actor = match ? await this.identity.authenticate(match[1]) : null;
      if (!actor) {
        await this.limiter.consume(failures);
        throw unauthorized(match ? 'the API key is unknown, expired or revoked' : 'the Authorization header must be "Bearer <token>"');
      }
    }
    // Counted per credential (token generation); calls without one share a bucket per address.
    const rateKey = actor ? `cred:${actor.credential_id}` : `ip:${ip}`;
    const rate = await this.limiter.consume(rateKey);
    if (!rate.allowed) {
      if (actor) {
        this.identity.recordAudit({
          tenant_id: actor.tenant_id,
          actor_id: actor.api_key_id,
          actor_name: actor.name,
          operation,
          outcome: 'rate_limited',
          request_id: requestId,
        });
      }
      throw new RateLimited(rate);
    }
    const call: CallContext = { actor, request_id: requestId };
    let signed: string | undefined;
    return { call, signed: () => (signed ??= signContext(this.secret, call)), rate, rateKey };
  }

  /**
   * Spends `cost` more tokens for a request that does more than one thing (a GraphQL document with
   * several root fields); throws rate_limited, audited, when the bucket cannot pay.
   */
  async charge(admission: Admission, cost: number, operation: string): Promise<void> {
    if (cost <= 0) return;
    const rate = await this.limiter.consume(admission.rateKey, cost);
    if (!rate.allowed) {
      this.refused(admission.call, operation, 'rate_limited');
      throw new RateLimited(rate);
    }
  }

  /** Records a refusal the gateway itself decided (scope or schema, before any subgraph was asked). */
  refused(call: CallContext, operation: string, kind: string): void {
    if (!call.actor) return;
    this.identity.recordAudit({
      tenant_id: call.actor.tenant_id,
      actor_id: call.actor.api_key_id,
      actor_name: call.actor.name,
      operation,
      outcome: kind,
      request_id: call.request_id,
    });
  }
}
