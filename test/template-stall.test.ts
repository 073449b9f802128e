import { startTestSystem, type TestSystem } from './helpers';

/**
 * The attack of issue 24 on a quiet system: a 92 KB template nesting `{{#if}}` 4,000 deep took
 * Handlebars' parser 24–37 s, during which every request of every tenant waited.
 */
let t: TestSystem;

beforeAll(async () => {
  t = await startTestSystem();
});

afterAll(async () => {
  await t?.stop();
});

it('refuses a 4,000-deep template at once while every other request goes on (no whoami waits a second)', async () => {
  const attacker = await t.newTenant();
  const victim = await t.newTenant();
  const whoami = async () => {
    const started = performance.now();
    expect((await t.read('/internal/whoami', {}, victim.token)).status).toBe(200);
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await whoami(); // connections and code paths warm, as in service
  const attack = `${'{{#if order_id}}'.repeat(4000)}x${'{{/if}}'.repeat(4000)}`;
  expect(attack.length).toBeGreaterThan(90_000);
  let attacking = true;
  const latencies: number[] = [];
  const measure = (async () => {
    while (attacking || latencies.length < 200) latencies.push(await whoami());
  })();
  for (let round = 0; round < 20; round++) {
    const res = await t.command(
      'notification.template.set',
      { type_key: 'order.paid', channel_key: 'email', locale: 'en', fields: { subject: 'Paid', html: attack } },
      attacker.token,
    );
    expect([res.status, res.body.error.kind, res.body.error.message]).toEqual([
      400,
      'validation_failed',
      expect.stringContaining('nests blocks deeper than 6'),
    ]);
  }
  attacking = false;
  await measure;
  latencies.sort((a, b) => a - b);
  // The stall was 24–37 s per template: no request may wait even 1 s (a bound a busy CI host keeps;
  // how fast requests are meanwhile is for the bench, not a timed test).
  const slowest = latencies[latencies.length - 1];
  expect({ slowest: Math.round(slowest), underOneSecond: slowest < 1000, requests: latencies.length }).toMatchObject({ underOneSecond: true });
});
