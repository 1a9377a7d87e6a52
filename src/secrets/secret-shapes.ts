// Secrets found by their shape rather than their value (key-shaped text, credentials inside URLs): removed from log lines, Chronicles and span content.
import { scrubKeyShapes } from './key-shapes.js';
import { scrubUrlCredentials } from './url-credentials.js';

/**
 * Removes key-shaped text (`gwk_…`, `gwa_…`, `sk-…`, see key-shapes.ts) and masks the userinfo and credential
 * parameters of URLs (see url-credentials.ts) in plain text or serialized JSON. Both scans are linear.
 * @example
 * scrubSecretShapes('key gwk_AbCdEfGhIjKlMnOpQrSt at https://bob:pw@host/'); // 'key [REDACTED] at https://***@host/'
 */
export function scrubSecretShapes(text: string): string {
  return scrubUrlCredentials(scrubKeyShapes(text));
}

/** True when {@link scrubSecretShapes} would change `text`. */
export function holdsSecretShape(text: string): boolean {
  return scrubSecretShapes(text) !== text;
}

/** {@link scrubSecretShapes} on every string of a JSON-like value (keys included); the same value when nothing matched. */
export function scrubSecretShapesDeep<T>(value: T): T {
  if (typeof value === 'string') return scrubSecretShapes(value) as T;
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const clean = scrubSecretShapes(json);
  return clean === json ? value : (JSON.parse(clean) as T);
}
