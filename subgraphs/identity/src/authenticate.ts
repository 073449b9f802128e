import { poolOf, type Actor } from '@backoffice/platform';
import type { DataSource } from 'typeorm';
import { parseToken, secretMatches } from './tokens';

/** Only generations that are alive: the key not revoked, the generation not past its deadline. */
const LIVE_CREDENTIAL = {
  name: 'identity_live_credential',
  text: `SELECT c.secret_hash, c.api_key_id, c.tenant_id, k.name, k.scopes, k.is_owner
         FROM identity.credential c JOIN identity.api_key k ON k.id = c.api_key_id
         WHERE c.id = $1 AND k.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())`,
};

/** The actor behind a bearer token, or null when the token is malformed, unknown, expired or revoked. */
export async function authenticate(dataSource: DataSource, token: string): Promise<Actor | null> {
  const parsed = parseToken(token);
  if (!parsed) {
    secretMatches(token, null);
    return null;
  }
  // A named statement on the raw pool: parsed once per connection, this runs on every request.
  const { rows } = await poolOf(dataSource).query({ ...LIVE_CREDENTIAL, values: [parsed.credential_id] });
  const row = rows[0] as { secret_hash: Buffer; api_key_id: string; tenant_id: string; name: string; scopes: string[]; is_owner: boolean } | undefined;
  if (!secretMatches(parsed.secret, row?.secret_hash ?? null) || !row) return null;
  return {
    tenant_id: row.tenant_id,
    api_key_id: row.api_key_id,
    credential_id: parsed.credential_id,
    name: row.name,
    scopes: row.scopes,
    is_owner: row.is_owner,
  };
}
