// Turns one input into the text views the rules read: Unicode-folded, de-obfuscated (leetspeak, spacing) and decoded payloads.
import { hasBase64Run, mayHoldHexRun } from './payload-prechecks.js';

/** How a view was made: `plain` is NFKC lower case, `folded` also undoes homoglyphs and leetspeak, `compact` keeps letters only. */
export type ViewKind = 'plain' | 'folded' | 'compact';

/** One text view of the input. */
export interface TextView {
  kind: ViewKind;
  /** True when the view comes from a decoded payload (Base64, hex, ...) rather than the text as sent. */
  decoded: boolean;
  text: string;
}

/** Invisible characters attackers use to split trigger words: zero-width, joiners, bidi marks, soft hyphen, BOM. */
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/g;

/** Unicode tag characters (U+E0000 to U+E007F): invisible, and each one mirrors an ASCII character ("ASCII smuggling"). */
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]+/gu;

/** Cyrillic and Greek letters that look like Latin ones (NFKC leaves these alone). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ո: 'n', ս: 'u',
  А: 'a', В: 'b', Е: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', У: 'y', Х: 'x', Ѕ: 's', І: 'i', Ј: 'j',
  α: 'a', β: 'b', γ: 'y', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w', ς: 's',
  Α: 'a', Β: 'b', Ε: 'e', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x', Ζ: 'z',
  ı: 'i', ɡ: 'g', ʏ: 'y', ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ᴢ: 'z',
};
const HOMOGLYPH_PATTERN = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'g');

/** Leetspeak digits and symbols, applied only inside words that also hold letters. */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g', '@': 'a', $: 's', '!': 'i', '|': 'l', '+': 't', '€': 'e' };
const LEET_CHAR = /[0-9@$!|+€]/g;

/** "!", "|" and "+": punctuation when they end a word. */
const TRAILING_MARKS = new Set([33, 124, 43]);

/** Folds leetspeak in one token that mixes letters and leet characters; trailing "!", "|" and "+" stay punctuation. */
function unleetWord(word: string): string {
  if (!/[a-z]/.test(word) || !/[0-9@$!|+€]/.test(word)) return word;
  // The trailing run of "!", "|" and "+", found by one backward scan (`/^(.*?)([!|+]*)$/` retried the run's end
  // check at every split: quadratic in a long run of "!" inside a word).
  let end = word.length;
  while (end > 0 && TRAILING_MARKS.has(word.charCodeAt(end - 1))) end -= 1;
  return word.slice(0, end).replace(LEET_CHAR, (c) => LEET[c] ?? c) + word.slice(end);
}

/** Character codes of LEET_CHAR's class: every digit (2 and 6 have no letter, and stay) and @ $ ! | + €. */
const LEET_CODES = new Set([...'0123456789@$!|+€'].map((char) => char.charCodeAt(0)));

/**
 * `text.replace(/[a-z0-9@$!|+€]+/g, unleetWord)` in one linear scan: only the runs that hold both a letter and a
 * leet character are rebuilt, so ordinary prose (digits alone, words alone) is returned as it is.
 */
