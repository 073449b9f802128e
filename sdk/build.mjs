// Builds the SDK: ES modules and CommonJS side by side, with type declarations (`npm run build:sdk`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(join(here, 'dist'), { recursive: true, force: true });
for (const config of ['tsconfig.esm.json', 'tsconfig.cjs.json']) execFileSync(process.execPath, [tsc, '-p', join(here, config)], { stdio: 'inherit' });
// Each build says how Node reads its .js files (the package itself names no type).
for (const [folder, type] of [
  ['esm', 'module'],
  ['cjs', 'commonjs'],
]) {
  mkdirSync(join(here, 'dist', folder), { recursive: true });
  writeFileSync(join(here, 'dist', folder, 'package.json'), `${JSON.stringify({ type })}\n`);
}
