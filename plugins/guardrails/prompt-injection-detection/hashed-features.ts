// Hashed n-gram features of a normalised text (character 2- to 5-grams, word unigrams and bigrams), and the windows long texts are read in.
import { CUE_ANCHOR_TABLE, UNANCHORED_CUES } from './cue-anchors.js';
import { windowCues } from './cues.js';
import { foldView, plainView } from './normalise.js';
import { isSelfGateWord } from './self-reference.js';

/** Feature-space size of the shipped models: 2^18 buckets. */
export const DEFAULT_HASH_BITS = 18;

/** Window length and step, in characters of the normalised text: an attack buried in a long text fills one window. */
export const WINDOW_SIZE = 512;
export const WINDOW_STRIDE = 384;

/** Longest character n-gram: 2- to 5-grams start at each position. */
const MAX_GRAM = 5;

// Module-local constants, not imports: the n-gram loop reads them millions of times, and V8 folds a local constant
// but loads an imported binding each time (importing them from word-hash.ts cost 5-10% per evaluation).
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WORD_SEED = 0x9e3779b9;
const BIGRAM_SEED = 0x85ebca6b;
const CUE_SEED = 0xc2b2ae35;
const WORD = /[\p{L}\p{N}]+/gu;
const ANCHORS = CUE_ANCHOR_TABLE;

/** A 32-bit finaliser (from murmur3): spreads FNV's low bits before masking. */
export function mix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** True when every character of `text` is ASCII. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** FNV-1a of a whole string, from a seed (0: plain FNV-1a); a word's hash is `fnv(word, WORD_SEED)`, as word-hash.ts computes it. */
export function fnv(text: string, seed: number): number {
  let h = (FNV_OFFSET ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/**
 * The text the models read: NFKC, invisible characters removed, lower case, homoglyphs, leetspeak, accents and
 * spelt-out letters folded (see normalise.ts), whitespace runs made single; blobs are masked before folding (see `maskBlobs`).
 */
export function modelText(text: string): string {
  return foldView(maskBlobs(plainView(text)));
}

/** Long runs of letters and digits with at least one digit (Base64, hex, ids, hashes) in lower-cased text. */
const BLOB = /[a-z0-9+/=_-]{24,}/g;
const DIGIT = /[0-9]/;

/**
 * Replaces encoded blobs, hashes and ids with one placeholder word: their random n-grams say nothing about intent
 * (a decoded payload is scored on its own), and would otherwise read like adversarial token spam.
 */
export function maskBlobs(normalised: string): string {
  return hasBlobRun(normalised) ? normalised.replace(BLOB, (run) => (DIGIT.test(run) ? ' blobtoken ' : run)) : normalised;
}

/** True when `text` has a run of at least 24 characters of BLOB's class: one linear scan, so most texts skip the regular expression. */
function hasBlobRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const inClass = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 61 || c === 95 || c === 45;
    run = inClass ? run + 1 : 0;
    if (run >= 24) return true;
  }
  return false;
}

/** Cuts a normalised text into overlapping windows (one window when it is short); the last window ends at the end. */
export function textWindows(text: string, size = WINDOW_SIZE, stride = WINDOW_STRIDE): string[] {
  if (text.length <= size) return [text];
  const windows: string[] = [];
  let start = 0;
  for (; start + size < text.length; start += stride) windows.push(text.slice(start, start + size));
  windows.push(text.slice(Math.max(0, text.length - size)));
  return windows;
}

/**
 * The hashed features of one normalised window, as bucket numbers in [0, 2^bits), one per occurrence: character
 * 2- to 5-grams (spaces and punctuation included, so "<|im_start|>" and "###" count), word unigrams and word bigrams,
 * and, when `cueRepeat` is above 0, each structural cue of the window (see cues.ts) `cueRepeat` times.
 */
export function featureBuckets(window: string, bits = DEFAULT_HASH_BITS, into: number[] = [], cueRepeat = 0): number[] {
  const mask = (1 << bits) - 1;
  const grams = charGramBuckets(window, mask);
  for (let i = 0; i < grams; i += 1) into.push(gramScratch[i] as number);
  return wordAndCueBuckets(window, mask, into, cueRepeat);
}

/** The buckets of the last {@link charGramBuckets} call (grown as needed; evaluation is synchronous, so calls never overlap). */
let gramScratch = new Int32Array(4096);

