/**
 * Fuzz of every operation on every surface (REST, GraphQL, MCP), generated from the declarations:
 * malformed inputs must be refused with the documented shape and a listed kind, never a 5xx, and
 * change nothing. `npm test` runs FUZZ_RUNS (default 2500) cases; `npm run fuzz` runs 10,000.
 * Replay one case: FUZZ_SEED=<seed> FUZZ_PATH=<n> FUZZ_RUNS=1 npx jest test/fuzz.test.ts (FUZZ_FAIL_FAST=1 to let
 * fast-check stop and shrink at the first failure).
 */
import { startTestSystem, type TestSystem } from './helpers';
import { runFuzz, seedPool } from './fuzz/harness';

const runs = Number(process.env.FUZZ_RUNS ?? 2500);
const seed = Number(process.env.FUZZ_SEED ?? 20240611);

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t?.stop());

it(
  `answers ${runs} malformed requests with listed refusals and no state change (seed ${seed})`,
  async () => {
    const pool = await seedPool(t);
    const result = await runFuzz(t, pool, { runs, seed, path: process.env.FUZZ_PATH, failFast: process.env.FUZZ_FAIL_FAST === '1' });
    expect(result.fiveXX).toBe(0);
    // The summary lists each failure class with an example and its replay line.
    if (result.classes.size) throw new Error(`fuzz found ${result.classes.size} failure classes (seed ${seed}):\n${result.summary}`);
  },
  30 * 60_000,
);
