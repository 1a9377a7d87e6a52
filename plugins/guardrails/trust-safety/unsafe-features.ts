// Hashed word, word-pair and character n-gram features of the trust-safety model (shared by the plugin and its trainer).
import { finishFeatureHash } from '../shared/feature-hash.js';
import { CLASS_INSULT, CLASS_OBSCENE, CLASS_WEAK_INSULT, openFormClasses, WORD_CLASSES } from './word-classes.js';

/** A token made only of one repeated non-letter (a DLP mask such as "********"): carries no meaning, so it is no feature. */
const MASK_RUN = /^([^\p{L}\p{N}])\1+$/u;
/** Word tokens: letters, digits, apostrophes inside words, and the symbols of masked swearing ("f**k", "$hit"). */
const TOKEN = /[\p{L}\p{N}*@$#]+(?:'[\p{L}]+)?/gu;
/** Character n-gram sizes inside each space-padded word. */
const MIN_CHARS = 2;
const MAX_CHARS = 5;
/** Words longer than this (URLs, hashes) add only their word feature. */
const MAX_WORD_FOR_CHARS = 20;
/** Words of a training text the trainer reads (the first ones). */
export const TRAIN_TOKENS = 400;
/** A text of up to this many words is read whole (about the length of the training texts). */
export const WINDOW_TOKENS = 100;
/**
 * A longer text is read in windows of this many words (a sentence or two), overlapping by half, and its score is the
 * highest window's: one abusive sentence in a long post is then read with little of the harmless text around it.
 */
export const LONG_TEXT_WINDOW = 40;
/** Words read from one text in all (about 150 KB of English); the rules still read the whole text. */
export const MAX_TOKENS = 25_000;

/** Lower case, NFKC, invisible characters out, curly apostrophes straightened. */
export function normaliseForModel(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u200B-\u200F\u2060\uFEFF\u00AD]/g, '')
    .replace(/[’‘`´]/g, "'");
}

/** Leetspeak digits and symbols and the letters they stand for ("sh1t", "h@te", "$cum"). */
const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const HAS_LEET = /[013457@$]/;
/** A word of letters and leet characters only (so "covid19", "b2b" and "2020" stay as they are). */
const LEET_WORD = /^[\p{L}013457@$]+$/u;
const LETTER = /\p{L}/gu;
/** A letter written three or more times in a row ("soooo", "keeeel"). */
const REPEATED = /(\p{L})\1{2,}/gu;
const SINGLE_LETTER = /^\p{L}$/u;

/**
 * Undoes the usual ways of writing around a word filter: a hashtag's "#" goes, leetspeak in a word of at least two
 * letters becomes letters ("sh1t" → "shit", "nitwit$" → "nitwits"; not a mention "@name"), and a letter repeated
 * three or more times is kept twice ("loooser" → "looser").
 */
function deobfuscate(word: string): string {
  let token = word.length > 1 && word.charCodeAt(0) === 35 /* # */ ? word.slice(1) : word;
  if (token[0] !== '@' && HAS_LEET.test(token) && LEET_WORD.test(token) && (token.match(LETTER)?.length ?? 0) >= 2) {
    token = token.replace(/[013457@$]/g, (c) => LEET[c] ?? c);
  }
  return hasTripleUnit(token) ? token.replace(REPEATED, '$1$1') : token;
}

/**
 * False only when {@link REPEATED} cannot match: no three equal UTF-16 units in a row, and no surrogate (a letter
 * outside the BMP, which the regular expression then checks). A cheap test before it.
 */
function hasTripleUnit(token: string): boolean {
  for (let i = 0; i < token.length; i += 1) {
    const code = token.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return true;
    if (i >= 2 && code === token.charCodeAt(i - 1) && code === token.charCodeAt(i - 2)) return true;
  }
  return false;
}

/** True when the token starts with an ASCII lower-case letter or digit, so it is no {@link MASK_RUN} (a cheap test before it). */
function startsAlphanumeric(token: string): boolean {
  const code = token.charCodeAt(0);
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Joins runs of three or more single letters ("f u c k", "i d i o t") into one word. */
function joinSpacedLetters(tokens: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = (): void => {
    if (run.length >= 3) out.push(run.join(''));
    else out.push(...run);
    run = [];
  };
  for (const token of tokens) {
    if (token.length <= 2 && SINGLE_LETTER.test(token)) run.push(token);
    else {
      flush();
      out.push(token);
    }
  }
  flush();
  return out;
}

/** The word tokens of a normalised text, without DLP mask runs, with obfuscated spellings undone (see {@link deobfuscate}). */
export function modelTokens(normalised: string): string[] {
  const tokens: string[] = [];
  const add = (raw: string): boolean => {
    const token = deobfuscate(raw);
    if (startsAlphanumeric(token) || !MASK_RUN.test(token)) tokens.push(token);
    return tokens.length < MAX_TOKENS;
  };
  if (isAscii(normalised)) asciiTokens(normalised, add);
  else for (const match of normalised.matchAll(TOKEN)) if (!add(match[0])) break;
  return joinSpacedLetters(tokens);
}

/** True when every character of `text` is ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** A character of {@link TOKEN}'s main run, in ASCII: a letter, a digit, or * @ $ #. */
function isTokenCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 42 || c === 64 || c === 36 || c === 35;
}

/** A letter, in ASCII. */
function isLetterCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/** {@link TOKEN}'s matches in an ASCII text, read with one scan (a run, then an apostrophe and letters if they follow), each given to `add` until it answers false. */
export function asciiTokens(text: string, add: (token: string) => boolean): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isTokenCode(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < n && isTokenCode(text.charCodeAt(i))) i += 1;
    if (i + 1 < n && text.charCodeAt(i) === 39 && isLetterCode(text.charCodeAt(i + 1))) {
      i += 2;
      while (i < n && isLetterCode(text.charCodeAt(i))) i += 1;
    }
    if (!add(text.slice(start, i))) return;
  }
}

const finish = finishFeatureHash;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a state of a whole string. */
function fnv(text: string, hash = FNV_OFFSET): number {
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash;
}

/** Feature kind of a word's lexicon class (kinds 1 to 7 are words, pairs and character n-grams). */
const CLASS_KIND = 9;
/**
 * How many times a class feature is counted: about as often as the 30 or so character n-grams of a word, so the one
 * shared feature is not drowned by them (the model then reads a rare insult about as well as a common one).
 */
const CLASS_REPEAT = 16;

/**
 * The lexicon classes of word-classes.ts by the FNV hash of the word (which the features compute anyway), in an
 * open-addressing table: one or two array reads per word instead of a string lookup. A 32-bit collision of an
 * ordinary word with one of the ~1,800 listed ones is about one in two million words, and always the same.
 */
const CLASS_SLOTS = 1 << 15;
const classKeys = new Int32Array(CLASS_SLOTS);
const classValues = new Uint8Array(CLASS_SLOTS);
for (const [word, classes] of WORD_CLASSES) {
  const hash = fnv(word) | 0;
  let slot = hash & (CLASS_SLOTS - 1);
  while (classValues[slot] !== 0 && classKeys[slot] !== hash) slot = (slot + 1) & (CLASS_SLOTS - 1);
  classKeys[slot] = hash;
  classValues[slot] = classes;
}

/** The classes of a word from its FNV hash, or from its open forms when it is not listed. */
function classesOf(word: number, token: string): number {
  const hash = word | 0;
  for (let slot = hash & (CLASS_SLOTS - 1); classValues[slot] !== 0; slot = (slot + 1) & (CLASS_SLOTS - 1)) {
    if (classKeys[slot] === hash) return classValues[slot] as number;
  }
  return openFormClasses(token);
}

/** Calls `push` with the bucket of each lexicon class of a word, {@link CLASS_REPEAT} times; most words have none. */
function pushWordClasses(word: number, token: string, mask: number, push: (bucket: number) => void): void {
  const classes = classesOf(word, token);
  if (classes === 0) return;
  for (let r = 0; r < CLASS_REPEAT; r += 1) {
    if (classes & CLASS_INSULT) push(finish(CLASS_INSULT, CLASS_KIND, mask));
    else if (classes & CLASS_WEAK_INSULT) push(finish(CLASS_WEAK_INSULT, CLASS_KIND, mask));
    if (classes & CLASS_OBSCENE) push(finish(CLASS_OBSCENE, CLASS_KIND, mask));
  }
}

/**
 * Writes the bucket of every feature of the tokens into `out` (grown when needed) and answers the feature count:
 * each word, its lexicon class (insult, weak insult, obscene: one shared feature each, so a rare abusive word
 * counts like a common one), each adjacent word pair, and the character 2- to 5-grams of each space-padded word. The n-grams that
 * start at one position share one running hash, so a word costs about five steps per character.
 */
export function unsafeFeatureBuckets(tokens: readonly string[], buckets: number, out: { ids: Int32Array }): number {
  const mask = buckets - 1;
  let count = 0;
  let ids = out.ids;
  const push = (bucket: number): void => {
    if (count === ids.length) {
      const grown = new Int32Array(ids.length * 2);
      grown.set(ids);
      ids = grown;
      out.ids = grown;
    }
    ids[count] = bucket;
    count += 1;
  };
  let previous = 0;
  for (let t = 0; t < tokens.length; t += 1) {
    const token = tokens[t] as string;
    const word = fnv(token);
    push(finish(word, 1, mask));
    // A pair hashes the previous word's state on through a space and this word.
    if (t > 0) push(finish(fnv(token, Math.imul(previous ^ 32, FNV_PRIME)), 2, mask));
    previous = word;
    pushWordClasses(word, token, mask, push);
    pushCharGrams(token, mask, push);
  }
  return count;
}

/** Pushes the buckets of the character 2- to 5-grams of a space-padded word (none past {@link MAX_WORD_FOR_CHARS}). */
function pushCharGrams(token: string, mask: number, push: (bucket: number) => void): void {
  if (token.length > MAX_WORD_FOR_CHARS) return;
  const count = charGramBuckets(token, mask);
  for (let i = 0; i < count; i += 1) push(gramScratch[i] as number);
}

/** The buckets of the last {@link charGramBuckets} call: a word of at most MAX_WORD_FOR_CHARS characters has at most 4 per character. */
const gramScratch = new Int32Array((MAX_WORD_FOR_CHARS + 2) * (MAX_CHARS - 1));

/** Writes the buckets of a space-padded word's character 2- to 5-grams, in order, into {@link gramScratch}; answers how many. */
function charGramBuckets(token: string, mask: number): number {
  const length = token.length + 2;
  let count = 0;
  for (let start = 0; start + MIN_CHARS <= length; start += 1) {
    let hash = FNV_OFFSET;
    const last = Math.min(length, start + MAX_CHARS);
    for (let at = start; at < last; at += 1) {
      const code = at === 0 || at === length - 1 ? 32 : token.charCodeAt(at - 1);
      hash = Math.imul(hash ^ code, FNV_PRIME);
      const size = at - start + 1;
      if (size >= MIN_CHARS) {
        gramScratch[count] = finish(hash, 2 + size, mask);
        count += 1;
      }
    }
  }
  return count;
}

/** The model's weights summed per word, for a text read in overlapping windows (see {@link wordFeatureSums}). */
export interface WordFeatureSums {
  /** The weight sum of each word's own features: the word and its character n-grams. */
  own: Float64Array;
  /** How many own features each word has. */
  count: Int32Array;
  /** The weight of the pair ending at each word (0 for the first word). */
  pair: Float64Array;
}

/**
 * The features of {@link unsafeFeatureBuckets} summed word by word: a window of words `[start, end)` has the
 * features of its words' own sums and of the pairs ending at `start + 1` to `end - 1`, so overlapping windows
 * need not hash a word twice. The sums are of the stored integer weights, so they equal a window's own sum exactly.
 */
export function wordFeatureSums(tokens: readonly string[], buckets: number, weights: ArrayLike<number>): WordFeatureSums {
  const mask = buckets - 1;
  const sums: WordFeatureSums = { own: new Float64Array(tokens.length), count: new Int32Array(tokens.length), pair: new Float64Array(tokens.length) };
  // The class features' weights, added in the order pushWordClasses lists them (so float weights sum the same too).
  const insult = weights[finish(CLASS_INSULT, CLASS_KIND, mask)] as number;
  const weakInsult = weights[finish(CLASS_WEAK_INSULT, CLASS_KIND, mask)] as number;
  const obscene = weights[finish(CLASS_OBSCENE, CLASS_KIND, mask)] as number;
  let previous = 0;
  for (let t = 0; t < tokens.length; t += 1) {
    const token = tokens[t] as string;
    const word = fnv(token);
    if (t > 0) sums.pair[t] = weights[finish(fnv(token, Math.imul(previous ^ 32, FNV_PRIME)), 2, mask)] as number;
    previous = word;
    let sum = weights[finish(word, 1, mask)] as number;
    let features = 1;
    const classes = classesOf(word, token);
    for (let r = 0; classes !== 0 && r < CLASS_REPEAT; r += 1) {
      if (classes & CLASS_INSULT) sum += insult;
      else if (classes & CLASS_WEAK_INSULT) sum += weakInsult;
      if (classes & CLASS_OBSCENE) sum += obscene;
      features += (classes & (CLASS_INSULT | CLASS_WEAK_INSULT) ? 1 : 0) + (classes & CLASS_OBSCENE ? 1 : 0);
    }
    if (token.length <= MAX_WORD_FOR_CHARS) {
      const grams = charGramBuckets(token, mask);
      for (let i = 0; i < grams; i += 1) sum += weights[gramScratch[i] as number] as number;
      features += grams;
    }
    sums.own[t] = sum;
    sums.count[t] = features;
  }
  return sums;
}
