import { LRUCache } from 'lru-cache';
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
  /** Seconds an empty bucket takes to fill: the window of its policy (`limit` per `window`). */
  window: number;
}

export interface RateLimiter {
  /** Spends `cost` tokens of the key's bucket when it has them (cost 0 only looks). */
  consume(key: string, cost?: number): Promise<RateDecision>;
  /** Gives back `cost` tokens spent earlier (a reservation that turned out not to be owed); never above the burst. */
  refund(key: string, cost?: number): Promise<void>;
  /** `degraded` while limits are kept per process because the shared store (Redis) is away. */
  health(): 'ok' | 'degraded';
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
    window: Math.max(1, Math.ceil(config.burst / config.ratePerSecond)),
  };
}

/** Buckets one process keeps at most. */
export const MEMORY_BUCKETS_MAX = 100_000;

/** A token bucket per key in this process. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets: LRUCache<string, { tokens: number; at: number }>;

  constructor(private readonly config: RateLimitConfig) {
    // A bucket untouched until it has refilled carries no state, so it may expire then; past
    // MEMORY_BUCKETS_MAX live buckets (about 15 MiB) the least recently used goes first.
    this.buckets = new LRUCache({ max: MEMORY_BUCKETS_MAX, ttl: Math.ceil((config.burst / config.ratePerSecond) * 1000) + 1000 });
  }

  /** The key's bucket refilled up to now (a key never seen, or swept, is full). */
  private bucket(key: string, now: number): { tokens: number; at: number } {
    const bucket = this.buckets.get(key) ?? { tokens: this.config.burst, at: now };
    bucket.tokens = Math.min(this.config.burst, bucket.tokens + ((now - bucket.at) * this.config.ratePerSecond) / 1000);
    bucket.at = now;
    return bucket;
  }

  async consume(key: string, cost = 1): Promise<RateDecision> {
    const now = Date.now();
    const bucket = this.bucket(key, now);
    const allowed = bucket.tokens >= Math.max(cost, 1);
    if (allowed) bucket.tokens -= cost;
    this.buckets.set(key, bucket);
    return decide(this.config, allowed, bucket.tokens, cost);
  }

  async refund(key: string, cost = 1): Promise<void> {
    if (!this.buckets.has(key)) return; // absent: full already
    const bucket = this.bucket(key, Date.now());
    bucket.tokens = Math.min(this.config.burst, bucket.tokens + cost);
  }

  health(): 'ok' {
    return 'ok';
  }

  async close(): Promise<void> {}
}

/** The same bucket in Redis, updated atomically by a script on Redis's clock: shared by every gateway and subgraph. */
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

/** Gives tokens back to a bucket, on Redis's clock, never above capacity; an absent bucket is full already. */
const TOKEN_REFUND = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
if not tokens then return false end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + (now - at) * rate / 1000 + cost)
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return tostring(tokens)`;

type ScriptedRedis = Redis & {
  tokenBucket(key: string, capacity: number, rate: number, cost: number): Promise<[number, string]>;
  tokenRefund(key: string, capacity: number, rate: number, cost: number): Promise<string | null>;
};

export interface RedisRateLimiterOptions {
  log?: (line: string) => void;
  /** Milliseconds a Redis command may take before the request falls back to per-process buckets. */
  commandTimeout?: number;
  /** Milliseconds a connection attempt may take. */
  connectTimeout?: number;
  /** Longest pause between reconnection attempts (the pause doubles from 50 ms up to this). */
  maxReconnectDelay?: number;
}

/** Where Redis is, for the log: host and port only (a URL may carry a password). */
function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 6379}`;
  } catch {
    return 'Redis';
  }
}

