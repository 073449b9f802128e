/**
 * The rate headers a router passes back to its client when it asked several subgraphs for one
 * request: one `RateLimit` value, the bucket with the lowest `remaining` (the one that will refuse
 * first), and the longest `Retry-After`. Used by the documented Hive Gateway configuration
 * (`gateway.config.ts`); depends on nothing, so a router's config can import it as it is.
 */

const RATE_LIMIT = /^\s*limit=(\d+),\s*remaining=(\d+),\s*reset=(\d+)\s*$/;

/** The lower of two `RateLimit` values by `remaining` (a malformed or missing one loses). */
export function lowestRateLimit(a: string | null | undefined, b: string | null | undefined): string | null {
  const parsed = (value: string | null | undefined) => {
    const remaining = value ? RATE_LIMIT.exec(value)?.[2] : undefined;
    return value && remaining !== undefined ? { text: value.trim(), remaining: Number(remaining) } : undefined;
  };
  const [pa, pb] = [parsed(a), parsed(b)];
  if (pa === undefined) return pb === undefined ? null : pb.text;
  if (pb === undefined) return pa.text;
  return pb.remaining < pa.remaining ? pb.text : pa.text;
}

/** The longer of two `Retry-After` values in seconds (a malformed or missing one loses). */
export function longestRetryAfter(a: string | null | undefined, b: string | null | undefined): string | null {
  const seconds = (value: string | null | undefined) => (value && /^\d+$/.test(value.trim()) ? Number(value) : -1);
  const longest = Math.max(seconds(a), seconds(b));
  return longest < 0 ? null : String(longest);
}

/**
 * Hive Gateway's `propagateHeaders.fromSubgraphsToClient`, with `deduplicateHeaders: true` (the last
 * value given for a request is the one sent): each subgraph response gives the merge of every one
 * seen so far for the same client request, so the last is the merge of all.
 */
export function rateHeadersToClient() {
  const seen = new WeakMap<object, { ratelimit: string | null; retryAfter: string | null }>();
  return ({ response, context }: { response: { headers: { get(name: string): string | null } }; context: object }) => {
    const before = seen.get(context) ?? { ratelimit: null, retryAfter: null };
    const merged = {
      ratelimit: lowestRateLimit(before.ratelimit, response.headers.get('ratelimit')),
      retryAfter: longestRetryAfter(before.retryAfter, response.headers.get('retry-after')),
    };
    seen.set(context, merged);
    return { ratelimit: merged.ratelimit, 'retry-after': merged.retryAfter };
  };
}
