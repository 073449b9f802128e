import { createHash, timingSafeEqual } from 'node:crypto';
import { newId, pooledRandomBytes, ULID_PATTERN } from '@backoffice/platform';

/**
 * Tokens look like `bok_<credential ulid>_<secret>`: the prefix makes a leaked token easy to spot,
 * the ulid finds the credential by primary key, and the 256-bit secret is checked against its hash.
 */
export const TOKEN_PREFIX = 'bok_';
const TOKEN = new RegExp(`^${TOKEN_PREFIX}(${ULID_PATTERN})_([A-Za-z0-9_-]{43})$`);

export const hashSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

export interface MintedToken {
  credential_id: string;
  token: string;
  secret_hash: Buffer;
}

export function mintToken(): MintedToken {
  const credential_id = newId('cred');
  const secret = pooledRandomBytes(32).toString('base64url');
  return { credential_id, token: `${TOKEN_PREFIX}${credential_id.slice(5)}_${secret}`, secret_hash: hashSecret(secret) };
}

export function parseToken(token: string): { credential_id: string; secret: string } | null {
  const match = TOKEN.exec(token);
  return match ? { credential_id: `cred_${match[1]}`, secret: match[2] } : null;
}

const DECOY = hashSecret('decoy');

/** Constant-time comparison; with no stored hash it still does the same work. */
export function secretMatches(secret: string, stored: Buffer | null): boolean {
  const given = hashSecret(secret);
  const equal = timingSafeEqual(given, stored && stored.length === given.length ? stored : DECOY);
  return equal && stored !== null;
}
