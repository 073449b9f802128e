import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SUBGRAPHS } from '../gateway/src/subgraphs';

/**
 * docker-compose.yml and the Dockerfile cannot run here (no engine; CI checks the file with
 * `docker-compose config`). This holds them to the code: the image runs the JavaScript
 * `npm run build` compiles (dist/<path>.js of each <path>.ts, laid over /app), every process is
 * checked on its /readyz, starts after what it asks, and the first tenant comes from a one-shot.
 */
const ROOT = join(__dirname, '..');

interface Service {
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  profiles?: string[];
  restart?: string;
}
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };

/** The TypeScript source a compiled entry point (`…/src/main.js` in the image) is built from. */
const sourceOf = (entry: string) => join(ROOT, entry.replace(/\.js$/, '.ts'));

const readyzCheck = (port: number) => ['CMD', 'node', '-e', `fetch('http://127.0.0.1:${port}/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`];

const healthy = (...names: string[]) => Object.fromEntries(names.map((name) => [name, { condition: 'service_healthy' }]));

it('runs each subgraph alone on its compiled entry point and port, checked on its /readyz', () => {
  for (const subgraph of SUBGRAPHS) {
    const service = compose.services[subgraph.name];
    expect(service.command).toEqual(['node', `subgraphs/${subgraph.name}/src/main.js`]);
    expect(existsSync(sourceOf(service.command![1]))).toBe(true);
    expect(service.environment?.[`${subgraph.name.toUpperCase()}_PORT`]).toBe(String(subgraph.defaultPort));
    expect(service.environment?.CONTEXT_SECRET).toBeDefined();
    expect(service.healthcheck?.test).toEqual(readyzCheck(subgraph.defaultPort));
  }
});

it('starts a subgraph after healthy PostgreSQL and Redis, and after a healthy identity unless it is identity', () => {
  for (const subgraph of SUBGRAPHS) {
    const dependsOn = compose.services[subgraph.name].depends_on;
    expect(dependsOn).toMatchObject(healthy('postgres', 'redis', ...(subgraph.name === 'identity' ? [] : ['identity'])));
    if (subgraph.name === 'identity') expect(Object.keys(dependsOn!).sort()).toEqual(['postgres', 'redis']);
  }
  // Checkout asks the catalog for prices.
  expect(compose.services.orders.depends_on).toMatchObject(healthy('catalog'));
  expect(compose.services.postgres.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
  expect(compose.services.redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
});

it('runs the gateway in front of healthy subgraphs, checked on its /readyz', () => {
  const gateway = compose.services.gateway;
  expect(gateway.command).toEqual(['node', 'gateway/src/main.js']);
  expect(existsSync(sourceOf(gateway.command![1]))).toBe(true);
  expect(gateway.environment).toMatchObject({ GATEWAY_ONLY: '1', PORT: '4000', REDIS_URL: 'redis://redis:6379' });
  for (const subgraph of SUBGRAPHS) {
    expect(gateway.environment?.[`${subgraph.name.toUpperCase()}_URL`]).toBe(`http://${subgraph.name}:${subgraph.defaultPort}`);
  }
  expect(gateway.depends_on).toEqual(healthy(...SUBGRAPHS.map((s) => s.name), 'redis'));
  expect(gateway.healthcheck?.test).toEqual(readyzCheck(4000));
  expect(Object.keys(compose.services).sort()).toEqual(['bootstrap', 'catalog', 'content', 'gateway', 'identity', 'orders', 'postgres', 'redis', 'worker']);
});

it('runs the background work in a worker, apart from the processes answering requests', () => {
  for (const name of [...SUBGRAPHS.map((s) => s.name), 'gateway']) expect(compose.services[name].environment).toMatchObject({ CONSUMERS: 'off', JOBS: 'off' });
  const worker = compose.services.worker;
  expect(worker.command).toEqual(['node', 'gateway/src/worker-main.js']);
  expect(existsSync(sourceOf(worker.command![1]))).toBe(true);
  expect(worker.environment).toMatchObject({
    CONSUMERS: 'on',
    JOBS: 'on',
    WORKER_PORT: '4005',
    DATABASE_URL: compose.services.identity.environment?.DATABASE_URL,
  });
  // It seals and opens what identity and content do.
  expect(worker.environment?.WEBHOOK_SECRET_KEY).toBe(compose.services.identity.environment?.WEBHOOK_SECRET_KEY);
  expect(worker.environment?.VAULT_KEY).toBe(compose.services.content.environment?.VAULT_KEY);
  expect(worker.depends_on).toEqual(healthy('postgres', 'redis'));
  expect(worker.healthcheck?.test).toEqual(readyzCheck(4005));
});

it('creates the first tenant with a one-shot of the CLI, only when asked, once the gateway is healthy', () => {
  const bootstrap = compose.services.bootstrap;
  expect(bootstrap.profiles).toEqual(['bootstrap']);
  expect(bootstrap.restart).toBe('no');
  expect(bootstrap.depends_on).toEqual(healthy('gateway'));
  expect(bootstrap.entrypoint).toEqual(['node', 'gateway/src/cli.js']);
  expect(existsSync(sourceOf(bootstrap.entrypoint![1]))).toBe(true);
  expect(bootstrap.command!.slice(0, 2)).toEqual(['tenant', 'create']);
  expect(bootstrap.environment?.DATABASE_URL).toBe(compose.services.identity.environment?.DATABASE_URL);
});

it('builds the image once with compiled JavaScript: the run stage runs node, never tsx', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  expect(stages.some((stage) => /RUN npm run build/.test(stage))).toBe(true);
  const runtime = stages[stages.length - 1];
  expect(runtime).toMatch(/^CMD \["node", "gateway\/src\/main\.js"\]$/m);
  expect(runtime).not.toMatch(/tsx|\.ts\b/);
  const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
  expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', 'dist', '.data', '.git']));
});

it('installs, compiles and ships every workspace (a new package needs its lines in the Dockerfile and tsconfig.build.json)', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const { workspaces } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
  const { include } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { include: string[] };
  for (const workspace of workspaces) {
    expect([workspace, dockerfile.includes(`COPY ${workspace}/package.json ${workspace}/`)]).toEqual([workspace, true]);
    if (workspace === 'admin') {
      // The admin front-end is no Node package: Vite builds it into admin/dist/, which the image ships as it is.
      expect([dockerfile.includes('COPY admin admin'), dockerfile.includes('COPY --from=build /app/admin/dist admin/dist')]).toEqual([true, true]);
      continue;
    }
    if (!workspace.startsWith('subgraphs/')) {
      expect([
        workspace,
        dockerfile.includes(`COPY ${workspace}/src ${workspace}/src`),
        dockerfile.includes(`COPY --from=build /app/dist/${workspace} ${workspace}`),
      ]).toEqual([workspace, true, true]);
    }
    expect([workspace, include.includes(`${workspace}/src`) || (workspace.startsWith('subgraphs/') && include.includes('subgraphs/*/src'))]).toEqual([
      workspace,
      true,
    ]);
  }
});

it('compiles the sources the image runs with tsconfig.build.json (no jest types, no tests)', () => {
  const tsc = require.resolve('typescript/bin/tsc');
  expect(() => execFileSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--noEmit'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
});
