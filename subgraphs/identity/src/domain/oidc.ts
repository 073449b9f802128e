import * as client from 'openid-client';
import { conflict } from '@backoffice/platform';
import { isLoopbackUrl } from './operators';

/** OIDC login attempts (state, nonce, PKCE verifier) live 10 minutes. */
export const OIDC_LOGIN_TTL_MS = 10 * 60_000;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export function oidcSettings(env: NodeJS.ProcessEnv = process.env): OidcSettings | null {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET ?? '';
  return issuer && clientId ? { issuer, clientId, clientSecret } : null;
}

/**
 * Where the provider sends the browser back: OIDC_REDIRECT_URI, as registered with the provider.
 * Configuration only, never a request's input or Host header, which a caller chooses.
 */
export function oidcRedirectUri(env: NodeJS.ProcessEnv = process.env): string {
  const uri = env.OIDC_REDIRECT_URI?.trim();
  if (!uri) throw conflict('OIDC login is not configured (OIDC_REDIRECT_URI, the callback registered with the provider)', { reason: 'not_configured' });
  return uri;
}

/**
 * The provider's name for a sign-in button, when OIDC is configured (its settings and the redirect URI):
 * OIDC_PROVIDER_NAME (at most 100 characters), else the issuer's host; null when it is not.
 */
export function oidcProviderName(env: NodeJS.ProcessEnv = process.env): string | null {
  const settings = oidcSettings(env);
  if (!settings || !env.OIDC_REDIRECT_URI?.trim()) return null;
  const named = env.OIDC_PROVIDER_NAME?.trim().slice(0, 100);
  if (named) return named;
  try {
    return new URL(settings.issuer).host;
  } catch {
    return settings.issuer.slice(0, 100);
  }
}

/** Discovery, once per settings (retried after a failure). */
let discovered: { key: string; config: Promise<client.Configuration> } | null = null;

/**
 * The provider's configuration (discovery of OIDC_ISSUER), with the client's id and secret
 * (client_secret_basic). Plain http is allowed only for an issuer on a loopback address
 * (a provider on the same machine, in development and tests).
 */
export function oidcConfiguration(env: NodeJS.ProcessEnv = process.env): Promise<client.Configuration> {
  const settings = oidcSettings(env);
  if (!settings) throw conflict('OIDC login is not configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)', { reason: 'not_configured' });
  const key = JSON.stringify(settings);
  if (discovered?.key === key) return discovered.config;
  const insecure = new URL(settings.issuer).protocol === 'http:' && isLoopbackUrl(settings.issuer);
  const config = client
    .discovery(
      new URL(settings.issuer),
      settings.clientId,
      settings.clientSecret,
      undefined,
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    )
    .catch((error: Error) => {
      if (discovered?.key === key) discovered = null;
      throw conflict(`the identity provider at ${settings.issuer} cannot be reached: ${error.message}`, { reason: 'unavailable' });
    });
  discovered = { key, config };
  return config;
}

export { client as oidc };
