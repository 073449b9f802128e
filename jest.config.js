/**
 * The tests in layers, each a jest project (`npm run test:unit`, `test:integration`, `test:browser`;
 * `npm test` runs them all, and the GraphQL files once more without the fast path, `graphql-plain`): unit tests are pure rules without a database; integration tests run
 * operations and HTTP against the real PostgreSQL (DATABASE_URL) and Redis; browser tests drive the
 * admin front-end and the explorer in Debian's Chromium. Sources are compiled by swc (types are
 * checked once, by `npm run typecheck`), so a worker starts in seconds, not after type-checking its
 * whole import graph.
 */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' }, sourceMaps: 'inline' }];

const shared = {
  testEnvironment: 'node',
  // The sources only (the build's copies under dist/ would give each workspace package twice).
  roots: ['<rootDir>/test', '<rootDir>/subgraphs', '<rootDir>/platform', '<rootDir>/gateway'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  transform: {
    '^.+\\.ts$': swc,
    // openid-client and what it uses are ES modules only: compiled to CommonJS for jest's loader.
    '/node_modules/(openid-client|oauth4webapi|jose)/.+\\.js$': swc,
  },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  // The SDK's sources import their siblings as `./x.js` (what its ES module build needs): resolved to `./x.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/** The layers that start systems: each system's database is a copy of one migrated once per run. */
const systems = { globalSetup: '<rootDir>/test/global-setup.ts', globalTeardown: '<rootDir>/test/global-teardown.ts' };

/** The files about GraphQL itself, which run both with the fast path and without (gateway/src/graphql-fast-path). */
const GRAPHQL = [
  '<rootDir>/test/graph-*.test.ts',
  '<rootDir>/test/graphql-{types,errors,limits,fast-path}.test.ts',
  '<rootDir>/test/{connections,storefront-documents}.test.ts',
];

/** The browser layer: the files that drive Chromium. */
const BROWSER = ['<rootDir>/test/admin-*browser*.test.ts', '<rootDir>/test/admin-{http,mail-sign-in,merchant-day}.test.ts', '<rootDir>/test/explorer.test.ts'];

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/{platform,gateway,subgraphs}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
    {
      ...shared,
      ...systems,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', 'browser', 'admin-http', 'admin-mail-sign-in', 'admin-merchant-day', 'explorer'],
    },
    { ...shared, ...systems, displayName: 'browser', testMatch: BROWSER },
    {
      // The GraphQL tests again with GRAPHQL_FAST_PATH=off: plain @apollo/gateway answers them too.
      ...shared,
      ...systems,
      displayName: 'graphql-plain',
      setupFiles: [...shared.setupFiles, '<rootDir>/test/setup-plain-graphql.ts'],
      testMatch: GRAPHQL,
    },
  ],
  // Every core a worker (`maxWorkers` 100%): each test file has a database of its own.
  maxWorkers: '100%',
  testTimeout: 60000,
  // A worker is recycled once a suite leaves it past 1 GiB: in one long-lived process the heap
  // reached 5 GB over a serial run, and its collector's pauses (over a second) landed inside the
  // suites that time requests.
  workerIdleMemoryLimit: '1GB',
};
