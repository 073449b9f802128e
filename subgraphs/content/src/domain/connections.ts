import { brokerCredential, type Vault, type VaultBinding } from './vault';
import { jsonProblem, t, validationFailed, sqlOf } from '@backoffice/platform';
import { Type } from '@sinclair/typebox';
import type { DataSource, EntityManager } from 'typeorm';
import type { ExtensionConnection } from '../entities';

/**
 * Extension connections: the write-only vault. A credential is sealed (platform `Vault`: AES-256-GCM
 * under VAULT_KEY, bound to its tenant, extension and connection) before it leaves the handler, so
 * no SQL parameter, log line, event, audit row or error ever holds it in clear; only its top-level
 * keys are kept readable. The platform's broker (`brokerCredential`) is its only reader.
 */

/** Bounds of a credential: keys at its top level, nesting (the credential itself is level 1), size as JSON. */
export const CREDENTIAL_MAX_KEYS = 32;
export const CREDENTIAL_MAX_DEPTH = 4;
export const CREDENTIAL_MAX_BYTES = 8192;
export const CREDENTIAL_KEY_MAX = 128;

export const connectionFields = {
  extension_id: t.string({ minLength: 1, maxLength: 200, description: 'the self-installed app the credential is for' }),
  connection_name: t.string({ minLength: 1, maxLength: 200, description: 'which of its connections' }),
};

/** `credential`: an object with string keys and any values, `{}` by default; bounded in keys here, in depth and size by `credentialProblem`. */
export const credentialInput = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  default: {},
  maxProperties: CREDENTIAL_MAX_KEYS,
  propertyNames: { minLength: 1, maxLength: CREDENTIAL_KEY_MAX },
  description: `the credential (write-only: never returned); at most ${CREDENTIAL_MAX_KEYS} keys, ${CREDENTIAL_MAX_DEPTH} levels, ${CREDENTIAL_MAX_BYTES} bytes as JSON`,
});

/** Why a credential cannot be stored, naming the bound broken: never a value of it. */
export function credentialProblem(credential: Record<string, unknown>): string | null {
  const nesting = jsonProblem(credential, CREDENTIAL_MAX_DEPTH, true);
  // The walk names paths and keys, never values (keys are not secret: results list them).
  if (nesting) return `credential: ${nesting}`;
  if (Buffer.byteLength(JSON.stringify(credential), 'utf8') > CREDENTIAL_MAX_BYTES) return `credential must be at most ${CREDENTIAL_MAX_BYTES} bytes as JSON`;
  return null;
}

export function checkCredential(credential: Record<string, unknown>): void {
  const problem = credentialProblem(credential);
  if (problem) throw validationFailed(problem, { field: 'credential' });
}

/** What reads show of a connection: never the sealed credential. */
export type ConnectionRow = Omit<ExtensionConnection, 'tenant_id' | 'credential_sealed'>;

/** A connection as reads and results show it: names, keys, times; never the credential. */
/** An armed connection as reads show it: names, keys and times, never a credential value. */
export const extensionConnectionView = t.entity('ExtensionConnection', {
  extension_id: t.string(),
  connection_name: t.string(),
  credential_keys: t.array(t.string(), { maxItems: CREDENTIAL_MAX_KEYS, description: 'the top-level keys armed; never a value' }),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

export function connectionView(row: ConnectionRow) {
  return {
    extension_id: row.extension_id,
    connection_name: row.connection_name,
    credential_keys: row.credential_keys,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * The write of an armed credential, sealed for its binding: replaces what was armed before (a new
 * IV each time). The caller stages it.
 */
export function armWrite(vault: Vault, binding: VaultBinding, credential: Record<string, unknown>, at: Date) {
  const keys = Object.keys(credential).sort();
  return {
    keys,
    sql: `INSERT INTO content.extension_connection (tenant_id, extension_id, connection_name, credential_sealed, credential_keys, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $6)
          ON CONFLICT (tenant_id, extension_id, connection_name)
          DO UPDATE SET credential_sealed = EXCLUDED.credential_sealed, credential_keys = EXCLUDED.credential_keys, updated_at = EXCLUDED.updated_at`,
    params: [binding.tenant_id, binding.extension_id, binding.connection_name, vault.seal(credential, binding), keys, at],
  };
}

/** The sealed value stored for a binding (what the broker is given to open), or null. */
async function sealedOf(db: EntityManager | DataSource, binding: VaultBinding): Promise<string | null> {
  const rows = await sqlOf(db).rows<{ credential_sealed: string }>(
    `SELECT credential_sealed FROM content.extension_connection WHERE tenant_id = $1 AND extension_id = $2 AND connection_name = $3`,
    [binding.tenant_id, binding.extension_id, binding.connection_name],
  );
  return rows[0]?.credential_sealed ?? null;
}

/**
 * What the project uses when it calls an extension on a tenant's behalf: the armed credential of a
 * connection (null when none is armed), opened by the platform's broker. Nothing else reads it.
 */
export function connectionBroker(db: EntityManager | DataSource, vault: Vault) {
  return (binding: VaultBinding) => brokerCredential(vault, binding, (b) => sealedOf(db, b));
}
