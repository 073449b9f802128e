import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SUBGRAPHS } from '../gateway/src/subgraphs';

/**
 * docker-compose.yml cannot run here (no engine); CI also checks it with `docker-compose config`.
 * This test holds it to the code: one service per subgraph on its entry point and port, and a
 * gateway fronting them.
 */
const ROOT = join(__dirname, '..');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
};

it('runs each subgraph alone on its entry point and port', () => {
  for (const subgraph of SUBGRAPHS) {
    const service = compose.services[subgraph.name];
    expect(service).toBeDefined();
    const entry = service.command!.find((part) => part.endsWith('main.ts'))!;
    expect(existsSync(join(ROOT, entry))).toBe(true);
    expect(service.environment?.[`${subgraph.name.toUpperCase()}_PORT`]).toBe(String(subgraph.defaultPort));
    expect(service.environment?.CONTEXT_SECRET).toBeDefined();
  }
});

it('runs the gateway in front of them, with PostgreSQL and Redis beside', () => {
  const gateway = compose.services.gateway;
  expect(gateway.environment).toMatchObject({ GATEWAY_ONLY: '1', REDIS_URL: 'redis://redis:6379' });
  for (const subgraph of SUBGRAPHS) {
    expect(gateway.environment?.[`${subgraph.name.toUpperCase()}_URL`]).toBe(`http://${subgraph.name}:${subgraph.defaultPort}`);
  }
  expect(Object.keys(compose.services).sort()).toEqual(['catalog', 'content', 'gateway', 'identity', 'orders', 'postgres', 'redis']);
});
