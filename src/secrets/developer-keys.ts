// Application developer keys: generated at random, shown once, stored only as a SHA-256 hash.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { maskSecret } from './mask-secret.js';

/** The prefix of every developer key, so leaked keys are easy to recognise and scan for. */
export const DEVELOPER_KEY_PREFIX = 'gwk_';

/** A new developer key: the clear value (shown once), its id, hash and masked form. */
export interface NewDeveloperKey {
  id: string;
  key: string;
  hash: string;
  masked: string;
}

/** The SHA-256 hex digest under which a developer key is stored and looked up. */
export function hashDeveloperKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Generates a developer key with 256 bits of randomness. */
export function generateDeveloperKey(): NewDeveloperKey {
  const key = DEVELOPER_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { id: randomUUID(), key, hash: hashDeveloperKey(key), masked: maskSecret(key) };
}
