import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import { type Change, CriticalityLevel, diff } from '@graphql-inspector/core';

/**
 * Diffs the API schema clients see (the supergraph without its federation machinery) of the committed
 * `supergraph.graphql` against the last released one, a committed baseline: a clean or shallow clone
 * has it, where git history might not. Breaking changes must each be declared, with a reason.
 */
export const ROOT = resolve(__dirname, '..');
export const CURRENT_FILE = join(ROOT, 'supergraph.graphql');
export const RELEASED_FILE = join(ROOT, 'schema', 'supergraph.released.graphql');
export const DECLARED_FILE = join(ROOT, 'schema', 'breaking-changes.json');

/** One accepted breaking change: GraphQL Inspector's change type and path (its message when it has none), and why. */
export interface DeclaredChange {
  type: string;
  path: string;
  message: string;
  reason: string;
}

export interface SchemaCheck {
  /** Breaking changes nobody declared, in the declarations file's format (reason to be written). */
  undeclared: DeclaredChange[];
  /** Declarations matching no change (kept only until the next release). */
  stale: DeclaredChange[];
  /** Declarations without a written reason. */
  unexplained: DeclaredChange[];
  dangerous: Change[];
}

const apiSchemaOf = (supergraphSdl: string) => Supergraph.build(supergraphSdl).apiSchema().toGraphQLJSSchema();

const keyOf = (change: { type: string; path?: string; message: string }) => `${change.type} ${change.path ?? change.message}`;

export const TODO_REASON = 'TODO: why clients may take this break';

export async function checkSchema(releasedSdl: string, currentSdl: string, declared: readonly DeclaredChange[]): Promise<SchemaCheck> {
  const changes = await diff(apiSchemaOf(releasedSdl), apiSchemaOf(currentSdl));
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  const declaredKeys = new Set(declared.map(keyOf));
  const breakingKeys = new Set(breaking.map(keyOf));
  return {
    undeclared: breaking
      .filter((c) => !declaredKeys.has(keyOf(c)))
      .map((c) => ({ type: c.type, path: c.path ?? c.message, message: c.message, reason: TODO_REASON }))
      // Sorted so that a pasted list reads like the schema, and diffs of the file stay small.
      .sort((a, b) => a.path.localeCompare(b.path) || a.type.localeCompare(b.type)),
    stale: declared.filter((d) => !breakingKeys.has(keyOf(d))),
    unexplained: declared.filter((d) => !d.reason?.trim() || d.reason === TODO_REASON),
    dangerous: changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous),
  };
}

export const readDeclared = (file = DECLARED_FILE): DeclaredChange[] => JSON.parse(readFileSync(file, 'utf8')) as DeclaredChange[];

/** `npm run schema:check`: exit 1 on an undeclared or unexplained break. `-- --release`: moves the baseline forward. */
async function main(): Promise<number> {
  if (process.argv.includes('--release')) {
    copyFileSync(CURRENT_FILE, RELEASED_FILE);
    writeFileSync(DECLARED_FILE, '[]\n');
    console.log('schema: supergraph.graphql is now the released baseline; the declared breaking changes were cleared');
    return 0;
  }
  const result = await checkSchema(readFileSync(RELEASED_FILE, 'utf8'), readFileSync(CURRENT_FILE, 'utf8'), readDeclared());
  for (const change of result.dangerous) console.log(`dangerous (allowed): ${change.path ?? ''} ${change.message}`);
  for (const d of result.stale) console.log(`declared but not found (remove it): ${d.type} ${d.path}`);
  if (result.unexplained.length) console.error(`declared without a reason in schema/breaking-changes.json:\n${JSON.stringify(result.unexplained, null, 2)}`);
  if (result.undeclared.length) {
    console.error(
      'undeclared breaking changes against schema/supergraph.released.graphql; review, write each reason, and add to schema/breaking-changes.json:',
    );
    console.error(JSON.stringify(result.undeclared, null, 2));
  }
  return result.undeclared.length || result.unexplained.length ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
}
