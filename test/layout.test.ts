import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Operation } from '@backoffice/platform';
import { generatedFiles } from '../gateway/src/generate';
import { SUBGRAPHS } from '../gateway/src/subgraphs';

/**
 * The layout contract: every operation of a subgraph is declared, exported under its name in camelCase,
 * in `subgraphs/<subgraph>/src/operations/<operation name>.ts`, alone; that folder holds nothing else;
 * no file elsewhere declares one (shared rules live in `domain/`); and no subgraph imports another
 * (what they share is in `@backoffice/contracts`).
 */
const SUBGRAPHS_DIR = join(__dirname, '..', 'subgraphs');

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && 'handler' in value && 'kind' in value && 'name' in value && typeof value.handler === 'function';

const operationsIn = (file: string): Operation[] => Object.values(require(file) as Record<string, unknown>).filter(isOperation);

/** `read.internal.orders` → `readInternalOrders`: the name an operation's export has. */
const exportName = (operation: string) =>
  operation
    .split(/[._]/)
    .map((part, i) => (i ? part[0].toUpperCase() + part.slice(1) : part))
    .join('');

/** Every module a file imports or requires (static, dynamic, re-exports). */
const specifiers = (source: string) =>
  [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);

/** The other subgraph a specifier reaches into, if any: `@backoffice/<name>…` or a relative path into its folder. */
function subgraphReached(file: string, specifier: string): string | undefined {
  const names = readdirSync(SUBGRAPHS_DIR);
  const named = /^@backoffice\/([^/]+)/.exec(specifier)?.[1];
  if (named) return names.includes(named) ? named : undefined;
  if (!specifier.startsWith('.')) return undefined;
  const target = relative(SUBGRAPHS_DIR, join(dirname(file), specifier));
  return target.startsWith('..') ? undefined : target.split(sep)[0];
}

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

  it('exports each operation under its name in camelCase', () => {
    for (const file of files) {
      const exported = Object.entries(require(join(folder, file)) as Record<string, unknown>).filter(([, value]) => isOperation(value));
      expect(exported.map(([key, value]) => [key, exportName((value as Operation).name)])).toEqual(exported.map(([key]) => [key, key]));
    }
  });

  it('imports no other subgraph', () => {
    const crossing = sourceFiles(src).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => ![undefined, name].includes(subgraphReached(file, specifier)))
        .map((specifier) => `${relative(src, file)} imports ${specifier}`),
    );
    expect(crossing).toEqual([]);
  });

  it('declares no operation outside operations/', () => {
    const declaring = sourceFiles(src)
      .filter((file) => !file.startsWith(folder))
      .filter((file) => /\bdefine\w*Operation\(/.test(readFileSync(file, 'utf8')));
    expect(declaring.map((file) => relative(src, file))).toEqual([]);
  });
});

/** Lines of code stay readable: the formatter (Biome, width 160) cannot break a long string, so this bounds them. */
const MAX_LINE = 200;

describe('source files', () => {
  it(`have no line over ${MAX_LINE} characters (generated files aside)`, () => {
    const root = join(__dirname, '..');
    const generated = new Set(generatedFiles().map(({ file }) => relative(root, file).split(sep).join('/')));
    const files = execFileSync('git', ['ls-files', '-z', '--', '*.ts', '*.mjs', '*.cjs', '*.js'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      // admin/src/gql/: GraphQL Code Generator's output (`npm run generate`), checked by test/admin-documents.test.ts.
      .filter((file) => file && !generated.has(file) && !/(^|\/)(node_modules|dist)\//.test(file) && !file.startsWith('admin/src/gql/'));
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) =>
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > MAX_LINE ? [`${file}:${i + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });
});
