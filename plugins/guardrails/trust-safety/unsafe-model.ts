// The trained unsafe-text model of trustsafety: logistic regression over hashed n-grams (int16 weights in unsafe-weights.bin), with a word-vector part for texts read whole.
import { readFileSync } from 'node:fs';
import { unsafeFeatureBuckets, wordFeatureSums } from './unsafe-features.js';
import { LONG_TEXT_WINDOW, modelTokens, normaliseForModel, WINDOW_TOKENS } from './unsafe-tokens.js';
import { createVectorScorer, readVectorTable, type VectorModelData, type VectorModelMeta } from './vector-model.js';

/** The header file (unsafe-model.json). */
export interface UnsafeModelMeta {
  buckets: number;
  /** Real weight = stored int16 × scale. */
  scale: number;
  bias: number;
  trainedOn: string;
  /** The word-vector part's header (vector-model.ts), when the model has one; its table is unsafe-vectors.bin. */
  vectors?: VectorModelMeta;
}

/** Model data as trained (float weights) or as shipped (int16). */
export interface UnsafeModelData {
  meta: UnsafeModelMeta;
  weights: Float32Array | Int16Array;
  /** The word-vector part, whose margin is added to that of a text read whole (vector-model.ts). */
  vectors?: VectorModelData;
}

/** Answers the probability that a text is unsafe. */
export interface UnsafeClassifier {
  predict(text: string): number;
  /**
   * The same, on tokens already made by `modelTokens(normaliseForModel(text))`. Over {@link WINDOW_TOKENS} words,
   * the highest probability of {@link LONG_TEXT_WINDOW}-word windows overlapping by half, so abuse at the end of a
   * long text still counts, less {@link WINDOW_DISCOUNT} × ln(windows, at most {@link WINDOW_DISCOUNT_CAP}) in log-odds.
   * A text read whole adds the word-vector part (when the model has one); the windows of a long text are read by the
   * linear model alone, since a window's mean word vector is mostly its harmless words and would dilute one insult.
   */
  predictTokens(tokens: readonly string[]): number;
}

/**
 * The highest of many windows of a harmless text rises with their number (each is one more chance of a heated
 * sentence), so a long text's best window loses this much log-odds per ln(window count), counting at most
 * {@link WINDOW_DISCOUNT_CAP} windows: 5 windows (just over 100 words) lose 0.80, 12 or more lose 1.24. Picked with the
 * scoring floors (threshold only); it lowers the leave-one-source-out FPR of long Wikipedia talk pages.
 */
export const WINDOW_DISCOUNT = 0.5;
/** Windows beyond this many (about 260 words) add no discount, so one insult in a long page still counts. */
export const WINDOW_DISCOUNT_CAP = 12;

/** Builds a classifier from model data. */
export function createUnsafeClassifier(data: UnsafeModelData): UnsafeClassifier {
  const { meta, weights } = data;
  const integerWeights = weights instanceof Int16Array;
  const scale = integerWeights ? meta.scale : 1;
  // One scratch buffer per classifier: evaluation is synchronous, so calls never overlap.
  const scratch = { ids: new Int32Array(4096) };
  const vectors = data.vectors ? createVectorScorer(data.vectors) : undefined;
  const linearScale = data.vectors ? data.vectors.meta.linearScale : 1;
  const marginOf = (sum: number, n: number): number => meta.bias + (n > 0 ? (sum * scale) / Math.sqrt(n) : 0);
  const predictWindow = (tokens: readonly string[]): number => {
    // A text read whole: linearScale × the linear margin + the vector part's margin (vector-model.ts).
    const mixed = (linear: number): number => (vectors ? linearScale * linear + vectors.margin(vectors.rowsOf(tokens), 0, tokens.length) : linear);
    if (integerWeights) {
      // Integer weights sum exactly in any order: add up each word's sums rather than list every feature.
      const { own, count, pair } = wordFeatureSums(tokens, meta.buckets, weights);
      let sum = 0;
      let n = 0;
      for (let t = 0; t < tokens.length; t += 1) {
        sum += (own[t] as number) + (pair[t] as number);
        n += (count[t] as number) + (t > 0 ? 1 : 0);
      }
      return 1 / (1 + Math.exp(-mixed(marginOf(sum, n))));
    }
    let sum = 0;
    const n = unsafeFeatureBuckets(tokens, meta.buckets, scratch);
    const ids = scratch.ids;
    for (let i = 0; i < n; i += 1) sum += weights[ids[i] as number] as number;
    return 1 / (1 + Math.exp(-mixed(marginOf(sum, n))));
  };
  const step = LONG_TEXT_WINDOW / 2;
  const predictTokens = (tokens: readonly string[]): number => {
    if (tokens.length <= WINDOW_TOKENS) return predictWindow(tokens);
    // Each word is hashed once; a window adds up its words' sums (the same sums as predictWindow on the slice).
    const { own, count, pair } = wordFeatureSums(tokens, meta.buckets, weights);
    let best = -Infinity;
    let windows = 0;
    for (let start = 0; start < tokens.length - step; start += step) {
      const end = Math.min(tokens.length, start + LONG_TEXT_WINDOW);
      let sum = 0;
      let n = 0;
      for (let t = start; t < end; t += 1) {
        sum += own[t] as number;
        n += count[t] as number;
        if (t > start) {
          sum += pair[t] as number;
          n += 1;
        }
      }
      best = Math.max(best, marginOf(sum, n));
      windows += 1;
    }
    return 1 / (1 + Math.exp(-(best - WINDOW_DISCOUNT * Math.log(Math.min(windows, WINDOW_DISCOUNT_CAP)))));
  };
  return { predictTokens, predict: (text) => predictTokens(modelTokens(normaliseForModel(text))) };
}

/** Reads the shipped model beside this file (synchronously: it runs once, in setup or on first use). */
export function loadUnsafeClassifier(folder: URL = new URL('./', import.meta.url)): UnsafeClassifier {
  const meta = JSON.parse(readFileSync(new URL('unsafe-model.json', folder), 'utf8')) as UnsafeModelMeta;
  const bytes = readFileSync(new URL('unsafe-weights.bin', folder));
  const weights = new Int16Array(bytes.byteLength / 2);
  for (let i = 0; i < weights.length; i += 1) weights[i] = bytes.readInt16LE(i * 2);
  if (weights.length !== meta.buckets) throw new Error('trustsafety: unsafe-weights.bin does not match unsafe-model.json');
  const vectors = meta.vectors ? readVectorTable(new URL('unsafe-vectors.bin', folder), meta.vectors) : undefined;
  return createUnsafeClassifier(vectors ? { meta, weights, vectors } : { meta, weights });
}
