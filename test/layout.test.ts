import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Operation } from '@backoffice/platform';
import { SUBGRAPHS } from '../gateway/src/subgraphs';

/**
 * The layout contract: every operation of a subgraph is declared, exported, in
 * `subgraphs/<subgraph>/src/operations/<operation name>.ts`, alone; that folder holds nothing else;
 * and no file elsewhere declares one (shared rules live in `domain/`).
 */
const SUBGRAPHS_DIR = join(__dirname, '..', 'subgraphs');

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && 'handler' in value && 'kind' in value && 'name' in value && typeof value.handler === 'function';

const operationsIn = (file: string): Operation[] => Object.values(require(file) as Record<string, unknown>).filter(isOperation);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe.each(SUBGRAPHS.map((subgraph) => [subgraph.name, subgraph] as const))('subgraph %s', (name, subgraph) => {
  const src = join(SUBGRAPHS_DIR, name, 'src');
  const folder = join(src, 'operations');
  const files = existsSync(folder) ? readdirSync(folder) : [];

  it('declares each of its operations in operations/<operation name>.ts', () => {
    for (const operation of subgraph.operations) {
      const file = join(folder, `${operation.name}.ts`);
      expect([operation.name, existsSync(file)]).toEqual([operation.name, true]);
      const exported = operationsIn(file);
      expect(exported).toHaveLength(1);
      expect(exported[0]).toBe(operation);
    }
  });

  it('keeps only operations in operations/: each file exports exactly the one named like it, and the subgraph serves it', () => {
    for (const file of files) {
      const exported = operationsIn(join(folder, file));
      expect([file, exported.map((op) => op.name)]).toEqual([file, [basename(file, '.ts')]]);
      expect(subgraph.operations).toContain(exported[0]);
    }
  });

  it('declares no operation outside operations/', () => {
    const declaring = sourceFiles(src)
      .filter((file) => !file.startsWith(folder))
      .filter((file) => /\bdefine\w*Operation\(/.test(readFileSync(file, 'utf8')));
    expect(declaring.map((file) => relative(src, file))).toEqual([]);
  });
});
