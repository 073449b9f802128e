import { conflict, forbidden, validationFailed, type Actor } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { ApiKeyEntity, CredentialEntity, type ApiKey } from '../entities';
import { mintToken } from '../tokens';

export const DEFAULT_EXPIRY_DAYS = 90;
const DAY_MS = 86_400_000;

/** The expiry a new generation gets: `never_expires` must be asked for; otherwise N days, default 90. */
export function expiryOf(input: { expires_in_days?: number; never_expires?: boolean }, now: Date): Date | null {
  if (input.never_expires && input.expires_in_days !== undefined) {
    throw validationFailed('give either expires_in_days or never_expires, not both');
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
  const key = await db.getRepository(ApiKeyEntity).findOne({
    where: { id: apiKeyId, tenant_id: actor.tenant_id },
    lock: { mode: 'pessimistic_write' },
  });
  if (!key) throw conflict(`api key ${apiKeyId} does not exist in this tenant`);
  assertWithinIssuer(actor, key.scopes);
  return key;
}

/** Writes a new token generation; the raw token exists only in the returned value. */
export async function insertCredential(db: EntityManager, tenantId: string, apiKeyId: string, expiresAt: Date | null) {
  const minted = mintToken();
  await db.getRepository(CredentialEntity).insert({
    id: minted.credential_id,
    tenant_id: tenantId,
    api_key_id: apiKeyId,
    secret_hash: minted.secret_hash,
    expires_at: expiresAt,
  });
  return minted;
}
