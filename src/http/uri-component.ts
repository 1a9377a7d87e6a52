// Percent-encodes any string as one URI component without throwing: lone surrogates, which encodeURIComponent refuses, get their own escapes.

/** A UTF-16 surrogate with no partner (with the `u` flag the range matches only those), which `encodeURIComponent` throws on. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const LONE_SURROGATES = /[\ud800-\udfff]/gu;

/** The three WTF-8 bytes of a lone surrogate, percent-encoded (`\ud800` → `%ED%A0%80`); no well-formed text encodes to them. */
function surrogateEscape(unit: string): string {
  const code = unit.charCodeAt(0);
  const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
}

/**
 * `encodeURIComponent` for text a client or a tool server chose: the same answer for well-formed text, and for a
 * lone surrogate its WTF-8 escape instead of a `URIError`, so two different strings never share an encoding.
 * @example
 * encodeUriComponentSafe('a/\ud800'); // 'a%2F%ED%A0%80'
 */
export function encodeUriComponentSafe(text: string): string {
  if (!LONE_SURROGATE.test(text)) return encodeURIComponent(text);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(LONE_SURROGATES)) {
    out += encodeURIComponent(text.slice(last, match.index)) + surrogateEscape(match[0]);
    last = match.index + match[0].length;
  }
  return out + encodeURIComponent(text.slice(last));
}
