import type { ApolloServerPlugin } from '@apollo/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACTOR_CONTEXT_HEADER, type Actor } from './actor';
import { admitBearer, rateHeaders, requestIdOf, requestRefusal, type Authenticate } from './admission';
import { AppError, asAppError, RateLimited } from './errors';
import { documentCost, GRAPHQL_LIMITS, rateCost, rootFieldCount } from './graphql-cost';
import type { RateLimiter } from './rate-limit';
import type { SubgraphContext, SubgraphRuntime } from './subgraph';

/**
 * How a subgraph run alone lets in a call that does not come from this project's gateway (any
 * router in front of the committed supergraph, forwarding the client's `Authorization` header).
 *
 * - The gateway's signed context (`x-backoffice-context`) wins: the gateway has authenticated and
 *   charged the call already, so nothing is charged here. A signed header that does not verify is
 *   refused (the executor answers unauthorized), never downgraded to an anonymous call.
 * - Otherwise `Authorization: Bearer <token>` is authenticated (identity's Authenticator, or its
 *   `/internal/authenticate` from another subgraph) and charged to the credential's bucket exactly as
 *   the gateway charges a document: one token per root field (fragments expanded) plus one per full
 *   `costPerToken` of estimated cost, here per fetch the router makes. A bad token is 401 `unauthorized`.
 * - With neither, the call runs for nobody (public reads; internal operations answer unauthorized),
 *   charged to the client address's bucket (the router's, unless TRUST_PROXY says whom to believe).
 */
export interface SubgraphAccess {
  /** Who a forwarded bearer token is. */
  authenticate: Authenticate;
  /** The same token buckets as the gateway's (shared through Redis when REDIS_URL is set). */
  limiter: RateLimiter;
}

/** What a call let in by this module spends from (on the context itself: Apollo Server copies the object it is given). */
const CHARGED = Symbol('charged');
interface Charged {
  rateKey: string;
  actor: Actor | null;
  requestId: string;
}

/**
 * TRUST_PROXY as fastify's `trustProxy`: which peers' `x-forwarded-for` to believe. Unset (or `0`,
 * `false`) believes only the socket. Otherwise the routers' addresses or CIDRs, comma-separated
 * (proxy-addr's names `loopback`, `linklocal`, `uniquelocal` too); `1` or `true` stands for
 * `loopback,linklocal,uniquelocal` (a router on a private network). The client address is then the
 * last entry of `x-forwarded-for` not added by a trusted peer: the router must append (or set) it,
 * never pass on unchecked what a client sent. Never "trust everyone": fastify would then take the
 * first entry, which any client writes.
 */
export function trustProxyOf(value: string | undefined): string | false {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || /^false$/i.test(text)) return false;
  if (text === '1' || /^true$/i.test(text)) return 'loopback,linklocal,uniquelocal';
  return text;
}

export function subgraphAccess(runtime: SubgraphRuntime, access: SubgraphAccess) {
  const audit = (actor: Actor, requestId: string, outcome: string) =>
    runtime.audit.record({
      tenant_id: actor.tenant_id,
      actor_id: actor.api_key_id,
      actor_name: actor.name,
      operation: 'graphql',
      outcome,
      request_id: requestId,
    });

  /** The GraphQL context of one request (fastify-apollo's `context`). */
  async function context(request: FastifyRequest, reply: FastifyReply): Promise<SubgraphContext> {
    const signed = request.headers[ACTOR_CONTEXT_HEADER];
    if (signed !== undefined) return runtime.contextFor(Array.isArray(signed) ? signed[0] : signed);
    // A router forwards its own request id (Hive Gateway sends `x-request-id`); else one is made.
    const requestId = requestIdOf(request.headers['x-request-id']);
    reply.header('x-request-id', requestId);
    try {
      const admission = await admitBearer(request.headers.authorization, request.ip, {
        authenticate: access.authenticate,
        limiter: access.limiter,
        rateLimited: (actor) => audit(actor, requestId, 'rate_limited'),
      });
      reply.headers(rateHeaders(admission.rate));
      const charged: Charged = { rateKey: admission.rateKey, actor: admission.actor, requestId };
      // The client's address (the router's, unless TRUST_PROXY): what per-address limits of public commands key on.
      return { call: { actor: admission.actor, request_id: requestId, client_address: request.ip }, [CHARGED]: charged } as SubgraphContext;
    } catch (error) {
      throw requestRefusal(asAppError(error, requestId, runtime.log));
    }
  }

  /** Bounds the fetch's document and charges the rest of its cost (admission spent one token), as the gateway does. */
  const plugin: ApolloServerPlugin<SubgraphContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document, request, schema, response }) {
          const spender = (contextValue as SubgraphContext & { [CHARGED]?: Charged })[CHARGED];
          if (!spender || !operation) return;
          const refuse = (error: AppError) => {
            if (spender.actor) audit(spender.actor, spender.requestId, error.kind);
            return requestRefusal(error);
          };
          const fields = rootFieldCount(document, operation);
          if (fields > GRAPHQL_LIMITS.maxRootFields) {
            throw refuse(
              new AppError(
                'validation_failed',
                `a document may hold at most ${GRAPHQL_LIMITS.maxRootFields} root fields (fragments expanded), found ${fields}`,
              ),
            );
          }
          let cost: number;
          try {
            cost = documentCost(schema, document, request.variables, request.operationName);
          } catch (error) {
            throw refuse(new AppError('validation_failed', (error as Error).message));
          }
          if (cost > GRAPHQL_LIMITS.maxCost)
            throw refuse(new AppError('validation_failed', `the document's estimated cost of ${cost} exceeds the limit of ${GRAPHQL_LIMITS.maxCost}`));
          const more = rateCost(fields, cost) - 1;
          if (more <= 0) return;
          const rate = await access.limiter.consume(spender.rateKey, more);
          if (!rate.allowed) throw refuse(new RateLimited(rate));
          // The header reports the bucket after the whole fetch's charge.
          for (const [name, value] of Object.entries(rateHeaders(rate))) response.http.headers.set(name.toLowerCase(), value);
        },
      };
    },
  };

  return { context, plugin };
}
