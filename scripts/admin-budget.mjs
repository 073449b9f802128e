// The admin front-end's budget: the JavaScript a first visit loads, gzipped, at most 250 KB. Measured
// from Vite's manifest (admin/dist/.vite/manifest.json) after `npm run build`: for each screen, the
// entry and the chunks it imports, the screen's chunk and its imports, and the shell's (every screen
// but sign-in is drawn inside it). scripts/build.mjs prints the table and fails over the budget.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const ADMIN_BUDGET_BYTES = 250 * 1024;
const SHELL = 'src/screens/Shell.tsx';
const OUTSIDE_SHELL = new Set(['src/screens/SignIn.tsx']);

/** Each screen's first-visit JavaScript in gzipped bytes, and the largest. */
export function measureAdmin(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const gzipped = new Map();
  const size = (file) => {
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(dist, file))).length);
    return gzipped.get(file);
  };
  const closure = (key, into = new Set()) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };
  const [entryKey, entry] = Object.entries(manifest).find(([, chunk]) => chunk.isEntry) ?? [];
  if (!entry) throw new Error(`${dist}: the Vite manifest names no entry`);
  const screens = (entry.dynamicImports ?? []).filter((key) => key !== SHELL);
  const sum = (files) => [...files].reduce((total, file) => total + size(file), 0);
  const rows = screens.map((screen) => {
    const files = closure(entryKey);
    if (!OUTSIDE_SHELL.has(screen)) closure(SHELL, files);
    closure(screen, files);
    return { screen: screen.replace(/^src\/screens\/|\.tsx$/g, ''), bytes: sum(files) };
  });
  return { entry: sum(closure(entryKey)), rows, largest: Math.max(...rows.map((row) => row.bytes)) };
}
