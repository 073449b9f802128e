import { present } from './errors';
import { deploymentKey } from './deployment-key';

/** `VAULT_KEY`'s value as the key's 32 bytes: base64 or base64url, padded or not; null when it is not that. */
export function decodeVaultKey(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/**
 * The vault's key: VAULT_KEY (32 bytes, base64 or base64url: `openssl rand -base64 32`), otherwise
 * one generated once into `<DATA_DIR>/vault.key` (mode 0600), as WEBHOOK_SECRET_KEY is. Subgraphs
 * run as separate processes must all be given the same VAULT_KEY.
 */
export function vaultKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  const text = deploymentKey(
    {
      variable: 'VAULT_KEY',
      file: 'vault.key',
      problem: (value) => (decodeVaultKey(value) ? null : 'must be 32 bytes in base64 or base64url (for example `openssl rand -base64 32`)'),
    },
    env,
  );
  return present(decodeVaultKey(text), 'a valid VAULT_KEY');
}
