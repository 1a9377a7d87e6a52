// Finds a secret written with JSON escapes (`\u0073k-…`, `abc\/def`), which a reader's JSON parser turns back into the secret.

/** A `\u` escape of a printable ASCII character (`\u0020` to `\u007f`), or `\/`. */
const ASCII_ESCAPE = /\\(?:u00[2-7]|\/)/;

/**
 * True for text that may hide a secret behind a JSON escape: a `\u` escape of a printable ASCII character, or `\/`.
 * Most text holds none (an escape of a line break, a quote or an accented letter cannot stand for a character of an
 * ASCII key), and needs no decoding by {@link decodeJsonEscapes}. One compiled scan, about 0.5 µs per KB of text with
 * many escapes on this machine.
 */
export function mayHideEscapedSecret(text: string): boolean {
  return ASCII_ESCAPE.test(text);
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
 * `text` with the JSON escapes of printable ASCII characters written as those characters (`\u0073` as `s`, `\/` as
 * `/`; not `\u0022` nor `\u005c`, the quote and the backslash). Other escapes (`\"`, `\\`, `\n`, `\u00e9`…) stay, and
 * an escaped backslash is never read as the start of an escape (`\\u0041` stays), so JSON text stays JSON of the same
 * value, and text read one character per byte stays the same bytes but for the decoded ones. The same string when
 * there is nothing to decode. (A secret beyond ASCII written with escapes is not found this way.)
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
      if (code >= 0x20 && code < 0x80 && code !== 0x22 && code !== 0x5c) {
        out += text.slice(copied, at) + String.fromCharCode(code);
        copied = at += 6;
        continue;
      }
    }
    at += 2; // any other escape, `\\` included: the character after it starts no escape
  }
  return copied === 0 ? text : out + text.slice(copied);
}
