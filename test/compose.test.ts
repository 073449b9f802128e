import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** docker-compose.yml cannot run here (no engine), but it must be a valid file that names every process. */
it('docker-compose.yml is valid and runs each subgraph and the gateway separately', () => {
  const out = execFileSync('docker-compose', ['config', '--services'], {
    cwd: join(__dirname, '..'),
    env: { ...process.env, CONTEXT_SECRET: 'x'.repeat(32) },
  }).toString();
  expect(out.trim().split('\n').sort()).toEqual(['catalog', 'content', 'gateway', 'identity', 'orders', 'postgres', 'redis']);
});
