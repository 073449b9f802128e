// `npm run build` (run by `npm install` and `npm ci`: the `prepare` script): the JavaScript the
// container image runs, and `npm start` and `npm run backoffice` (scripts/run.mjs), in dist/ laid out
// as the repository is.
//
//   dist/gateway/src/main.js, dist/gateway/src/cli.js, dist/subgraphs/<name>/src/main.js, …   (tsc)
//   dist/supergraph.graphql, dist/subgraphs/<name>/schema.graphql                  (read at start)
//   dist/<workspace>/package.json                        ("main" pointing at the compiled index.js)
//   dist/node_modules/@backoffice/<name> -> ../../<workspace>     (the workspaces, compiled)
//   admin/dist/                  (the admin front-end, by Vite: admin/vite.config.ts; its budget checked),
//                                 copied to dist/admin/dist for the compiled gateway
//
// The same relative layout keeps every `__dirname`-based path of the sources right (the repository
// root is two folders above gateway/src; a subgraph's schema.graphql one above its src/). Compiled
// code imports the workspaces as `@backoffice/<name>`: from dist/, Node finds dist/node_modules first,
// whose links lead to the compiled packages; every other package is found further up, in the
// repository's node_modules. The image copies dist/ over its /app beside the production node_modules,
// whose own @backoffice links (made by `npm ci`) then lead to the same compiled packages.
// The sources keep `"main": "src/index.ts"` for tsx, jest and tsc: nothing here changes how they run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_BUDGET_BYTES, measureAdmin } from './admin-budget.mjs';
import { NODE_WORKSPACES, STAMP } from './build-inputs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const started = new Date();
rmSync(dist, { recursive: true, force: true });

const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const copy = (file) => {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
};

// The composed supergraph the gateway reads at start; the surface views the CLI and MCP over stdio read.
copy('supergraph.graphql');
copy('gateway/surfaces.json');
// The gateway's icon (explorer, docs).
copy('gateway/favicon.svg');

for (const workspace of NODE_WORKSPACES(rootPackage)) {
  const manifest = JSON.parse(readFileSync(join(root, workspace, 'package.json'), 'utf8'));
  if (typeof manifest.main === 'string') manifest.main = manifest.main.replace(/\.ts$/, '.js');
  mkdirSync(join(dist, workspace), { recursive: true });
  writeFileSync(join(dist, workspace, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // A subgraph's SDL, read beside its src/ at start.
  try {
    copy(join(workspace, 'schema.graphql'));
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  const link = join(dist, 'node_modules', manifest.name);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(relative(dirname(link), join(dist, workspace)), link, 'dir');
}

// The admin front-end (a browser app, not part of dist/): its typed documents are committed
// (admin/src/gql/, `npm run generate`), so this is Vite alone.
const vitePackage = createRequire(join(root, 'package.json')).resolve('vite/package.json');
const vite = join(dirname(vitePackage), JSON.parse(readFileSync(vitePackage, 'utf8')).bin.vite);
const admin = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'admin', 'vite.config.ts'), '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
if (admin.status !== 0) process.exit(admin.status ?? 1);
const budget = measureAdmin(join(root, 'admin', 'dist'));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(
  `admin/dist: first-visit JavaScript, gzipped (budget ${kb(ADMIN_BUDGET_BYTES)}): ${budget.rows.map((r) => `${r.screen} ${kb(r.bytes)}`).join(', ')}`,
);
if (budget.largest > ADMIN_BUDGET_BYTES) {
  console.error(`admin/dist: ${kb(budget.largest)} of JavaScript on a first visit, over the budget of ${kb(ADMIN_BUDGET_BYTES)}`);
  process.exit(1);
}
// A copy in dist/admin/dist, where the compiled gateway looks (gateway/src/admin-app.ts: two folders
// above its own, as every `__dirname` path); the image's /app gets it with the rest of dist/.
cpSync(join(root, 'admin', 'dist'), join(dist, 'admin', 'dist'), { recursive: true });

// Last, dated from the start: scripts/run.mjs trusts dist/ only while no input is newer.
writeFileSync(join(root, STAMP), '');
utimesSync(join(root, STAMP), started, started);

console.log(`built ${relative(root, dist)}/ (node dist/gateway/src/main.js)`);
