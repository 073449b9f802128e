import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ALL_SCOPES } from '@backoffice/identity';
import { errorKinds, mergedReads, operationDocument } from '@backoffice/platform';
import { composeSupergraph, ROOT, SUPERGRAPH_FILE } from '../gateway/src/compose';
import { SingleFetchPlanner } from '../gateway/src/graphql-fast-path';
import { OPENAPI_FILE, staleFiles } from '../gateway/src/generate';
import { openApiDocument } from '../gateway/src/openapi';
import { OPERATIONS } from '../gateway/src/subgraphs';

describe('generated files', () => {
  it('are fresh: run `npm run generate` after changing a declaration', () => {
    expect(staleFiles().map((f) => relative(ROOT, f))).toEqual([]);
  });

  it('compose without errors', () => {
    expect(composeSupergraph()).toContain('join__Graph');
  });

  it('the committed OpenAPI document is the served one', () => {
    expect(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'))).toEqual(openApiDocument());
  });
});

describe('operation declarations', () => {
  it('name only known scopes', () => {
    const scopes = [...[...OPERATIONS.values()].map((r) => r.operation.scope), ...mergedReads.map((r) => r.scope)].filter(Boolean);
    expect(scopes.filter((s) => !ALL_SCOPES.includes(s as never))).toEqual([]);
  });

  it('list only the kinds of their reference entry', () => {
    for (const { operation } of OPERATIONS.values()) {
      // Section 7 adds exceeds_remaining to order.shipment.create (and to no other command).
      const extra = operation.name === 'order.shipment.create' ? ['exceeds_remaining'] : [];
      if (operation.kind === 'command')
        expect([...errorKinds(operation)].sort()).toEqual(['validation_failed', 'unauthorized', 'forbidden', 'conflict', 'internal', ...extra].sort());
    }
  });
});

describe('REST routes', () => {
  // With the subgraphs in other processes, the shim's document goes to the one subgraph owning it.
  it('each plan to a single fetch from the subgraph that owns the operation', () => {
    const planner = new SingleFetchPlanner(readFileSync(SUPERGRAPH_FILE, 'utf8'));
    for (const { operation, subgraph } of OPERATIONS.values()) {
      if (operation.connection) continue; // GraphQL only: no REST route
      for (const projection of [undefined, ...Object.keys(operation.projections ?? {})]) {
        expect([operation.name, planner.plan(operationDocument(operation, projection))?.subgraph]).toEqual([operation.name, subgraph.name]);
      }
    }
  });
});
