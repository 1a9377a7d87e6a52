// Hashed word, word-pair and character n-gram features of the trust-safety model (shared by the plugin and its trainer).
import { finishFeatureHash } from '../shared/feature-hash.js';
import { CLASS_INSULT, CLASS_OBSCENE, CLASS_WEAK_INSULT, openFormClasses, WORD_CLASSES } from './word-classes.js';

/** Character n-gram sizes inside each space-padded word. */
const MIN_CHARS = 2;
const MAX_CHARS = 5;
/** Words longer than this (URLs, hashes) add only their word feature. */
const MAX_WORD_FOR_CHARS = 20;

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
