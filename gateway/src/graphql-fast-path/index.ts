/**
 * The GraphQL fast path, the one interface the rest of the gateway has to it (README.md beside
 * this file): the /graphql lane, compiled execution of in-process subgraphs' fetches, and the
 * setting that turns both off.
 */
export { compiledQuery, holdsUndefined } from './compiled-execution';
export { GraphqlLane } from './lane';
export { SingleFetchPlanner } from './single-fetch';

/**
 * GRAPHQL_FAST_PATH: `on` (the default) or `off`, plain @apollo/gateway for every /graphql request
 * (no lane, subgraph fetches run by graphql-js). Anything else stops the start, saying so.
 */
export function fastPathOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.GRAPHQL_FAST_PATH?.trim() || 'on';
  if (value !== 'on' && value !== 'off') throw new Error(`GRAPHQL_FAST_PATH must be on or off, not ${JSON.stringify(value)}`);
  return value === 'on';
}
