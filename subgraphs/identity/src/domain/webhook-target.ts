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

/**
 * The range of an address that is not public unicast (`loopback`, `private`, `linkLocal` — cloud
 * metadata at 169.254.169.254 —, `uniqueLocal`, `carrierGradeNat`, `unspecified`, `multicast`,
 * `broadcast`, `reserved`…), or null for a public one. An IPv4-mapped IPv6 address is judged as
 * the IPv4 address it carries. The one check of creation (literal hosts) and of sending (after DNS).
 */
export function nonPublicRange(address: string): string | null {
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/**
 * The host's address when the URL names one literally, however spelled: the WHATWG parser has
 * already made `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1` into `127.0.0.1`.
 */
const literalAddress = (hostname: string): string | null => {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
};

/** `localhost` and its subdomains are loopback by definition (RFC 6761), whatever DNS says. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/.test(hostname);

/** Why a subscription's address is refused at creation (its form, or a literal non-public host), or null. */
export function urlProblem(url: string, policy: TargetPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url is not an absolute URL';
  }
  if (parsed.username || parsed.password) return 'url may not carry credentials';
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && policy.allowInsecure && LOOPBACK_HOSTS.has(parsed.hostname))) {
    return policy.allowInsecure ? 'url must be https (http only to a loopback host)' : 'url must be https';
  }
  if (policy.allowPrivate) return null;
  const address = literalAddress(parsed.hostname);
  const range = address ? nonPublicRange(address) : isLocalhostName(parsed.hostname) ? 'loopback' : null;
  return range ? `url points to a non-public address (${range}); set WEBHOOK_ALLOW_PRIVATE=1 to allow it` : null;
}

/**
 * Checks where a delivery would go, at send time (a name may point elsewhere since the subscription
 * was made): every address the host resolves to must be public unicast, unless private targets are
 * allowed. Returns one checked address to connect to, so the connection goes where the check looked.
 */
export async function resolveTarget(url: string, policy: TargetPolicy): Promise<{ address: string; family: 4 | 6 }> {
  const problem = urlProblem(url, policy);
  if (problem) throw new Error(problem);
  const { hostname } = new URL(url);
  const literal = literalAddress(hostname);
  const addresses = literal
    ? [{ address: literal, family: ipaddr.parse(literal).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(hostname, { all: true, verbatim: true });
  if (!addresses.length) throw new Error(`${hostname} does not resolve`);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range && !policy.allowPrivate) throw new Error(`${hostname} resolves to a non-public address (${range})`);
  }
  return addresses[0] as { address: string; family: 4 | 6 };
}
