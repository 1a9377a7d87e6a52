// Encryption at rest for provider keys and registry tokens: AES-256-GCM under a key derived from GATEWAY_SECRET.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { Errors } from '../errors/error-registry.js';

const PREFIX = 'enc:v1:';
const SALT = 'gateway-service/secret-box/v1';

/** Seals and opens secrets for storage. Without a configured secret, values are stored as given. */
export interface SecretBox {
  /** True when a secret is configured and values are encrypted. */
  readonly encrypting: boolean;
  /** The stored form of `plain`: `enc:v1:<iv>:<tag>:<ciphertext>` when encrypting, else `plain`. */
  seal(plain: string): string;
  /** The clear value of a stored form. Throws `secret_unavailable` when it is sealed and no secret (or another secret) is configured. */
  open(stored: string): string;
}

/** True when a stored value is in the sealed form. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/**
 * Creates the secret box for a gateway. The key is derived once with scrypt, at start-up.
 * @example
 * const box = createSecretBox(process.env.GATEWAY_SECRET);
 * const stored = box.seal('sk-live-123'); // 'enc:v1:...'
 */
export function createSecretBox(secret?: string): SecretBox {
  const key = secret ? scryptSync(secret, SALT, 32) : undefined;
  return {
    encrypting: key !== undefined,
    seal(plain) {
      if (!key) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      if (!key) throw Errors.secretUnavailable(['GATEWAY_SECRET is not set']);
      const [iv, tag, ciphertext] = stored.slice(PREFIX.length).split(':');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
        decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
      } catch (cause) {
        throw Errors.secretUnavailable(['it cannot be decrypted with the configured GATEWAY_SECRET'], { cause });
      }
    },
  };
}