function foldLeetWords(text: string): string {
  let out = '';
  let copied = 0;
  let start = -1;
  let letter = false;
  let leet = false;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : -1;
    const isLetter = code >= 97 && code <= 122;
    const isLeet = !isLetter && LEET_CODES.has(code);
    if (isLetter || isLeet) {
      if (start < 0) [start, letter, leet] = [i, false, false];
      letter ||= isLetter;
      leet ||= isLeet;
      continue;
    }
    if (start >= 0 && letter && leet) {
      out += text.slice(copied, start) + unleetWord(text.slice(start, i));
      copied = i;
    }
    start = -1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A separator between spelt-out letters: space . - _ * */
const isLetterSeparator = (code: number): boolean => code === 32 || code === 46 || code === 45 || code === 95 || code === 42;
const isLowerLetter = (code: number): boolean => code >= 97 && code <= 122;
/** `\w` of a regular expression without the `u` flag. */
const isWordCode = (code: number): boolean => isLowerLetter(code) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;

/**
 * Joins words spelt out one letter at a time ("i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e"): what
 * `text.replace(/\b(?:[a-z][ .\-_*]{1,2}){3,}[a-z]\b/g, (run) => run.replace(/[ .\-_*]/g, ''))` does, in one linear
 * scan. The expression retried every letter of a chain that ends glued to a word character ("a_ a_a_a__…"), quadratic
 * in the chain's length; here a chain that cannot end is skipped whole, since every later start in it fails the same way.
 */
function joinSpacedLetters(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    if (!isLowerLetter(text.charCodeAt(i)) || (i > 0 && isWordCode(text.charCodeAt(i - 1)))) {
      i += 1;
      continue;
    }
    // Walk the chain letter (separator{1,2} letter)*, keeping the last letter after three separators or more that no
    // word character follows.
    let units = 0;
    let end = -1;
    let after = i + 1;
    for (;;) {
      if (units >= 3 && (after === text.length || !isWordCode(text.charCodeAt(after)))) end = after;
      let next = after;
      while (next < text.length && next - after < 2 && isLetterSeparator(text.charCodeAt(next))) next += 1;
      if (next === after || next >= text.length || !isLowerLetter(text.charCodeAt(next))) break;
      units += 1;
      after = next + 1;
    }
    if (end < 0) {
      i = after;
      continue;
    }
    out += text.slice(copied, i) + text.slice(i, end).replace(/[ .\-_*]/g, '');
    copied = end;
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Base64 runs long enough to carry a sentence (standard and URL-safe alphabets). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
/** Hex runs: "69676e6f7265", "69 67 6e", "0x69,0x67", "\x69\x67". */
const HEX_RUN = /(?:(?:\\x|0x)?[0-9a-fA-F]{2}[\s,:]?){8,}/g;
/** Percent-encoded and HTML-entity-encoded characters. */
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2}){4,}/;
const HTML_ENTITY = /&#(x[0-9a-fA-F]+|\d+);/g;

/** The most text read from one input; longer inputs are scanned up to here (keeps evaluation bounded). */
export const DEFAULT_SCAN_LIMIT = 100_000;

/** Removes invisible characters and decodes Unicode tag characters back to the ASCII they mirror. */
export function stripInvisible(text: string): string {
  const untagged = text.replace(TAG_CHARACTERS, (run) =>
    Array.from(run, (char) => {
      const code = (char.codePointAt(0) ?? 0xe0000) - 0xe0000;
      return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : '';
    }).join(''),
  );
  return untagged.replace(INVISIBLE, '');
}

/** NFKC (full-width, ligatures, mathematical letters), invisible characters out, lower case, single spaces, line breaks kept. */
export function plainView(text: string): string {
  let plain = stripInvisible(text.normalize('NFKC')).toLowerCase();
  // Each replacement runs only when it has something to change: a global replacement that changes nothing still costs.
  if (UNSINGLE_SPACE.test(plain)) plain = plain.replace(/[^\S\n]+/g, ' ');
  if (plain.includes('\n')) plain = plain.replace(/ ?\n[\s]*/g, '\n');
  return plain;
}

/** White space other than a single plain space between non-spaces: what collapsing to single spaces changes. */
const UNSINGLE_SPACE = /[^\S\n ]| {2}/;

/** Homoglyphs, leetspeak and letter-by-letter spelling folded back to plain Latin words. */
export function foldView(plain: string): string {
  const latin = plain.replace(HOMOGLYPH_PATTERN, (char) => HOMOGLYPHS[char] ?? char);
  const unaccented = latin.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const unleet = foldLeetWords(unaccented);
  return joinSpacedLetters(unleet);
}

/** Letters only: defeats separators between every letter ("i_g_n_o_r_e p.r.e.v.i.o.u.s"). */
export function compactView(folded: string): string {
  return folded.replace(/[^a-z]/g, '');
}

