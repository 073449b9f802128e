import { nonPublicRange, resolveTarget, urlProblem } from '../subgraphs/identity/src/domain/webhook-target';
import { sendWebhook } from '../subgraphs/identity/src/domain/webhook-send';
import { signedHeaders } from '../subgraphs/identity/src/domain/webhook-signature';
import { createServer, type IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '@backoffice/platform';
import { startTestSystem } from './helpers';

const open = { allowInsecure: true, allowPrivate: true };
const strict = { allowInsecure: false, allowPrivate: false };

describe('webhook targets', () => {
  it('are https, or http to a loopback host only when insecure targets are allowed', () => {
    expect(urlProblem('https://hooks.example.com/x', strict)).toBeNull();
    expect(urlProblem('http://hooks.example.com/x', strict)).toBe('url must be https');
    expect(urlProblem('http://127.0.0.1:9/x', strict)).toBe('url must be https');
    expect(urlProblem('http://127.0.0.1:9/x', open)).toBeNull();
    expect(urlProblem('http://example.com/x', open)).toBe('url must be https (http only to a loopback host)');
    expect(urlProblem('https://user:pw@example.com/', strict)).toBe('url may not carry credentials');
  });

  it.each([
    'https://127.0.0.1/',
    'https://10.1.2.3/',
    'https://192.168.0.1/',
    'https://169.254.169.254/latest',
    'https://[::1]/',
    'https://[fd00::1]/',
    'https://localhost/',
    'https://100.64.0.1/',
  ])('refuses %s at send time unless private targets are allowed', async (url) => {
    await expect(resolveTarget(url, strict)).rejects.toThrow(/non-public address/);
    await expect(resolveTarget(url, { ...strict, allowPrivate: true })).resolves.toBeDefined();
  });
});

describe('literal non-public addresses', () => {
  const spellings = [
    'https://127.0.0.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::1]/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/',
    'https://192.168.1.1/',
    'https://172.16.0.1/',
    'https://172.31.255.254/',
    'https://100.64.0.1/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
    'https://224.0.0.1/',
    'https://[ff02::1]/',
    'https://255.255.255.255/',
    'https://localhost/',
    'https://hooks.localhost./',
  ];

  it.each(spellings)('refuses %s at creation unless private targets are allowed', (url) => {
    expect(urlProblem(url, strict)).toMatch(/^url points to a non-public address \(\w+\); set WEBHOOK_ALLOW_PRIVATE=1 to allow it$/);
    expect(urlProblem(url, { ...strict, allowPrivate: true })).toBeNull();
  });

  it('lets public addresses and names through (their resolution is checked when sending)', () => {
    for (const url of [
      'https://8.8.8.8/',
      'https://[2001:4860:4860::8888]/',
      'https://hooks.example.com/',
      'https://172.32.0.1/',
      'https://localhost.example.com/',
    ])
      expect(urlProblem(url, strict)).toBeNull();
  });

  it('shares one range check between creation and sending', () => {
    expect([nonPublicRange('::ffff:7f00:1'), nonPublicRange('169.254.169.254'), nonPublicRange('8.8.8.8')]).toEqual(['loopback', 'linkLocal', null]);
  });
});

describe('webhook secrets', () => {
  it('are sealed with AES-GCM and open only with the same key', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal('whsec_c2VjcmV0');
    expect(sealed).not.toContain('c2VjcmV0');
    expect(box.open(sealed)).toBe('whsec_c2VjcmV0');
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
  });
});

describe('a delivery', () => {
  it('is signed as Standard Webhooks verify it, by every live secret, and not redirected', async () => {
    const secrets = [`whsec_${Buffer.alloc(32, 1).toString('base64')}`, `whsec_${Buffer.alloc(32, 2).toString('base64')}`];
    const seen: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(req.url === '/moved' ? 302 : 204, req.url === '/moved' ? { location: '/' } : {}).end();
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const body = JSON.stringify({ event_id: 'evt_1', type: 't' });
      const outcome = await sendWebhook(`${base}/hook`, signedHeaders('evt_1', new Date(), body, secrets), body, open);
      expect(outcome).toEqual({ ok: true, status: 204, error: null });
      for (const secret of secrets) expect(new Webhook(secret).verify(seen[0].body, seen[0].headers as Record<string, string>)).toEqual(JSON.parse(body));
      expect(await sendWebhook(`${base}/moved`, signedHeaders('evt_2', new Date(), body, secrets), body, open)).toMatchObject({ ok: false, status: 302 });
      expect(seen.length).toBe(2);
      expect(await sendWebhook(`${base}/hook`, {}, body, strict)).toMatchObject({ ok: false, status: null, error: 'url must be https' });
    } finally {
      server.close();
    }
  });
});

describe('webhook.subscription.create and update', () => {
  it('refuse a literal non-public address with validation_failed (WEBHOOK_ALLOW_PRIVATE unset)', async () => {
    const saved = process.env.WEBHOOK_ALLOW_PRIVATE;
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    const t = await startTestSystem();
    try {
      for (const url of ['https://0x7f000001/hook', 'https://[::ffff:7f00:1]/hook', 'https://169.254.169.254/latest']) {
        const res = await t.command('webhook.subscription.create', { url, event_types: ['*'] });
        expect([res.status, res.body.error?.kind, res.body.error?.message]).toEqual([400, 'validation_failed', expect.stringContaining('non-public address')]);
      }
      const made = await t.ok('webhook.subscription.create', { url: 'https://hooks.example.com/x', event_types: ['*'] });
      const moved = await t.command('webhook.subscription.update', { subscription_id: made.subscription_id, url: 'https://2130706433/x' });
      expect([moved.status, moved.body.error?.kind, moved.body.error?.message]).toEqual([
        400,
        'validation_failed',
        expect.stringContaining('non-public address (loopback)'),
      ]);
    } finally {
      await t.stop();
      if (saved !== undefined) process.env.WEBHOOK_ALLOW_PRIVATE = saved;
    }
  });
});