/** Writes the buckets of a window's character 2- to 5-grams, in order, into {@link gramScratch}; answers how many. */
function charGramBuckets(window: string, mask: number): number {
  const n = window.length;
  if (gramScratch.length < n * (MAX_GRAM - 1)) gramScratch = new Int32Array(n * (MAX_GRAM - 1));
  const out = gramScratch;
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    let h = Math.imul(FNV_OFFSET ^ window.charCodeAt(i), FNV_PRIME);
    const last = Math.min(n, i + MAX_GRAM);
    for (let j = i + 1; j < last; j += 1) {
      h = Math.imul(h ^ window.charCodeAt(j), FNV_PRIME);
      out[count] = mix(h + j - i) & mask;
      count += 1;
    }
  }
  return count;
}

/**
 * Adds the weights of a window's character n-grams (the first part of {@link featureBuckets}, in the same order) to
 * `sums`, one sum per weight vector; answers how many n-grams there were. Scoring a window this way gives the same
 * sums, bit for bit, as summing the listed buckets, without growing a list of them.
 */
export function addCharGramWeights(window: string, mask: number, weights: readonly Float32Array[], sums: Float64Array): number {
  if (weights.length === 2) return addCharGramWeightsOfTwo(window, mask, weights[0] as Float32Array, weights[1] as Float32Array, sums);
  const count = charGramBuckets(window, mask);
  for (let l = 0; l < weights.length; l += 1) {
    const vector = weights[l] as Float32Array;
    let sum = sums[l] as number;
    for (let i = 0; i < count; i += 1) sum += vector[gramScratch[i] as number] as number;
    sums[l] = sum;
  }
  return count;
}

/**
 * {@link addCharGramWeights} for the usual two labels (prompt_injection and jailbreak): the hashing loop of
 * {@link charGramBuckets} with both sums added as each bucket is made, in registers. On the hot path this is about
 * 14% faster than writing the buckets out first and summing them after.
 */
function addCharGramWeightsOfTwo(window: string, mask: number, first: Float32Array, second: Float32Array, sums: Float64Array): number {
  const n = window.length;
  let count = 0;
  let a = sums[0] as number;
  let b = sums[1] as number;
  for (let i = 0; i < n; i += 1) {
    let h = Math.imul(FNV_OFFSET ^ window.charCodeAt(i), FNV_PRIME);
    const last = Math.min(n, i + MAX_GRAM);
    for (let j = i + 1; j < last; j += 1) {
      h = Math.imul(h ^ window.charCodeAt(j), FNV_PRIME);
      const bucket = mix(h + j - i) & mask;
      a += first[bucket] as number;
      b += second[bucket] as number;
      count += 1;
    }
  }
  sums[0] = a;
  sums[1] = b;
  return count;
}

/** The word, word-bigram and cue buckets of one window, which follow its character n-grams in {@link featureBuckets}. */
export function wordAndCueBuckets(window: string, mask: number, into: number[] = [], cueRepeat = 0): number[] {
  let previous = 0;
  // Whether a word of the window opens the self-reference cue's costlier patterns (see self-reference.ts): known here
  // for the price of a table lookup per word, so the cue does not read the window again.
  let selfGate = false;
  const pushWord = (word: number): void => {
    into.push(mix(word) & mask);
    if (previous !== 0) into.push(mix(Math.imul(previous, 31) ^ word ^ BIGRAM_SEED) & mask);
    previous = word;
    if (cueRepeat > 0 && !selfGate) selfGate = isSelfGateWord(word);
  };
  const ascii = isAscii(window);
  // In an ASCII window, the cues whose anchors start one of its words (cue-anchors.ts): each start is looked up as it is hashed.
  let anchors = UNANCHORED_CUES;
  if (ascii) {
    // In ASCII, WORD's letters and digits are [A-Za-z0-9]: hash each run as it is read, without match objects.
    let hash = 0;
    let inWord = false;
    for (let i = 0; i <= window.length; i += 1) {
      const c = i < window.length ? window.charCodeAt(i) : 0;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) {
        if (!inWord) hash = (FNV_OFFSET ^ WORD_SEED) >>> 0;
        hash = Math.imul(hash ^ c, FNV_PRIME);
        if (cueRepeat > 0) anchors |= ANCHORS[hash & 0xffff] as number;
        inWord = true;
      } else if (inWord) {
        pushWord(hash >>> 0);
        inWord = false;
      }
    }
  } else {
    for (const match of window.matchAll(WORD)) pushWord(fnv(match[0], WORD_SEED));
  }
  if (cueRepeat > 0) {
    for (const cue of windowCues(window, { selfGate, ascii, anchors })) {
      const bucket = mix(fnv(cue, CUE_SEED)) & mask;
      for (let k = 0; k < cueRepeat; k += 1) into.push(bucket);
    }
  }
  return into;
}
