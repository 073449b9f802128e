import { AppError, assertRoom, type CollectionLimit, conflict, forbidden, validationFailed, type Actor, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import type { ApiKey } from '../entities';
import { CREDENTIALS_CHANNEL } from './authenticate';
import { mintToken } from './tokens';

export const DEFAULT_EXPIRY_DAYS = 90;
const DAY_MS = 86_400_000;

/** The expiry a new generation gets: `never_expires` must be asked for; otherwise N days, default 90. */
export function expiryOf(input: { expires_in_days?: number; never_expires?: boolean }, now: Date): Date | null {
  if (input.never_expires && input.expires_in_days !== undefined) {
    throw validationFailed('give either expires_in_days or never_expires, not both', { reason: 'invalid_combination', field: 'never_expires' });
  }
  if (input.never_expires) return null;
  return new Date(now.getTime() + (input.expires_in_days ?? DEFAULT_EXPIRY_DAYS) * DAY_MS);
}

/** Subset-of-issuer: a key may only hand out, or act on keys with, scopes it carries itself. */
export function assertWithinIssuer(actor: Actor, scopes: readonly string[]): void {
  const missing = scopes.find((scope) => !actor.scopes.includes(scope));
  if (missing) throw forbidden(missing);
}

/**
 * The key a command acts on, locked for the rest of the transaction. A key of another tenant is
 * indistinguishable from one that does not exist: both are a conflict with the tenant's state.
 */
export async function lockKey(db: EntityManager, actor: Actor, apiKeyId: string): Promise<ApiKey> {
  // A plain query, not a repository lock: the executor opens the transaction on the first query.
  const [key] = await sqlOf(db).rows<ApiKey>(`SELECT * FROM identity.api_key WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [apiKeyId, actor.tenant_id]);
  if (!key) throw conflict(`api key ${apiKeyId} does not exist in this tenant`, { reason: 'not_found', field: 'api_key_id' });
  // The owner key is the tenant's last word (it alone arms extension credentials): no other key or
  // session, whatever its scopes, may rotate it into its own hands or revoke it.
  if (key.is_owner && !actor.is_owner)
    throw new AppError('forbidden', 'only the owner key may rotate or revoke the owner key', { owner_required: true }, { reason: 'owner_only' });
  assertWithinIssuer(actor, key.scopes);
  return key;
}

/**
 * Tells every process that remembers this key's credentials to forget them. Sent inside the command's
 * transaction: PostgreSQL delivers it at commit, and not at all if the command rolls back.
 */
export async function notifyKeyLifeChanged(db: EntityManager, apiKeyId: string): Promise<void> {
  await db.query(`SELECT pg_notify('${CREDENTIALS_CHANNEL}', $1)`, [apiKeyId]);
}

/** The write of a new token generation; the raw token exists only in the returned value. */
export function credentialWrite(tenantId: string, apiKeyId: string, expiresAt: Date | null) {
  const minted = mintToken();
  return {
    minted,
    sql: `INSERT INTO identity.credential (id, tenant_id, api_key_id, secret_hash, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    params: [minted.credential_id, tenantId, apiKeyId, minted.secret_hash, expiresAt],
  };
}

/** Unrevoked keys of a tenant: an operator's deactivation lists those it issued (`api_keys_revoked`). */
export const LIVE_KEYS_PER_TENANT: CollectionLimit = { what: 'unrevoked API keys per tenant', max: 1000 };

/** Refuses a new key past LIVE_KEYS_PER_TENANT; a lock per tenant orders its key creations. */
export function assertRoomForKey(db: EntityManager, tenantId: string): Promise<void> {
  return assertRoom(db, LIVE_KEYS_PER_TENANT, {
    sql: 'SELECT count(*)::int AS n FROM identity.api_key WHERE tenant_id = $1 AND revoked_at IS NULL',
    params: [tenantId],
    lock: `identity.api_key:${tenantId}`,
  });
}

/** The write of a new key (the actor). */
export function apiKeyWrite(key: { id: string; tenant_id: string; name: string; scopes: readonly string[]; is_owner?: boolean; issued_by: string | null }) {
  return {
    sql: `INSERT INTO identity.api_key (id, tenant_id, name, scopes, is_owner, issued_by) VALUES ($1, $2, $3, $4, $5, $6)`,
    params: [key.id, key.tenant_id, key.name, key.scopes, key.is_owner ?? false, key.issued_by],
  };
}
