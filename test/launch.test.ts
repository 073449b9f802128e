import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * scripts/run.mjs (`npm start`, `npm run backoffice`) runs dist/ only while it is fresh: in a scratch
 * repository of the same layout, an entry point whose compiled and source forms say which ran.
 */
const ROOT = join(__dirname, '..');
let repo: string;

const write = (file: string, text: string) => {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
};
const at = (file: string, seconds: number) => utimesSync(join(repo, file), seconds, seconds);
const run = () => execFileSync(process.execPath, [join(repo, 'scripts', 'run.mjs'), 'gateway/src/hello', 'a', '--b'], { cwd: repo, encoding: 'utf8' }).trim();

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'backoffice-launch-'));
  mkdirSync(join(repo, 'scripts'));
  for (const script of ['run.mjs', 'build-inputs.mjs']) copyFileSync(join(ROOT, 'scripts', script), join(repo, 'scripts', script));
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
  write('package.json', JSON.stringify({ workspaces: ['gateway'] }));
  write('gateway/package.json', '{}');
  mkdirSync(join(repo, 'sdk', 'src'), { recursive: true });
  // The program's own arguments reach it, whichever form runs.
  write('gateway/src/hello.ts', "const form: string = 'source';\nconsole.log(form, process.argv.slice(2).join(' '));\n");
  write('dist/gateway/src/hello.js', "console.log('compiled', process.argv.slice(2).join(' '));\n");
});
afterAll(() => rmSync(repo, { recursive: true, force: true }));

it('runs the sources through tsx without a build, the build once it is newer than every input, the sources again after a change', () => {
  expect(run()).toBe('source a --b');
  const now = Date.now() / 1000;
  for (const file of ['package.json', 'gateway/package.json', 'gateway/src/hello.ts']) at(file, now - 60);
  write('dist/.built', '');
  at('dist/.built', now - 30);
  expect(run()).toBe('compiled a --b');
  // A source saved after the build started (the stamp is dated from the start).
  at('gateway/src/hello.ts', now - 10);
  expect(run()).toBe('source a --b');
  // A copied input (the manifest) counts too.
  at('gateway/src/hello.ts', now - 60);
  at('gateway/package.json', now);
  expect(run()).toBe('source a --b');
});

it('is how npm start and the CLI run, and npm install (npm ci too) builds dist/ through prepare', () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(scripts.prepare).toBe('npm run build');
  expect(scripts.start).toMatch(/ node scripts\/run\.mjs gateway\/src\/main$/);
  expect(scripts.backoffice).toBe('node scripts/run.mjs gateway/src/cli');
});
