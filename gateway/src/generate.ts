import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { subgraphSdl } from '@backoffice/platform';
import { composeSupergraph, ROOT, SUPERGRAPH_FILE } from './compose';
import { openApiDocument } from './openapi';
import { SDK_OPERATIONS_FILE, sdkOperationsSource } from './sdk-types';
import { SUBGRAPHS, surfaceViews } from './subgraphs';
import { SURFACE_VIEWS_FILE } from './surface-views';

export const OPENAPI_FILE = join(ROOT, 'docs', 'openapi.json');

/** Every generated, committed file with what it should contain now. Subgraph schemas come first: composition reads them. */
export function generatedFiles(): Array<{ file: string; content: () => string }> {
  return [
    ...SUBGRAPHS.map((s) => ({ file: s.schemaFile, content: () => subgraphSdl(s) })),
    { file: SUPERGRAPH_FILE, content: () => composeSupergraph() },
    { file: OPENAPI_FILE, content: () => `${JSON.stringify(openApiDocument(), null, 2)}\n` },
    { file: SDK_OPERATIONS_FILE, content: sdkOperationsSource },
    { file: SURFACE_VIEWS_FILE, content: () => `${JSON.stringify(surfaceViews(), null, 2)}\n` },
  ];
}

export function staleFiles(): string[] {
  return generatedFiles()
    .filter(({ file, content }) => {
      try {
        return readFileSync(file, 'utf8') !== content();
      } catch {
        return true;
      }
    })
    .map(({ file }) => file);
}

export function writeGenerated(only?: (file: string) => boolean): string[] {
  const written: string[] = [];
  for (const { file, content } of generatedFiles()) {
    if (only && !only(file)) continue;
    writeFileSync(file, content());
    written.push(file);
  }
  return written;
}
