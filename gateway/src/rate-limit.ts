// The token buckets live in the platform: subgraphs run alone limit bearer calls with the same buckets.
export {
  createRateLimiter,
  MEMORY_BUCKETS_MAX,
  MemoryRateLimiter,
  rateLimitConfig,
  RedisRateLimiter,
  type RateDecision,
  type RateLimitConfig,
  type RateLimiter,
  type RedisRateLimiterOptions,
} from '@backoffice/platform';
