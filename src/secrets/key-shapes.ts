// Key-shaped text (developer keys `gwk_`, admin keys `gwa_`, `sk-` provider keys) found by its shape, for keys the gateway cannot match by value.
import { DEVELOPER_KEY_PREFIX } from './developer-keys.js';
import { SCRUBBED } from './secret-scrubber.js';

/** The prefixes of the key shapes removed: developer keys, admin keys, and `sk-` provider keys. */
export const KEY_SHAPE_PREFIXES: readonly string[] = [DEVELOPER_KEY_PREFIX, 'gwa_', 'sk-'];

/** The shortest run of key characters after a prefix that counts as a key (shorter runs are ordinary words). */
export const MIN_KEY_SHAPE_BODY = 16;

const PREFIX = `(?:${KEY_SHAPE_PREFIXES.join('|')})`;

/**
 * A key starts where no letter or digit precedes it, or right after a JSON escape (`\n`, `\t`, `\u0041`…), since
 * serialized text is searched too. The prefix comes first (the engine looks for it as a literal) and the check
 * of what precedes it looks back past it; then a single run of key characters: a linear scan, no backtracking.
 */
const KEY_SHAPES = new RegExp(
  String.raw`${PREFIX}(?<=(?:^|[^A-Za-z0-9]|\\[bfnrt]|\\u[0-9A-Fa-f]{4})${PREFIX})[A-Za-z0-9_-]{${MIN_KEY_SHAPE_BODY},}`,
  'g',
);

/** True when `text` holds key-shaped text {@link scrubKeyShapes} would remove. */
export function holdsKeyShape(text: string): boolean {
  KEY_SHAPES.lastIndex = 0;
  const found = KEY_SHAPES.test(text);
  KEY_SHAPES.lastIndex = 0;
  return found;
}

/**
 * Replaces every key-shaped run in `text` (plain text or serialized JSON) with `replacement`. Catches what value
 * scrubbing cannot: another application's developer key (stored only as a hash) pasted into a prompt or an answer.
 * @example
 * scrubKeyShapes('use gwk_AbCdEfGhIjKlMnOpQrStUv please'); // 'use [REDACTED] please'
 */
export function scrubKeyShapes(text: string, replacement: string = SCRUBBED): string {
  if (!holdsKeyShape(text)) return text;
  return text.replace(KEY_SHAPES, replacement);
}
