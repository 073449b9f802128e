/** Tests run against the real PostgreSQL (DATABASE_URL) and Redis, over real HTTP. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/subgraphs', '<rootDir>/platform', '<rootDir>/gateway'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', {}],
    // openid-client and what it uses are ES modules only: compiled to CommonJS for jest's loader.
    '/node_modules/(openid-client|oauth4webapi|jose)/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(openid-client|oauth4webapi|jose)/)'],
  // The SDK's sources import their siblings as `./x.js` (what its ES module build needs): resolved to `./x.ts`.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  // One worker, run serially (`npm test` passes -w 1), recycled once a suite leaves it past 1 GiB:
  // in one long-lived process the heap reached 5 GB over the run, and its collector's pauses
  // (over a second) landed inside the suites that time requests.
  workerIdleMemoryLimit: '1GB',
};
