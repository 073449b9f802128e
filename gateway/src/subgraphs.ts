import { catalog } from '@backoffice/catalog';
import { content } from '@backoffice/content';
import { identity } from '@backoffice/identity';
import { orders } from '@backoffice/orders';
import {
  deprecationNotice,
  emittersOf,
  mergedReads,
  subgraphOperations,
  type EventDeclaration,
  type MergedRead,
  type Operation,
  type SubgraphDefinition,
} from '@backoffice/platform';
import type { SurfaceView } from './surface-views';

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
export const READS = new Map([...OPERATIONS.values()].flatMap((r) => (r.operation.restPath ? [[r.operation.restPath, r] as const] : [])));

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

/** A deprecated operation's summary, its notice first (MCP tool description, CLI help). */
function described(op: Pick<Operation, 'deprecated' | 'successor' | 'summary'>): string {
  const notice = deprecationNotice(op);
  return notice ? `DEPRECATED. ${notice} ${op.summary}` : op.summary;
}

export function surfaceView(surface: SurfaceOperation): SurfaceView {
  if (surface.kind === 'merged') {
    const { name, scope, summary, input, result, restPath } = surface.read;
    return {
      name,
      kind: 'read',
      access: 'internal',
      scope,
      ownerGated: false,
      idempotent: true,
      description: summary,
      input,
      result,
      projections: {},
      restPath,
    };
  }
  const op = surface.operation;
  return {
    name: op.name,
    kind: op.kind,
    access: op.access === 'public' ? 'public' : 'internal',
    scope: op.scope,
    ownerGated: op.ownerGated === true,
    // Reads always are; a command when its declaration says so.
    idempotent: op.kind === 'read' || op.idempotent === true,
    description: described(op),
    input: op.input,
    result: op.result,
    projections: op.projections ?? {},
    restPath: op.restPath,
    queryFamilies: op.queryFamilies,
    queryFamilyKeys: op.queryFamilyKeys,
  };
}

/** Every surface's view as JSON (the schema builder's symbol keys dropped): what surfaces.json holds. */
export const surfaceViews = (): SurfaceView[] => JSON.parse(JSON.stringify([...SURFACE_OPERATIONS.values()].map(surfaceView)));
