import { present, SecretBox, vaultKey } from '@backoffice/platform';

/** What a credential belongs to: sealed for it, it opens for nothing else (the AES-GCM additional data). */
export interface VaultBinding {
  tenant_id: string;
  extension_id: string;
  connection_name: string;
}

function aadOf(binding: VaultBinding): string {
  // A JSON array: no separator a name could contain makes two bindings alike.
  return JSON.stringify(['vault.v1', binding.tenant_id, binding.extension_id, binding.connection_name]);
}

/** Each vault's opener, out of reach of everything but `brokerCredential`. */
const openers = new WeakMap<Vault, (sealed: string, binding: VaultBinding) => string>();

/**
 * The write-only vault of extension credentials: it seals (AES-256-GCM, random 12-byte IV per seal,
 * the binding as additional authenticated data), and only the broker opens. The instance holds no
 * key material of its own to print.
 */
export class Vault {
  readonly seal: (credential: Record<string, unknown>, binding: VaultBinding) => string;

  constructor(key: Buffer) {
    const box = new SecretBox(key);
    this.seal = (credential, binding) => box.seal(JSON.stringify(credential), aadOf(binding));
    openers.set(this, (sealed, binding) => box.open(sealed, aadOf(binding)));
  }

  toJSON(): string {
    return '[vault]';
  }
}

/** The vault of the deployment (VAULT_KEY, or the generated key under DATA_DIR). */
export function vaultFromEnv(env: NodeJS.ProcessEnv = process.env): Vault {
  return new Vault(vaultKey(env));
}

/**
 * The broker: the one reader of the vault, for the code that calls an extension on a tenant's
 * behalf. `load` gives the sealed value stored for the binding (its owner's table; null when none
 * is armed); the answer is the credential, or null. The broker knows nothing of where it is stored.
 */
export async function brokerCredential(
  vault: Vault,
  binding: VaultBinding,
  load: (binding: VaultBinding) => Promise<string | null>,
): Promise<Record<string, unknown> | null> {
  const sealed = await load(binding);
  if (sealed === null) return null;
  let plain: string;
  try {
    const open = present(openers.get(vault), `the opener of ${vault}`);
    plain = open(sealed, binding);
  } catch {
    throw new Error(
      `the credential of ${binding.extension_id}/${binding.connection_name} does not open: sealed under another key (VAULT_KEY changed?) or for another connection`,
    );
  }
  return JSON.parse(plain) as Record<string, unknown>;
}
