/** Tests run against the real PostgreSQL (DATABASE_URL) and Redis, over real HTTP. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/subgraphs', '<rootDir>/platform', '<rootDir>/gateway'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testTimeout: 60000,
};
