// `npm start`, `npm run backoffice`: an entry point (gateway/src/main, gateway/src/cli) compiled, from
// dist/, which `npm install` builds (the `prepare` script). When a source has changed since that build,
// its TypeScript runs instead, through tsx: slower to start, never old code.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtFresh } from './build-inputs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const [entry, ...args] = process.argv.slice(2);

let file = join(root, 'dist', `${entry}.js`);
if (!builtFresh(root)) {
  // Said to a person only: a pipe (a script, a test) gets the program's output alone.
  if (process.stderr.isTTY) console.error(`dist/ is missing or older than the sources: running ${entry}.ts through tsx (npm run build makes it start fast)`);
  // Both of tsx's hooks, as `node --import tsx` sets them: require() and the commands' lazy import().
  await import('tsx');
  file = join(root, `${entry}.ts`);
}
// The program sees its own arguments, as if it were run directly.
process.argv = [process.argv[0], file, ...args];
require(file);
