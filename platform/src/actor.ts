import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who is calling: an API key acting inside its tenant. */
export interface Actor {
  tenant_id: string;
  api_key_id: string;
  credential_id: string;
  name: string;
  scopes: string[];
  is_owner: boolean;
}

/** An operator logged in through the admin (its credential is a session, `ses_…`), not an API key (`cred_…`). */
export const isOperatorSession = (actor: Actor): boolean => actor.credential_id.startsWith('ses_');

/** What the gateway tells a subgraph about a request. `actor` is null for public reads. */
export interface CallContext {
  actor: Actor | null;
  request_id: string;
  /** The client's network address as the gateway saw it (per-address limits of public operations, e.g. login codes). */
  client_address?: string;
}

export const ACTOR_CONTEXT_HEADER = 'x-backoffice-context';
const LIFETIME_MS = 60_000;

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

/** Signs a short-lived context: base64url(JSON) + "." + base64url(HMAC-SHA256). */
export function signContext(secret: string, context: CallContext, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ ...context, exp: now + LIFETIME_MS })).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The context, or null when it is missing, forged or expired. */
export function verifyContext(secret: string, header: string | undefined, now = Date.now()): CallContext | null {
  if (!header) return null;
  const dot = header.indexOf('.');
  if (dot < 1) return null;
  const body = header.slice(0, dot);
  const given = Buffer.from(header.slice(dot + 1), 'base64url');
  const expected = mac(secret, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CallContext & { exp: number };
    if (typeof parsed.exp !== 'number' || parsed.exp < now) return null;
    return {
      actor: parsed.actor ?? null,
      request_id: String(parsed.request_id),
      ...(typeof parsed.client_address === 'string' ? { client_address: parsed.client_address } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The credential for subgraphs' internal endpoints, derived from the shared secret. It travels in a
 * header, so it must not be the key that signs contexts: whoever sees it cannot forge an actor.
 */
export function internalToken(secret: string): string {
  return createHmac('sha256', secret).update('backoffice internal endpoints v1').digest('base64url');
}
