import Redis from 'ioredis';

export interface RateDecision {
  allowed: boolean;
  /** Bucket size: the burst a credential may send at once. */
  limit: number;
  remaining: number;
  /** Seconds until one more request is allowed (0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

export interface RateLimiter {
  /** Spends `cost` tokens of the key's bucket when it has them (cost 0 only looks). */
  consume(key: string, cost?: number): Promise<RateDecision>;
  close(): Promise<void>;
}

export interface RateLimitConfig {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket capacity. */
  burst: number;
}

export function rateLimitConfig(env = process.env): RateLimitConfig {
  return { ratePerSecond: Number(env.RATE_LIMIT_PER_SECOND) || 50, burst: Number(env.RATE_LIMIT_BURST) || 100 };
}

function decide(config: RateLimitConfig, allowed: boolean, tokens: number, cost: number): RateDecision {
  return {
    allowed,
    limit: config.burst,
    remaining: Math.floor(tokens),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((Math.max(cost, 1) - tokens) / config.ratePerSecond)),
    reset: Math.ceil((config.burst - tokens) / config.ratePerSecond),
  };
}

/** A token bucket per key in this process. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly config: RateLimitConfig) {}

  async consume(key: string, cost = 1): Promise<RateDecision> {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.config.burst, at: now };
    bucket.tokens = Math.min(this.config.burst, bucket.tokens + ((now - bucket.at) * this.config.ratePerSecond) / 1000);
    bucket.at = now;
    const allowed = bucket.tokens >= Math.max(cost, 1);
    if (allowed) bucket.tokens -= cost;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.sweep(now);
    return decide(this.config, allowed, bucket.tokens, cost);
  }

  /** Full buckets carry no state worth keeping. */
  private sweep(now: number): void {
    const fullAfterMs = (this.config.burst / this.config.ratePerSecond) * 1000;
    for (const [key, bucket] of this.buckets) if (now - bucket.at > fullAfterMs) this.buckets.delete(key);
  }

  async close(): Promise<void> {}
}

/** The same bucket in Redis, updated atomically by a script on Redis's clock: shared by every gateway. */
const TOKEN_BUCKET = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
local allowed = 0
if tokens >= math.max(cost, 1) then
  tokens = tokens - cost
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {allowed, tostring(tokens)}`;

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis & { tokenBucket(key: string, capacity: number, rate: number, cost: number): Promise<[number, string]> };

  constructor(
    url: string,
    private readonly config: RateLimitConfig,
    private readonly prefix = 'backoffice:ratelimit:',
  ) {
    const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    redis.defineCommand('tokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET });
    this.redis = redis as RedisRateLimiter['redis'];
  }

  async consume(key: string, cost = 1): Promise<RateDecision> {
    const [allowed, tokens] = await this.redis.tokenBucket(this.prefix + key, this.config.burst, this.config.ratePerSecond, cost);
    return decide(this.config, allowed === 1, Number(tokens), cost);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

export function createRateLimiter(config = rateLimitConfig(), redisUrl = process.env.REDIS_URL): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl, config) : new MemoryRateLimiter(config);
}
