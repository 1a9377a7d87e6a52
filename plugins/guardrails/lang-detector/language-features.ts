// Writing-system first step and hashed character n-gram features of the language model (shared by the plugin and its trainer).
import { finishFeatureHash } from '../shared/feature-hash.js';

/** Scripts that name one language among the supported ones; the others (Latin, Cyrillic, Arabic) go to the model. */
export type Script = 'latin' | 'cyrillic' | 'arabic' | 'han' | 'kana' | 'hangul' | 'thai' | 'hebrew' | 'greek' | 'devanagari' | 'bengali';

/** Language of a script that only one supported language writes in. */
export const SCRIPT_LANGUAGE: Partial<Record<Script, string>> = {
  han: 'zh',
  kana: 'ja',
  hangul: 'ko',
  thai: 'th',
  hebrew: 'he',
  greek: 'el',
  devanagari: 'hi',
  bengali: 'bn',
};

/** Unicode ranges per script, checked in order (code point → script). */
const RANGES: Array<[number, number, Script]> = [
  [0x0041, 0x024f, 'latin'],
  [0x1e00, 0x1eff, 'latin'],
  [0x0370, 0x03ff, 'greek'],
  [0x1f00, 0x1fff, 'greek'],
  [0x0400, 0x052f, 'cyrillic'],
  [0x0590, 0x05ff, 'hebrew'],
  [0x0600, 0x06ff, 'arabic'],
  [0x0750, 0x077f, 'arabic'],
  [0xfb50, 0xfdff, 'arabic'],
  [0xfe70, 0xfeff, 'arabic'],
  [0x0900, 0x097f, 'devanagari'],
  [0x0980, 0x09ff, 'bengali'],
  [0x0e00, 0x0e7f, 'thai'],
  [0x3040, 0x30ff, 'kana'],
  [0x31f0, 0x31ff, 'kana'],
  [0xff66, 0xff9f, 'kana'],
  [0x3400, 0x4dbf, 'han'],
  [0x4e00, 0x9fff, 'han'],
  [0xf900, 0xfaff, 'han'],
  [0x1100, 0x11ff, 'hangul'],
  [0x3130, 0x318f, 'hangul'],
  [0xac00, 0xd7af, 'hangul'],
];

/** The script of one code point, or undefined for digits, punctuation, spaces and scripts no supported language uses. */
export function scriptOf(code: number): Script | undefined {
  if (code < 0x41) return undefined;
  if (code <= 0x7a) return (code <= 0x5a || code >= 0x61) ? 'latin' : undefined;
  for (const [from, to, script] of RANGES) if (code >= from && code <= to) return script;
  return undefined;
}

/** Letters counted per script; Han and kana count double, since one of them carries about as much as a short word. */
export function scriptCounts(text: string, limit: number): Map<Script, number> {
  // Counted in an array, then handed over as a Map in the order each script first occurred (ties go to the first).
  const tally = new Map<Script, number>();
  let latin = 0;
  let latinAt = -1;
  const end = Math.min(text.length, limit);
  for (let i = 0; i < end; i += 1) {
    const code = text.charCodeAt(i);
    // ASCII: scriptOf takes only A-Z and a-z as Latin, and those are letters.
    if (code < 0x80) {
      if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
        if (latinAt < 0) latinAt = tally.size;
        latin += 1;
      }
      continue;
    }
    const script = scriptOf(code);
    if (script === undefined) continue;
    if (script === 'latin') {
      if (!/\p{L}/u.test(text[i] as string)) continue;
      if (latinAt < 0) latinAt = tally.size;
      latin += 1;
      continue;
    }
    tally.set(script, (tally.get(script) ?? 0) + (script === 'han' || script === 'kana' ? 2 : 1));
  }
  if (latin === 0) return tally;
  const counts = new Map<Script, number>();
  let k = 0;
  for (const [script, count] of tally) {
    if (k === latinAt) counts.set('latin', latin);
    counts.set(script, count);
    k += 1;
  }
  if (!counts.has('latin')) counts.set('latin', latin);
  return counts;
}

/** Longest character n-gram taken inside each space-padded word (all sizes from 1 up). */
export const MAX_NGRAM = 5;
/** Words longer than this add only their shorter n-grams' share: they are cut (URLs, hashes, long compounds). */
const MAX_WORD = 24;

/** NFC, everything but letters and combining marks turned to spaces (single), case kept. */
export function normaliseCasedForLanguage(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\u200c\u200d]+/gu, ' ')
    .trim();
}

/** Lower case, NFC, everything but letters and combining marks turned to spaces (the same as lower-casing {@link normaliseCasedForLanguage}). */
export function normaliseForLanguage(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\u200c\u200d]+/gu, ' ')
    .trim();
}

const finish = finishFeatureHash;

/** The character at `at` of `word` padded with a space on each side to `length` characters (a cut word's end pad included). */
function paddedCharAt(word: string, length: number, at: number): number {
  return at === 0 || at === length - 1 ? 32 : word.charCodeAt(at - 1);
}

/**
 * Calls `visit(bucket)` for each hashed feature of a normalised text: every character n-gram (1 to
 * {@link MAX_NGRAM} characters) of each space-padded word, and each whole word (`wordWeight` times, so a known word
 * counts as much as several of its n-grams). The n-grams that start at one position share one running hash. Answers
 * the number of features. `startWord`, when given, is called before each word's features (to weigh words apart).
 */
export function forEachFeature(normalised: string, buckets: number, visit: (bucket: number) => void, wordWeight = 1, startWord?: () => void): number {
  const mask = buckets - 1;
  let count = 0;
  for (const word of normalised.split(' ')) {
    if (word === '') continue;
    const length = Math.min(word.length, MAX_WORD) + 2;
    let whole = 0x811c9dc5;
    for (let at = 0; at < length; at += 1) whole = Math.imul(whole ^ paddedCharAt(word, length, at), 0x01000193);
    if (startWord !== undefined) startWord();
    const wordBucket = finish(whole, 0, mask);
    for (let k = 0; k < wordWeight; k += 1) visit(wordBucket);
    count += wordWeight;
    for (let start = 0; start < length; start += 1) {
      let hash = 0x811c9dc5;
      const last = Math.min(length, start + MAX_NGRAM);
      for (let at = start; at < last; at += 1) {
        const code = paddedCharAt(word, length, at);
        hash = Math.imul(hash ^ code, 0x01000193);
        // A lone space is no feature.
        if (at === start && code === 32) continue;
        visit(finish(hash, at - start + 1, mask));
        count += 1;
      }
    }
  }
  return count;
}
