import { admitBearer, RateLimited, signContext, type CallContext, type RateDecision, type RateLimiter } from '@backoffice/platform';
import type { IdentityClient } from '@backoffice/contracts';

/** What the gateway knows of a request once it is let in: the call context and its signed form. */
export interface Admission {
  call: CallContext;
  /** The signed context for subgraphs in other processes; signed on first use (in-process ones take `call`). */
  signed(): string;
  rate: RateDecision;
  /** The bucket the request spends from. */
  rateKey: string;
}

/** Authenticates the bearer (if any) and spends one token of its credential's bucket. */
export class Gatekeeper {
  constructor(
    private readonly identity: IdentityClient,
    private readonly limiter: RateLimiter,
    private readonly secret: string,
  ) {}

  async admit(authorization: string | undefined, ip: string, requestId: string, operation: string): Promise<Admission> {
    const { actor, rate, rateKey } = await admitBearer(authorization, ip, {
      authenticate: (token) => this.identity.authenticate(token),
      limiter: this.limiter,
      rateLimited: (refused) =>
        this.identity.recordAudit({
          tenant_id: refused.tenant_id,
          actor_id: refused.api_key_id,
          actor_name: refused.name,
          operation,
          outcome: 'rate_limited',
          request_id: requestId,
        }),
    });
    const call: CallContext = { actor, request_id: requestId, client_address: ip };
    let signed: string | undefined;
    return { call, signed: () => (signed ??= signContext(this.secret, call)), rate, rateKey };
  }

  /**
   * Spends `cost` more tokens for a request that does more than one thing (a GraphQL document with
   * several root fields); throws rate_limited, audited, when the bucket cannot pay. Answers the
   * bucket after this charge (what the `RateLimit` header reports), or null when nothing was spent.
   */
  async charge(admission: Admission, cost: number, operation: string): Promise<RateDecision | null> {
    if (cost <= 0) return null;
    const rate = await this.limiter.consume(admission.rateKey, cost);
    if (!rate.allowed) {
      this.refused(admission.call, operation, 'rate_limited');
      throw new RateLimited(rate);
    }
    return rate;
  }

  /**
   * The bearer authenticated again, nothing spent, and signed afresh (a signed context lives 60 s): a
   * long-lived stream asks this now and then, and ends when the answer is null (revoked or expired).
   */
  async renew(authorization: string, admission: Admission): Promise<Admission | null> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    const actor = token ? await this.identity.authenticate(token) : null;
    if (!actor) return null;
    const call: CallContext = { ...admission.call, actor };
    let signed: string | undefined;
    return { ...admission, call, signed: () => (signed ??= signContext(this.secret, call)) };
  }

  /** The same admission without its actor: a public operation runs for nobody, whoever asked. */
  withoutActor(admission: Admission): Admission {
    const call: CallContext = { actor: null, request_id: admission.call.request_id, client_address: admission.call.client_address };
    let signed: string | undefined;
    return { ...admission, call, signed: () => (signed ??= signContext(this.secret, call)) };
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
