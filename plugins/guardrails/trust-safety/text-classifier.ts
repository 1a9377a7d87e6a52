// A small logistic-regression text classifier over word and character n-grams; the weights ship as JSON beside it.
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

/** Shape features: shouting (mostly capitals), runs of "!!" or "??", masked swearing ("f**k", "$h!t"). */
function addShapeFeatures(text: string, features: Set<string>): void {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 12) {
    const capitals = letters.replace(/[^\p{Lu}]/gu, '').length;
    if (capitals / letters.length > 0.6) features.add('s:shouting');
  }
  if (/[!?]{2,}/.test(text)) features.add('s:punctuation-run');
  if (/\b[a-z]+[*#@$%!]+[a-z]*\b/i.test(text)) features.add('s:masked');
}

/**
 * The distinct features of a text: `w:` words, `b:` word bigrams and `c:` character 3- to 5-grams of each
 * word padded with spaces. Feature values are binary.
 */
export function extractFeatures(text: string): Set<string> {
  const words = tokenize(normaliseForModel(text));
  const features = new Set<string>();
  addShapeFeatures(text, features);
  for (let i = 1; i < words.length; i += 1) features.add(`b:${words[i - 1]}_${words[i]}`);
  // Character n-grams depend on the word only, so each distinct word is expanded once.
  for (const word of new Set(words)) {
    features.add(`w:${word}`);
    if (word.length > MAX_WORD_FOR_CHARS) continue;
    const padded = ` ${word} `;
    for (const size of CHAR_NGRAM_SIZES) {
      for (let start = 0; start + size <= padded.length; start += 1) features.add(`c:${padded.slice(start, start + size)}`);
    }
  }
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
export function margin(features: Set<string>, bias: number, weights: ReadonlyMap<string, number>): number {
  if (features.size === 0) return bias;
  let sum = 0;
  for (const feature of features) sum += weights.get(feature) ?? 0;
  return bias + sum / Math.sqrt(features.size);
}

/** Builds a classifier from model data (as loaded from JSON or just trained). */
export function createClassifier(model: LinearModelFile): TextClassifier {
  const weights = new Map(Object.entries(model.weights));
  return {
    label: model.label,
    predict(text: string): number {
      return sigmoid(margin(extractFeatures(text), model.bias, weights));
    },
  };
}

/** Loads a classifier from a JSON file shipped with the plugin (never downloaded). */
export function loadClassifier(file: URL): TextClassifier {
  return createClassifier(JSON.parse(readFileSync(file, 'utf8')) as LinearModelFile);
}
