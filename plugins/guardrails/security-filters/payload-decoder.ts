// Undoes the encodings attack payloads hide behind (percent, double percent, %u, overlong UTF-8, HTML entities, \u and 0x escapes).
import { stripInvisible } from '../prompt-injection-detection/normalise.js';

/** The text as the rules read it. */
export interface DecodedText {
  /** The input with invisible characters out and look-alike quotes, dots and slashes folded to ASCII. */
  raw: string;
  /** `raw` with every encoding layer undone (at most {@link MAX_ROUNDS} rounds). Equal to `raw` when nothing was encoded. */
  decoded: string;
  /** True when decoding changed the text: the payload was encoded. */
  encoded: boolean;
  /** True when the input held a null byte, literal or encoded (`%00`, `\0`, `\u0000`): a truncation trick. */
  nullByte: boolean;
}

/** Rounds of decoding: enough for double and triple encoding, bounded so that crafted input cannot loop. */
const MAX_ROUNDS = 4;

/**
 * A newline that was encoded (`%0a`, `&#10;`): the rules treat it as a shell command separator, while a real line
 * break in the text (a command shown on its own line in documentation) is not one.
 */
export const ENCODED_NEWLINE = '\uE00A';

/** Characters that stand for a dot, slash or backslash: full-width forms, division slash, set minus, IIS best-fit mappings. */
const LOOKALIKES: Record<string, string> = {
  '\uFF0E': '.', '\u2024': '.', '\uFE52': '.', '\u3002': '.',
  '\uFF0F': '/', '\u2215': '/', '\u2044': '/', '\u29F8': '/', '\uEFC8': '/', '\uF025': '/',
  '\uFF3C': '\\', '\u2216': '\\', '\u29F9': '\\', '\uFE68': '\\',
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\uFF07': "'",
  '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u201F': '"', '\u2033': '"', '\uFF02': '"',
};
const LOOKALIKE_PATTERN = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'g');

const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&', sol: '/', bsol: '\\', period: '.', nbsp: ' ', semi: ';', vert: '|', grave: '`', dollar: '$', percnt: '%' };

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/g;
const PERCENT_U = /%u([0-9a-fA-F]{4})/g;
const HTML_ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([a-zA-Z]{2,6}));?/g;
const BACKSLASH_ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/g;
const HEX_LITERAL = /0x(2[eEfF]|5[cC])/g;
/** C0 controls other than tab and line breaks, and the replacement character left by broken byte sequences. */
const JUNK = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/g;
const NULL_BYTE = /%00|\\0(?![0-9])|\\u0000|\\x00|\u0000/;

/** Quick test: could `text` hold any encoding this module undoes? */
const MAYBE_ENCODED = /%[0-9a-fA-Fu]|&#?[a-zA-Z0-9]{2,6};|\\[ux]|0x[25]/;

/**
 * Decodes one run of percent-encoded bytes leniently: overlong UTF-8 forms (`%c0%ae` for '.', `%c0%af` for '/',
 * `%e0%80%ae`, up to six bytes) decode to the character they spell, as old servers decoded them; a byte that
 * starts a sequence without its continuation bytes becomes U+FFFD; encoded line breaks become {@link ENCODED_NEWLINE}.
 */
function decodeBytes(run: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < run.length; i += 3) bytes.push(parseInt(run.slice(i + 1, i + 3), 16));
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    const length = lead < 0x80 ? 1 : lead < 0xc0 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf8 ? 4 : lead < 0xfc ? 5 : 6;
    if (length === 1) {
      out += lead === 0x0a || lead === 0x0d ? ENCODED_NEWLINE : String.fromCharCode(lead);
      i += 1;
      continue;
    }
    let code = length === 0 ? -1 : lead & (0x7f >> length);
    let used = 1;
    for (; used < length; used++) {
      const next = bytes[i + used];
      if (next === undefined || (next & 0xc0) !== 0x80) break;
      code = (code << 6) | (next & 0x3f);
    }
    if (length === 0 || used < length || code > 0x10ffff) {
      out += '\uFFFD';
      i += Math.max(1, used);
      continue;
    }
    out += String.fromCodePoint(code);
    i += length;
  }
  return out;
}

function decodeEntity(_: string, hex?: string, decimal?: string, name?: string): string {
  if (hex !== undefined || decimal !== undefined) {
    const code = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    if (code === 0x0a || code === 0x0d) return ENCODED_NEWLINE;
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
  }
  const named = NAMED_ENTITIES[(name ?? '').toLowerCase()];
  return named ?? _;
}

/** One round of decoding: every layer once. */
function decodeRound(text: string): string {
  return text
    .replace(PERCENT_U, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(PERCENT_RUN, decodeBytes)
    .replace(HTML_ENTITY, decodeEntity)
    .replace(BACKSLASH_ESCAPE, (_, braced?: string, u?: string, x?: string) => String.fromCodePoint(parseInt(braced ?? u ?? x ?? '3f', 16)))
    .replace(HEX_LITERAL, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Folds look-alike dots, slashes and quotes to ASCII (after NFKC when the text has non-ASCII characters). */
function foldLookalikes(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(text)) return text;
  return stripInvisible(text).replace(LOOKALIKE_PATTERN, (char) => LOOKALIKES[char] ?? char);
}

/**
 * Reads `text` the way a vulnerable server would: decodes every encoding layer, folds look-alikes, and drops
 * null bytes and broken byte sequences (which servers skip or truncate at).
 * @example
 * decodePayload('%252e%252e%252fetc%252fpasswd').decoded // → '../etc/passwd'
 */
export function decodePayload(text: string): DecodedText {
  const raw = foldLookalikes(text);
  const nullByte = NULL_BYTE.test(text);
  if (!MAYBE_ENCODED.test(raw) && !nullByte) return { raw, decoded: raw, encoded: false, nullByte };
  let decoded = raw;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = decodeRound(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  decoded = foldLookalikes(decoded).replace(JUNK, '');
  return { raw, decoded, encoded: decoded !== raw.replace(JUNK, ''), nullByte };
}
