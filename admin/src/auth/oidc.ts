/**
 * Sign-in with the instance's OIDC provider: the browser goes to `GET /v1/auth/oidc/start` with the store
 * and the admin path to come back to; after the provider, the gateway's callback sets the session cookie
 * and redirects there, or to the sign-in page with the refusal's kind and reason in its fragment
 * (`#oidc_error=<kind>&oidc_reason=<reason>`), which the page words itself.
 */
export function startOidc(store: string, from: string): void {
  const params = new URLSearchParams({ store, return_to: `/admin${from}` });
  window.location.assign(`/v1/auth/oidc/start?${params}`);
}

export interface OidcRefusal {
  kind: string;
  reason?: string;
}

/** The refusal a fragment carries back from the gateway, or null. */
export function oidcRefusalFromFragment(hash: string): OidcRefusal | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const kind = params.get('oidc_error');
  if (!kind) return null;
  return { kind, reason: params.get('oidc_reason') ?? undefined };
}

type Worded = 'not_configured' | 'unavailable' | 'not_found' | 'unauthorized' | 'rate_limited' | 'failed';

/** The message key that words a refusal (signIn.oidc.*): the reasons the start and the callback give, else by kind. */
export function oidcRefusalKey(refusal: OidcRefusal): `signIn.oidc.${Worded}` {
  if (refusal.reason === 'not_configured' || refusal.reason === 'unavailable' || refusal.reason === 'not_found') return `signIn.oidc.${refusal.reason}`;
  if (refusal.kind === 'unauthorized' || refusal.kind === 'rate_limited') return `signIn.oidc.${refusal.kind}`;
  return 'signIn.oidc.failed';
}
