import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { resolveTarget, type TargetPolicy } from './webhook-target';

/** What became of one POST: the receiver's status, or why there was none. */
export type SendOutcome = { ok: boolean; status: number | null; error: string | null };

/** A receiver has this long to answer; a 2xx within it is success. */
export const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * POSTs a delivery. The address is checked when it is sent and the connection goes to the very
 * address checked (no second resolution in between); redirects are not followed (a 3xx is a
 * failure); the receiver's body is read no further than its first 4 KiB.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
): Promise<SendOutcome> {
  let target: { address: string; family: 4 | 6 };
  try {
    target = await resolveTarget(url, policy);
  } catch (error) {
    return { ok: false, status: null, error: (error as Error).message };
  }
  const parsed = new URL(url);
  const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'backoffice-webhooks/1' },
        // Node may ask for every address (happy eyeballs) or one: either way, only the checked one. Node's
        // overloaded lookup type has no single arrow form; the two answers are the ones its callback takes.
        lookup: ((_host: string, options: { all?: boolean }, done: (...args: unknown[]) => void) =>
          options.all ? done(null, [target]) : done(null, target.address, target.family)) as never,
        timeout: timeoutMs,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > 4096) res.destroy();
        });
        res.on('close', () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          resolve({ ok, status, error: ok ? null : `the receiver answered ${status}` });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (error) => resolve({ ok: false, status: null, error: error.message }));
    req.end(body);
  });
}
