// Finds a secret written with JSON escapes (`\u0073k-…`, `abc\/def`), which a reader's JSON parser turns back into the secret.

/** A test of a text, as {@link jsonEscapeGate} answers it. */
export type EscapeGate = (text: string) => boolean;

/**
 * The test for text that may hide a form of `secrets` behind a JSON escape: a `\u` escape of a character a form may
 * hold (of an ASCII one, `\u00` and a hex digit 0 to 7, unless a secret holds another), or `\/`. Most text holds none
 * (an escape of a line break, a quote or an accented letter cannot stand for a character of an ASCII key), and needs
 * no decoding by {@link decodeJsonEscapes}. One compiled scan, about 0.5 µs per KB of text with many escapes here.
 */
export function jsonEscapeGate(secrets: readonly string[]): EscapeGate {
  // Base64, URL and hex forms are ASCII whatever the secret; only the secret itself may hold other characters.
  const ascii = secrets.every((secret) => /^[\x00-\x7f]*$/.test(secret));
  const gate = ascii ? /\\(?:u00[0-7]|\/)/ : /\\[u/]/;
  return (text) => gate.test(text);
}

/** The value of four hex digits of `text` at `at`, or -1. */
function hexAt(text: string, at: number): number {
  if (at + 4 > text.length) return -1;
  let value = 0;
  for (let index = at; index < at + 4; index++) {
    const code = text.charCodeAt(index);
    const digit = code >= 0x30 && code <= 0x39 ? code - 0x30 : code >= 0x61 && code <= 0x66 ? code - 0x57 : code >= 0x41 && code <= 0x46 ? code - 0x37 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * `text` with the JSON escapes that stand for an ordinary character written as that character: `\uXXXX` of anything
 * but a control character, `"`, `\` or a surrogate, and `\/`. Other escapes (`\"`, `\\`, `\n`…) stay, and an escaped
 * backslash is never read as the start of an escape (`\\u0041` stays), so JSON text stays JSON of the same value. The
 * same string when there is nothing to decode.
 * @example
 * decodeJsonEscapes('{"k":"\\u0073k-live\\/1"}'); // '{"k":"sk-live/1"}'
 */
export function decodeJsonEscapes(text: string): string {
  let out = '';
  let copied = 0;
  for (let at = text.indexOf('\\'); at !== -1 && at + 1 < text.length; at = text.indexOf('\\', at)) {
    const next = text.charCodeAt(at + 1);
    if (next === 0x2f) {
      out += `${text.slice(copied, at)}/`;
      copied = at += 2;
      continue;
    }
    if (next === 0x75) {
      const code = hexAt(text, at + 2);
      if (code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff)) {
        out += text.slice(copied, at) + String.fromCharCode(code);
        copied = at += 6;
        continue;
      }
    }
    at += 2; // any other escape, `\\` included: the character after it starts no escape
  }
  return copied === 0 ? text : out + text.slice(copied);
}
