import type { Static } from '@sinclair/typebox';
import { t } from '@backoffice/platform';
import type { ApiKey } from '../entities';
import { scopesView } from './scopes';

/**
 * An API key (an actor) as the admin reads it, the federation entity `ApiKey`: never a token nor the
 * hash of one (the token is shown once, by iam.api_key.create and rotate). Last use is not recorded.
 * `expires_at`: when its last token generation expires; null when one never expires.
 */
export const apiKeyView = t.entity(
  'ApiKey',
  {
    api_key_id: t.string(),
    name: t.string(),
    scopes: scopesView(),
    is_owner: t.boolean({ description: 'the tenant’s owner key: only it may rotate or revoke itself' }),
    issued_by: t.nullable(t.string({ description: 'the key (or operator session’s key) that created it; null for the owner key' })),
    created_at: t.timestamp(),
    expires_at: t.nullable(t.timestamp()),
    revoked: t.boolean(),
    revoked_at: t.nullable(t.timestamp()),
  },
  'api_key_id',
);

export type ApiKeyView = Static<typeof apiKeyView>;
export type ApiKeyViewRow = ApiKey & { expires_at: Date | null };

/** The columns of an ApiKeyViewRow over `identity.api_key k`: the key and its generations' latest expiry (NULL when one never expires). */
export const API_KEY_COLUMNS =
  'k.*, (SELECT CASE WHEN bool_or(c.expires_at IS NULL) THEN NULL ELSE max(c.expires_at) END FROM identity.credential c WHERE c.api_key_id = k.id) AS expires_at';

export function apiKeyViewOf(row: ApiKeyViewRow): ApiKeyView {
  return {
    api_key_id: row.id,
    name: row.name,
    scopes: row.scopes,
    is_owner: row.is_owner,
    issued_by: row.issued_by,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked: row.revoked_at !== null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