/** True when a decoded byte string reads as text: mostly printable, with letters and spaces. */
function looksLikeText(decoded: string): boolean {
  if (decoded.length < 8) return false;
  let printable = 0;
  let letters = 0;
  for (const char of decoded) {
    const code = char.charCodeAt(0);
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x09 || code > 0xa0) printable += 1;
    if (/[a-zA-Z]/.test(char)) letters += 1;
  }
  return printable / decoded.length > 0.9 && letters / decoded.length > 0.5 && /\s/.test(decoded);
}

/** Decodes Base64 runs that hold readable text. */
function decodeBase64Runs(text: string, into: string[]): void {
  if (!hasBase64Run(text)) return;
  for (const match of text.matchAll(BASE64_RUN)) {
    const run = match[0];
    if (!/[A-Z]/.test(run) || !/[a-z0-9]/.test(run)) continue;
    const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    if (looksLikeText(decoded)) into.push(decoded);
  }
}

/** Decodes hex runs that hold readable text. */
function decodeHexRuns(text: string, into: string[]): void {
  if (!mayHoldHexRun(text)) return;
  for (const match of text.matchAll(HEX_RUN)) {
    const digits = match[0].replace(/\\x|0x|[\s,:]/g, '');
    if (digits.length % 2 !== 0 || !/[a-f]/i.test(digits)) continue;
    const decoded = Buffer.from(digits, 'hex').toString('utf8');
    if (looksLikeText(decoded)) into.push(decoded);
  }
}

/** ROT13, for inputs that ask for it. */
function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (char) => {
    const base = char <= 'Z' ? 65 : 97;
    return String.fromCharCode(((char.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Payloads hidden by encoding, decoded: Base64, hex, percent and HTML entities, ROT13 and reversed text when asked for. */
export function decodePayloads(text: string, plain: string): string[] {
  const decoded: string[] = [];
  decodeBase64Runs(text, decoded);
  decodeHexRuns(text, decoded);
  if (PERCENT_RUN.test(text)) {
    try {
      decoded.push(decodeURIComponent(text.replace(/%(?![0-9a-fA-F]{2})/g, '%25')));
    } catch {
      // Malformed UTF-8 in the percent run: nothing to decode.
    }
  }
  if (HTML_ENTITY.test(text)) {
    decoded.push(text.replace(HTML_ENTITY, (_, code: string) => String.fromCodePoint(code.startsWith('x') ? parseInt(code.slice(1), 16) : Number(code))));
  }
  if (/\brot[\s-]?13\b|caesar/.test(plain)) decoded.push(rot13(text));
  if (/\brevers|backwards/.test(plain)) decoded.push(Array.from(text).reverse().join(''));
  // One more round, for payloads encoded twice (hex of Base64 and the like).
  for (const once of decoded.slice()) {
    const twice: string[] = [];
    decodeBase64Runs(once, twice);
    decodeHexRuns(once, twice);
    decoded.push(...twice);
  }
  return decoded;
}

/** Adds the plain, folded and compact views of one source text. */
function addViews(source: string, decoded: boolean, into: TextView[]): string {
  const plain = plainView(source);
  const folded = foldView(plain);
  into.push({ kind: 'plain', decoded, text: plain });
  if (folded !== plain) into.push({ kind: 'folded', decoded, text: folded });
  into.push({ kind: 'compact', decoded, text: compactView(folded) });
  return plain;
}

/**
 * The views of `text` that the rules read: plain, folded and compact, then the same three for each decoded
 * payload. `decode` turns the payload decoding off; `scanLimit` bounds the characters read.
 */
export function textViews(text: string, decode = true, scanLimit = DEFAULT_SCAN_LIMIT): TextView[] {
  const bounded = text.length > scanLimit ? text.slice(0, scanLimit) : text;
  const views: TextView[] = [];
  const plain = addViews(bounded, false, views);
  if (decode) {
    for (const payload of decodePayloads(bounded, plain)) addViews(payload, true, views);
  }
  return views;
}
