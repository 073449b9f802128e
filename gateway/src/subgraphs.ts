import { catalog } from '@backoffice/catalog';
import { content } from '@backoffice/content';
import { identity } from '@backoffice/identity';
import { orders } from '@backoffice/orders';
import { emittersOf, mergedReads, subgraphOperations, type EventDeclaration, type MergedRead, type Operation, type SubgraphDefinition } from '@backoffice/platform';

export const SUBGRAPHS: SubgraphDefinition[] = [identity, catalog, orders, content];

export interface RoutedOperation {
  operation: Operation;
  subgraph: SubgraphDefinition;
}

/** Every operation of every subgraph, by its reference name. */
export const OPERATIONS = new Map<string, RoutedOperation>(
  SUBGRAPHS.flatMap((subgraph) => subgraphOperations(subgraph).map((operation) => [operation.name, { operation, subgraph }] as const)),
);

/** Every event of every subgraph, by name, with what emits it (operations, consumers, tasks): the event catalog. */
export const EVENTS = new Map<string, { event: EventDeclaration; subgraph: SubgraphDefinition; emitters: string[] }>(
  SUBGRAPHS.flatMap((subgraph) => subgraph.events.map((event) => [event.name, { event, subgraph, emitters: emittersOf(subgraph).get(event) ?? [] }] as const)),
);

export const COMMANDS = new Map([...OPERATIONS].filter(([, r]) => r.operation.kind === 'command'));

/** Reads served under /v1/read, by path below it. */
export const READS = new Map(
  [...OPERATIONS.values()].filter((r) => r.operation.restPath).map((r) => [r.operation.restPath!, r] as const),
);

export const MERGED_READS = new Map(mergedReads.map((read) => [read.restPath, read] as const));

/** What every surface beyond GraphQL offers (REST, MCP, CLI, SDK): commands, REST reads and the merged reads. */
export type SurfaceOperation = { kind: 'operation'; name: string; operation: Operation } | { kind: 'merged'; name: string; read: MergedRead };

export const SURFACE_OPERATIONS = new Map<string, SurfaceOperation>([
  ...[...OPERATIONS.values()]
    .map((r) => r.operation)
    .filter((op) => op.kind === 'command' || op.restPath)
    .map((operation): [string, SurfaceOperation] => [operation.name, { kind: 'operation', name: operation.name, operation }]),
  ...mergedReads.map((read): [string, SurfaceOperation] => [read.name, { kind: 'merged', name: read.name, read }]),
]);
