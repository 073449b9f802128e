// What `npm run build` compiles and copies into dist/, and the stamp it leaves there: scripts/run.mjs
// runs dist/ only while no input is newer than the stamp, so a stale build never runs old code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Touched by the build with the time it started: a file saved during the build counts as newer. */
export const STAMP = join('dist', '.built');

/** The workspaces compiled into dist/: all but the admin front-end, a browser app Vite builds into admin/dist/. */
export const NODE_WORKSPACES = (rootPackage) => rootPackage.workspaces.filter((workspace) => workspace !== 'admin');

/** The repository's files the build of dist/ reads, relative to `root`. */
function inputs(root) {
  const workspaces = NODE_WORKSPACES(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  const sources = [...workspaces.map((w) => join(w, 'src')), join('sdk', 'src')].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
  );
  const copied = workspaces.flatMap((w) => [join(w, 'package.json'), join(w, 'schema.graphql')]);
  return [
    ...sources,
    ...[
      ...copied,
      'supergraph.graphql',
      join('gateway', 'surfaces.json'),
      join('gateway', 'favicon.svg'),
      'tsconfig.json',
      'tsconfig.build.json',
      join('scripts', 'build.mjs'),
    ].map((f) => join(root, f)),
  ];
}

/** Whether dist/ was built after the last change to any of its inputs (false without a build). */
export function builtFresh(root) {
  let built;
  try {
    built = statSync(join(root, STAMP)).mtimeMs;
  } catch {
    return false;
  }
  // A file the build copies only when present (a workspace without schema.graphql) is no input.
  return inputs(root).every((file) => (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= built);
}
