// Validation of storage keys and log names, shared by every adapter so that none can escape its space.
import { Errors } from '../errors/error-registry.js';

/**
 * Checks a storage key or log name and returns its segments.
 * Rejects empty segments, `.` and `..`, backslashes and NUL characters with `storage_key_invalid` (400): such a
 * key comes from a name in a request (a path parameter), so the message names the rule, never the internal key.
 */
export function keySegments(key: string): string[] {
  if (typeof key !== 'string' || key.length === 0) throw Errors.storageKeyInvalid(['it is empty']);
  if (key.includes('\\') || key.includes('\0')) throw Errors.storageKeyInvalid(['it holds a backslash or NUL character']);
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw Errors.storageKeyInvalid(['it holds a path separator, or is empty, . or ..']);
    }
  }
  return segments;
}

/** True for the error {@link keySegments} throws. */
export function isKeyInvalid(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === Errors.storageKeyInvalid.code;
}
