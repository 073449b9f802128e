import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the system must use again later (webhook signing secrets, extension credentials) are
 * stored encrypted with AES-256-GCM under a key of the deployment's, never in clear: a random
 * 12-byte IV per seal, and optional additional authenticated data (what the secret belongs to), so
 * a sealed value opens only in the place it was sealed for. A stored value is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  /**
   * `key`: a string of at least 32 characters of secret material (hashed to the cipher's 256-bit
   * key), or exactly 32 bytes used as the key itself.
   */
  constructor(key: string | Buffer) {
    if (Buffer.isBuffer(key)) {
      if (key.length !== 32) throw new Error('the secret key must be exactly 32 bytes');
      this.key = Buffer.from(key);
    } else {
      if (key.length < 32) throw new Error('the secret key must have at least 32 characters');
      this.key = createHash('sha256').update(key).digest();
    }
  }

  seal(plain: string, aad?: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  /** The plain text; throws when the value was not sealed with this key (and this `aad`) or was altered. */
  open(stored: string, aad?: string): string {
    const [version, iv, tag, sealed] = stored.split('.');
    if (version !== 'v1' || !iv || !tag || sealed === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  }
}