/**
 * Buckets shared through Redis. While Redis is away (unreachable at start, gone later, or its
 * commands failing or slower than `commandTimeout`) each request is limited by per-process buckets
 * instead (a MemoryRateLimiter with the same config): the gateway keeps serving, `health()` says
 * `degraded`, and the log gets one line when Redis is lost and one when it is back. ioredis
 * reconnects by itself; commands never wait in its offline queue. After a failed command on a live
 * connection, one request a second tries Redis again.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: ScriptedRedis;
  private readonly local: MemoryRateLimiter;
  private readonly log: (line: string) => void;
  private readonly address: string;
  /** `starting` until the first connection attempt succeeds or fails; `local` while Redis is away. */
  private state: 'starting' | 'shared' | 'local' = 'starting';
  private readonly started: Promise<void>;
  private settle!: () => void;
  private readonly startTimer: NodeJS.Timeout;
  private lastError = 'connection closed';
  /** After a failed command on a live connection: when Redis may be tried again, and whether a try is under way. */
  private retryAt = 0;
  private probing = false;
  private closing = false;

  constructor(
    url: string,
    private readonly config: RateLimitConfig,
    private readonly prefix = 'backoffice:ratelimit:',
    options: RedisRateLimiterOptions = {},
  ) {
    this.log = options.log ?? console.error;
    this.address = redisAddress(url);
    this.local = new MemoryRateLimiter(config);
    const connectTimeout = options.connectTimeout ?? 1000;
    const maxDelay = options.maxReconnectDelay ?? 2000;
    const redis = new Redis(url, {
      // Fail fast: a command either runs on a live connection or fails at once (the request then
      // uses the per-process bucket); nothing is queued or resent after a reconnection.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.commandTimeout ?? 250,
      connectTimeout,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 16), maxDelay),
    });
    redis.defineCommand('tokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET });
    redis.defineCommand('tokenRefund', { numberOfKeys: 1, lua: TOKEN_REFUND });
    this.redis = redis as ScriptedRedis;
    this.started = new Promise((resolve) => (this.settle = resolve));
    // ioredis reports every failed reconnection as an 'error': remembered here, logged once by `lost`.
    redis.on('error', (error: Error) => (this.lastError = error.message || String(error)));
    redis.on('close', () => this.lost(this.lastError));
    redis.on('ready', () => this.back());
    // Requests made before the first connection attempt ends wait for it at most this long, then use
    // per-process buckets. No warning yet: on a busy machine this timer may fire just before the
    // connection's own events; only a real failure (ioredis's error and close) is logged.
    this.startTimer = setTimeout(() => this.settle(), connectTimeout + 500);
    this.startTimer.unref();
  }

  private lost(reason: string): void {
    if (this.closing || this.state === 'local') return;
    const wasStarting = this.state === 'starting';
    this.state = 'local';
    this.settle();
    this.log(`rate limits: Redis at ${this.address} ${wasStarting ? 'unreachable' : 'lost'} (${reason}); limiting per process meanwhile`);
  }

  private back(): void {
    clearTimeout(this.startTimer);
    if (this.closing || this.state === 'shared') return;
    const wasStarting = this.state === 'starting';
    this.state = 'shared';
    this.retryAt = 0;
    this.lastError = 'connection closed';
    this.settle();
    if (!wasStarting) this.log(`rate limits: Redis at ${this.address} is back; limits are shared again`);
  }

  /** Whether this request should ask Redis; false sends it to the per-process bucket. */
  private useRedis(): boolean {
    if (this.redis.status !== 'ready') return false;
    if (this.state === 'shared') return true;
    // Connected but failing (slow or erroring): one request at a time tries again, once a second.
    if (this.probing || Date.now() < this.retryAt) return false;
    this.probing = true;
    return true;
  }

  private failed(error: unknown): void {
    this.retryAt = Date.now() + 1000;
    this.lost((error as Error)?.message ?? String(error));
  }

  private async run<T>(command: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.state === 'starting') await this.started;
    const probe = this.state !== 'shared';
    if (!this.useRedis()) return fallback();
    try {
      const result = await command();
      if (probe) this.back();
      return result;
    } catch (error) {
      this.failed(error);
      return fallback();
    } finally {
      if (probe) this.probing = false;
    }
  }

  consume(key: string, cost = 1): Promise<RateDecision> {
    return this.run(
      async () => {
        const [allowed, tokens] = await this.redis.tokenBucket(this.prefix + key, this.config.burst, this.config.ratePerSecond, cost);
        return decide(this.config, allowed === 1, Number(tokens), cost);
      },
      () => this.local.consume(key, cost),
    );
  }

  refund(key: string, cost = 1): Promise<void> {
    return this.run(
      async () => void (await this.redis.tokenRefund(this.prefix + key, this.config.burst, this.config.ratePerSecond, cost)),
      () => this.local.refund(key, cost),
    );
  }

  health(): 'ok' | 'degraded' {
    return this.state === 'shared' && this.redis.status === 'ready' ? 'ok' : 'degraded';
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.startTimer);
    this.settle();
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}

export function createRateLimiter(config = rateLimitConfig(), redisUrl = process.env.REDIS_URL, log: (line: string) => void = console.error): RateLimiter {
  return redisUrl ? new RedisRateLimiter(redisUrl, config, undefined, { log }) : new MemoryRateLimiter(config);
}
