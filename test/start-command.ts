import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Runs `npm start` the way a newcomer does, in a process group of its own (tests of the start command). */

export const ROOT = join(__dirname, '..');

/** The environment of `npm start` on the embedded default under `dataDir`: no DATABASE_URL, no Redis. */
export function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  // Its log lines are read as a person would read them (under jest they would default to silent).
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, REDIS_URL: '', LOG_LEVEL: process.env.LOG_LEVEL || 'info' };
  delete env.DATABASE_URL;
  return env;
}

export interface StartedCommand {
  /** `npm`, leader of the group; main runs below it (npm → sh → node scripts/run.mjs, the program in that process). */
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/** Resolves once the child prints "back office ready"; fails (killing its group when `detached`) if it exits or takes longer. */
export function untilReady(child: ChildProcess, timeoutMs: number, detached: boolean): Promise<() => string> {
  let output = '';
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => {
      if (detached) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      fail(new Error(`the server did not get ready:\n${output}`));
    }, timeoutMs);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('back office ready')) {
        clearTimeout(timer);
        ok(() => output);
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
}

/** `npm start` on `port`; resolves once it prints "back office ready" (killing it if it does not in time). */
export async function startCommand(env: NodeJS.ProcessEnv, port: number, timeoutMs = 90_000): Promise<StartedCommand> {
  const child = spawn('npm', ['start'], { cwd: ROOT, env: { ...env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, output: await untilReady(child, timeoutMs, true) };
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => child.once('exit', () => ok()));
}

/**
 * SIGTERM to the whole group, as Ctrl-C in a terminal would signal it; resolves once every process of
 * the group has exited: npm may exit before the server it started has finished its own shutdown.
 */
export async function stopCommand(child: ChildProcess, timeoutMs = 30_000): Promise<void> {
  const done = exited(child);
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
  await done;
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return; // ESRCH: no process of the group is left
    }
    if (Date.now() > until) throw new Error(`processes of group ${child.pid} still run ${timeoutMs} ms after SIGTERM`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}
