import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Where a webhook may be sent, as configured: WEBHOOK_ALLOW_INSECURE=1, WEBHOOK_ALLOW_PRIVATE=1. */
export interface TargetPolicy {
  /** http:// to a loopback host (a receiver on the same machine, in development and tests). */
  allowInsecure: boolean;
  /** Private, loopback, link-local and other non-public addresses. */
  allowPrivate: boolean;
}

export function targetPolicy(env = process.env): TargetPolicy {
  return { allowInsecure: env.WEBHOOK_ALLOW_INSECURE === '1', allowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1' };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a subscription's address is refused at creation (its form), or null. */
export function urlProblem(url: string, policy: TargetPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url is not an absolute URL';
  }
  if (parsed.username || parsed.password) return 'url may not carry credentials';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && policy.allowInsecure && LOOPBACK_HOSTS.has(parsed.hostname)) return null;
  return policy.allowInsecure ? 'url must be https (http only to a loopback host)' : 'url must be https';
}

/**
 * Checks where a delivery would go, at send time (a name may point elsewhere since the subscription
 * was made): every address the host resolves to must be public unicast, unless private targets are
 * allowed. Returns one checked address to connect to, so the connection goes where the check looked.
 */
export async function resolveTarget(url: string, policy: TargetPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const problem = urlProblem(url, policy);
  if (problem) throw new Error(problem);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }] : await lookup(host, { all: true, verbatim: true });
  if (!addresses.length) throw new Error(`${host} does not resolve`);
  for (const { address } of addresses) {
    const parsed = ipaddr.process(address);
    // `unicast` is ipaddr.js's name for public unicast; loopback, private, link-local (cloud metadata
    // at 169.254.169.254), carrier-grade NAT, multicast, reserved and the like are anything else.
    if (parsed.range() !== 'unicast' && !policy.allowPrivate) throw new Error(`${host} resolves to a non-public address (${parsed.range()})`);
  }
  return addresses[0] as { address: string; family: 4 | 6 };
}
