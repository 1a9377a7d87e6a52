// A string-feature logistic-regression classifier (word and character n-grams) kept for scripts/train/linear-trainer.ts; trustsafety itself ships the hashed model of unsafe-model.ts.
import { readFileSync } from 'node:fs';

/** The shipped model file: a bias and one weight per feature string. */
export interface LinearModelFile {
  /** What the model predicts, e.g. `unsafe`. */
  label: string;
  /** How the weights were made (data, folds, regularisation), for people reading the file. */
  trainedOn: string;
  bias: number;
  weights: Record<string, number>;
}

/** A loaded model: `predict(text)` answers the probability of the positive label. */
export interface TextClassifier {
  label: string;
  predict(text: string): number;
}

const CHAR_NGRAM_SIZES = [3, 4, 5];
/** Longest word that contributes character n-grams; longer tokens (URLs, hashes) add only their word feature. */
const MAX_WORD_FOR_CHARS = 20;

/** Lower case, NFKC, invisible characters out; keeps letters, digits, apostrophes and the asterisks of "f**k". */
export function normaliseForModel(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u200B-\u200F\u2060\uFEFF\u00AD]/g, '')
    .replace(/[’‘`]/g, "'");
}

/** Word tokens of a normalised text. */
export function tokenize(normalised: string): string[] {
  return normalised.match(/[\p{L}\p{N}*@$]+(?:'[\p{L}]+)?/gu) ?? [];
}

/** The distinct features of one text, by kind (kept apart so prediction needs no string prefixes). */
export interface FeatureSets {
  /** `s:` shape features: shouting (mostly capitals), runs of "!!" or "??", masked swearing ("f**k"). */
  shapes: Set<string>;
  /** `w:` words. */
  words: Set<string>;
  /** `b:` word bigrams, joined with "_". */
  bigrams: Set<string>;
  /**
   * `c:` character 3- to 5-grams of each distinct word padded with spaces. A list, not a set: an n-gram shared by
   * two words counts twice, which spares a set insertion per n-gram (the hot loop of prediction).
   */
  chars: string[];
}

const PREFIXES = { shapes: 's:', words: 'w:', bigrams: 'b:', chars: 'c:' } as const;
type FeatureKind = keyof typeof PREFIXES;
const KINDS = Object.keys(PREFIXES) as FeatureKind[];

/** Shape features, counted on ASCII letters (enough to tell shouting). */
function shapeFeatures(text: string): Set<string> {
  const shapes = new Set<string>();
  const letters = text.match(/[a-zA-Z]/g)?.length ?? 0;
  if (letters >= 12 && (text.match(/[A-Z]/g)?.length ?? 0) / letters > 0.6) shapes.add('shouting');
  if (/[!?]{2,}/.test(text)) shapes.add('punctuation-run');
  if (/\b[a-z]+[*#@$%!]+[a-z]*\b/i.test(text)) shapes.add('masked');
  return shapes;
}

/** Splits a text into its distinct features. */
export function featureSets(text: string): FeatureSets {
  const tokens = tokenize(normaliseForModel(text));
  const sets: FeatureSets = { shapes: shapeFeatures(text), words: new Set(tokens), bigrams: new Set(), chars: [] };
  for (let i = 1; i < tokens.length; i += 1) sets.bigrams.add(`${tokens[i - 1]}_${tokens[i]}`);
  // Character n-grams depend on the word only, so each distinct word is expanded once.
  for (const word of sets.words) {
    if (word.length > MAX_WORD_FOR_CHARS) continue;
    const padded = ` ${word} `;
    for (const size of CHAR_NGRAM_SIZES) {
      for (let start = 0; start + size <= padded.length; start += 1) sets.chars.push(padded.slice(start, start + size));
    }
  }
  return sets;
}

/** The features of a text as prefixed strings (`w:word`, `c: wo`, ...), as the trainer and the model file name them. */
export function extractFeatures(text: string): string[] {
  const sets = featureSets(text);
  const features: string[] = [];
  for (const kind of KINDS) for (const feature of sets[kind]) features.push(PREFIXES[kind] + feature);
  return features;
}

/** The logistic function. */
export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/**
 * The margin of a text under `weights`: bias plus the weights of its features, scaled by 1/sqrt(feature count)
 * so long texts are not more confident just for being long.
 */
export function margin(features: readonly string[], bias: number, weights: ReadonlyMap<string, number>): number {
  if (features.length === 0) return bias;
  let sum = 0;
  for (const feature of features) sum += weights.get(feature) ?? 0;
  return bias + sum / Math.sqrt(features.length);
}

/** FNV-1a hash of `text.slice(start, end)`, computed without making the substring. */
function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Builds a classifier from model data (as loaded from JSON or just trained). It computes `margin()` over
 * `extractFeatures()`, except that character n-grams are looked up by a 32-bit hash instead of as strings: the
 * hot loop then makes no substrings. A hash collision between an n-gram of the text and a weighted n-gram is
 * possible but rare (23k weights in 2^32) and would move the margin by one small weight.
 */
export function createClassifier(model: LinearModelFile): TextClassifier {
  const words = new Map<string, number>();
  const bigrams = new Map<string, number>();
  const shapes = new Map<string, number>();
  const chars = new Map<number, number>();
  for (const [feature, weight] of Object.entries(model.weights)) {
    const name = feature.slice(2);
    if (feature.startsWith(PREFIXES.chars)) {
      const hash = hashRange(name, 0, name.length);
      chars.set(hash, (chars.get(hash) ?? 0) + weight);
    } else if (feature.startsWith(PREFIXES.words)) words.set(name, weight);
    else if (feature.startsWith(PREFIXES.bigrams)) bigrams.set(name, weight);
    else if (feature.startsWith(PREFIXES.shapes)) shapes.set(name, weight);
  }
  return {
    label: model.label,
    predict(text: string): number {
      const tokens = tokenize(normaliseForModel(text));
      const distinct = new Set(tokens);
      let sum = 0;
      let count = 0;
      for (const shape of shapeFeatures(text)) {
        sum += shapes.get(shape) ?? 0;
        count += 1;
      }
      const seenBigrams = new Set<string>();
      for (let i = 1; i < tokens.length; i += 1) {
        const bigram = `${tokens[i - 1]}_${tokens[i]}`;
        if (seenBigrams.has(bigram)) continue;
        seenBigrams.add(bigram);
        sum += bigrams.get(bigram) ?? 0;
      }
      count += seenBigrams.size + distinct.size;
      for (const word of distinct) {
        sum += words.get(word) ?? 0;
        if (word.length > MAX_WORD_FOR_CHARS) continue;
        const padded = ` ${word} `;
        for (const size of CHAR_NGRAM_SIZES) {
          for (let start = 0; start + size <= padded.length; start += 1) {
            sum += chars.get(hashRange(padded, start, start + size)) ?? 0;
            count += 1;
          }
        }
      }
      return sigmoid(count === 0 ? model.bias : model.bias + sum / Math.sqrt(count));
    },
  };
}

/** Loads a classifier from a JSON file shipped with the plugin (never downloaded). */
export function loadClassifier(file: URL): TextClassifier {
  return createClassifier(JSON.parse(readFileSync(file, 'utf8')) as LinearModelFile);
}
