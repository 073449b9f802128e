import type { Actor } from '../platform/src/actor';

/** What bench/server.ts prints (one JSON line) once the system under test is up. */
export interface BenchTarget {
  /** Gateway base URL (REST shim under /v1, GraphQL at /graphql). */
  url: string;
  /** Owner token of the bench tenant (every scope, never expires). */
  token: string;
  /** The identity subgraph served alone: its /graphql URL. */
  subgraphUrl: string;
  /** The secret the gateway signs call contexts with; the bench signs direct subgraph calls with it. */
  contextSecret: string;
  /** The actor behind `token`, as identity authenticates it. */
  actor: Actor;
  tenant_id: string;
  /** The bench tenant's store (public reads by `store`). */
  store_id: string;
  pid: number;
}
