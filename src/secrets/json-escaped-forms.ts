// Finds a secret's forms written with JSON escapes (`\u0073k-…`, `abc\/def`), which a reader's JSON parser turns back into the secret.

/** `\uXXXX` for a UTF-16 code unit, its hex letters in either case, as regular expression source. */
function unicodeEscapeSource(code: number): string {
  const hex = code.toString(16).padStart(4, '0');
  return `\\\\u${hex.replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`)}`;
}

/** The characters a regular expression gives a meaning, escaped. */
const literal = (character: string): string => character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The source of a pattern matching `form` with any of its characters written as JSON writes or may write it: as
 * itself, as `\uXXXX` (hex digits in any case), and `/`, `"` and `\` also as `\/`, `\"` and `\\`. With `anyCase`, a
 * letter's escape may be of either case, as the form itself is matched in any case.
 */
function escapedFormSource(form: string, anyCase: boolean): string {
  let source = '';
  for (const character of form) {
    const variants = anyCase ? [...new Set([character.toLowerCase(), character.toUpperCase()])] : [character];
    const alternatives = [literal(character)];
    for (const variant of variants) for (let index = 0; index < variant.length; index++) alternatives.push(unicodeEscapeSource(variant.charCodeAt(index)));
    if (character === '/' || character === '"') alternatives.push(`\\\\${literal(character)}`);
    if (character === '\\') alternatives.push('\\\\\\\\');
    source += `(?:${alternatives.join('|')})`;
  }
  return source;
}

/**
 * One pattern matching every form in `forms` written with JSON escapes anywhere in it (or with none: the scrubber's
 * own patterns replace those first), longest first; `anyCase` forms are matched in any letter case. Null for no form.
 * @example
 * jsonEscapedPattern(['sk-live-12345678'], true)!.test('"key": "\\u0073k-live-12345678"'); // true
 */
export function jsonEscapedPattern(forms: Iterable<string>, anyCase: boolean): RegExp | null {
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return null;
  return new RegExp(sorted.map((form) => escapedFormSource(form, anyCase)).join('|'), anyCase ? 'gi' : 'g');
}

/** A test of a text, as {@link jsonEscapeGate} answers it. */
export type EscapeGate = (text: string) => boolean;

/**
 * The test for text that may hide a form of `secrets` behind a JSON escape: a `\u` escape of a character a form may
 * hold (of an ASCII one, `\u00` and a hex digit 0 to 7, unless a secret holds another), or `\/`, and also `\"` or
 * `\\` when a secret holds `"` or `\`. Most text holds none (an escape of a line break, a quote or an accented letter
 * cannot stand for a character of an ASCII key), and needs no search by {@link jsonEscapedPattern}. One compiled scan,
 * about 0.5 µs per KB of text with many escapes on this machine.
 */
export function jsonEscapeGate(secrets: readonly string[]): EscapeGate {
  // Base64, URL and hex forms are ASCII whatever the secret; only the secret itself may hold other characters.
  const ascii = secrets.every((secret) => /^[\x00-\x7f]*$/.test(secret));
  const escapes = [ascii ? 'u00[0-7]' : 'u', '/'];
  if (secrets.some((secret) => secret.includes('"'))) escapes.push('"');
  if (secrets.some((secret) => secret.includes('\\'))) escapes.push('\\\\');
  const gate = new RegExp(`\\\\(?:${escapes.join('|')})`);
  return (text) => gate.test(text);
}
