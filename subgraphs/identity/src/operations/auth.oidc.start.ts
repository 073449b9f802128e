import { conflict, defineOperation, t } from '@backoffice/platform';
import { spendLoginRate, stateHash, storeByHandle } from '../domain/operators';
import { OIDC_LOGIN_TTL_MS, oidc, oidcConfiguration, oidcRedirectUri } from '../domain/oidc';
import { loginStoreField } from './auth.login_code.request';

/**
 * Public: begins an OIDC login (authorization code flow with PKCE, `state` and `nonce`) at a store.
 * `GET /v1/auth/oidc/start?store=<handle>` calls it and redirects to the answer's URL.
 */
export const authOidcStart = defineOperation({
  name: 'auth.oidc.start',
  kind: 'command',
  access: 'public',
  scope: null,
  summary:
    'Public (extension): begins an OIDC login of an operator at a store: the authorization URL of OIDC_ISSUER (code ' +
    'flow, PKCE S256, state and nonce, valid 10 minutes). GET /v1/auth/oidc/start?store=<handle> redirects there; ' +
    'the provider returns to OIDC_REDIRECT_URI (GET /v1/auth/oidc/callback, registered with the provider), where ' +
    'the same browser (its `binding`) must show up. conflict when OIDC is not configured or the store does not ' +
    'exist.',
  input: t.object({
    store: loginStoreField,
    binding: t.string({
      minLength: 32,
      maxLength: 128,
      description: 'a random value the browser keeps and shows again at the callback (the start route keeps it in a cookie)',
    }),
  }),
  result: t.object({ authorization_url: t.string(), expires_at: t.timestamp() }),
  events: [],
  async handler({ input, db, stage, client_address }) {
    await spendLoginRate('oidc', client_address ?? null);
    const store = await storeByHandle(db, input.store);
    if (!store) throw conflict(`no store has the handle ${input.store}`, { reason: 'not_found', field: 'store' });
    const config = await oidcConfiguration();
    const redirectUri = oidcRedirectUri();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const expiresAt = new Date(Date.now() + OIDC_LOGIN_TTL_MS);
    stage(
      `INSERT INTO identity.oidc_login (state_hash, tenant_id, store_id, nonce, code_verifier, redirect_uri, binding_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [stateHash(state), store.tenant_id, store.id, nonce, verifier, redirectUri, stateHash(input.binding), expiresAt],
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorization_url: url.href, expires_at: expiresAt.toISOString() };
  },
});
