// Validation of storage keys and log names, shared by every adapter so that none can escape its space.
import { Errors } from '../errors/error-registry.js';

/**
 * Checks a storage key or log name and returns its segments.
 * Rejects empty segments, `.` and `..`, backslashes and NUL characters.
 */
export function keySegments(key: string): string[] {
  if (typeof key !== 'string' || key.length === 0) throw Errors.storageKeyInvalid([String(key), 'it is empty']);
  if (key.includes('\\') || key.includes('\0')) throw Errors.storageKeyInvalid([key, 'it holds a backslash or NUL']);
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw Errors.storageKeyInvalid([key, 'segments must be non-empty and not . or ..']);
    }
  }
  return segments;
}
