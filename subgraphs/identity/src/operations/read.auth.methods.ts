import { t } from '@backoffice/platform';
import { oidcProviderName } from '../domain/oidc';
import { defineIdentityOperation } from '../ports';

/**
 * Public: how an operator may sign in here, so a sign-in page offers only what works: the one-time code
 * always, OIDC when the instance has a provider (OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_REDIRECT_URI set).
 * Configuration only: no store, tenant or operator is looked up.
 */
export const readAuthMethods = defineIdentityOperation({
  name: 'read.auth.methods',
  kind: 'read',
  access: 'public',
  scope: null,
  summary:
    'Public (extension): the ways an operator signs in on this instance: login_code (always) and oidc, the ' +
    "provider's name (OIDC_PROVIDER_NAME, else the issuer's host) when OIDC is configured, else null. Begin an OIDC " +
    'login with GET /v1/auth/oidc/start?store=<handle>.',
  restPath: '/auth/methods',
  input: t.object({}),
  result: t.object({
    login_code: t.boolean(),
    oidc: t.nullable(t.object({ provider: t.string({ description: 'the name to show: "Sign in with <provider>"' }) })),
  }),
  events: [],
  async handler() {
    const provider = oidcProviderName();
    return { login_code: true, oidc: provider === null ? null : { provider } };
  },
});
