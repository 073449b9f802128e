import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ALL_SCOPES } from '@backoffice/identity';
import { errorKinds, mergedReads } from '@backoffice/platform';
import { composeSupergraph, ROOT } from '../gateway/src/compose';
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
      if (operation.kind === 'command') expect(errorKinds(operation)).toEqual(['validation_failed', 'unauthorized', 'forbidden', 'conflict', 'internal']);
    }
  });
});
