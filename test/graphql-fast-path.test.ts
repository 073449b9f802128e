import { fastPathOn } from '../gateway/src/graphql-fast-path';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * GRAPHQL_FAST_PATH: this file runs in both jest projects that serve GraphQL (`integration` with the
 * fast path, `graphql-plain` without), and each sees its own path answer.
 */
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());

const served = async (path: 'lane' | 'gateway') => {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  return Number(new RegExp(`^backoffice_graphql_path_total\\{path="${path}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
};

it(`answers a one-fetch query on the ${fastPathOn() ? 'lane' : 'plain gateway'}, as GRAPHQL_FAST_PATH says`, async () => {
  const before = { lane: await served('lane'), gateway: await served('gateway') };
  const res = await t.graphql('{ read_internal_whoami { actor_id } }');
  expect(res.body.data.read_internal_whoami.actor_id).toBe(t.tenant.api_key_id);
  const after = { lane: await served('lane'), gateway: await served('gateway') };
  expect([after.lane - before.lane, after.gateway - before.gateway]).toEqual(fastPathOn() ? [1, 0] : [0, 1]);
});

it('takes on or off, and refuses any other value', () => {
  expect([fastPathOn({}), fastPathOn({ GRAPHQL_FAST_PATH: 'on' }), fastPathOn({ GRAPHQL_FAST_PATH: 'off' })]).toEqual([true, true, false]);
  expect(() => fastPathOn({ GRAPHQL_FAST_PATH: 'false' })).toThrow(/GRAPHQL_FAST_PATH must be on or off/);
});
