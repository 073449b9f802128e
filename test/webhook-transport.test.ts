import { resolveTarget, urlProblem } from '../subgraphs/identity/src/domain/webhook-target';
import { sendWebhook } from '../subgraphs/identity/src/domain/webhook-send';
import { signedHeaders } from '../subgraphs/identity/src/domain/webhook-signature';
import { createServer, type IncomingMessage } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '@backoffice/platform';

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

  it.each(['https://127.0.0.1/', 'https://10.1.2.3/', 'https://192.168.0.1/', 'https://169.254.169.254/latest', 'https://[::1]/', 'https://[fd00::1]/', 'https://localhost/', 'https://100.64.0.1/'])(
    'refuses %s at send time unless private targets are allowed',
    async (url) => {
      await expect(resolveTarget(url, strict)).rejects.toThrow(/non-public address/);
      await expect(resolveTarget(url, { ...strict, allowPrivate: true })).resolves.toBeDefined();
    },
  );
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
    const secrets = ['whsec_' + Buffer.alloc(32, 1).toString('base64'), 'whsec_' + Buffer.alloc(32, 2).toString('base64')];
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
