import { lowestRateLimit, longestRetryAfter, rateHeadersToClient } from '../../gateway/src/router-headers';
import { subgraphBaseUrls } from '../../gateway/src/subgraph-urls';
import { startSystem } from '../../gateway/src/system';

describe('the rate headers a router passes back', () => {
  it('keep the lowest remaining and the longest Retry-After; a malformed value loses', () => {
    expect(lowestRateLimit('limit=100, remaining=98, reset=1', 'limit=100, remaining=99, reset=1')).toBe('limit=100, remaining=98, reset=1');
    expect(lowestRateLimit('limit=100, remaining=99, reset=1', 'limit=100, remaining=7, reset=3')).toBe('limit=100, remaining=7, reset=3');
    expect(lowestRateLimit(null, 'limit=100, remaining=5, reset=1')).toBe('limit=100, remaining=5, reset=1');
    expect(lowestRateLimit('garbage', undefined)).toBeNull();
    expect(longestRetryAfter('1', '4')).toBe('4');
    expect(longestRetryAfter(null, 'soon')).toBeNull();
  });

  it('merge every subgraph answer of one client request, each request apart', () => {
    const merge = rateHeadersToClient();
    const answer = (ratelimit: string | null, retryAfter: string | null = null) => ({
      headers: { get: (name: string) => (name === 'ratelimit' ? ratelimit : name === 'retry-after' ? retryAfter : null) },
    });
    const one = {};
    const two = {};
    merge({ context: one, response: answer('limit=100, remaining=98, reset=1') });
    expect(merge({ context: one, response: answer('limit=100, remaining=99, reset=1', '2') })).toEqual({
      ratelimit: 'limit=100, remaining=98, reset=1',
      'retry-after': '2',
    });
    expect(merge({ context: two, response: answer('limit=100, remaining=50, reset=1') })).toEqual({
      ratelimit: 'limit=100, remaining=50, reset=1',
      'retry-after': null,
    });
  });
});

describe('subgraphs run elsewhere (GATEWAY_ONLY)', () => {
  it('are reached at IDENTITY_URL, CATALOG_URL, ORDERS_URL, CONTENT_URL, base URLs', () => {
    const env = {
      IDENTITY_URL: 'http://identity:4001/',
      CATALOG_URL: 'http://catalog:4002',
      ORDERS_URL: 'http://orders:4003',
      CONTENT_URL: 'http://content:4004',
    };
    expect(subgraphBaseUrls(['identity', 'catalog', 'orders', 'content'], env)).toEqual({
      identity: 'http://identity:4001',
      catalog: 'http://catalog:4002',
      orders: 'http://orders:4003',
      content: 'http://content:4004',
    });
  });

  it('refuse to start while one is unset, naming each missing variable', async () => {
    const names = ['IDENTITY_URL', 'CATALOG_URL', 'ORDERS_URL', 'CONTENT_URL'];
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    for (const name of names) delete process.env[name];
    process.env.CATALOG_URL = 'http://catalog:4002';
    try {
      await expect(startSystem({ remoteSubgraphs: true, port: 0, log: () => undefined })).rejects.toThrow(
        "subgraphs run elsewhere: set IDENTITY_URL, ORDERS_URL, CONTENT_URL (each subgraph's base URL, e.g. http://identity:4001)",
      );
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
