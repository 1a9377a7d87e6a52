// A shipped logistic-regression model over hashed n-grams: a JSON header and a Float32 weights file, scored per window.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { addCharGramWeights, modelText, textWindows, WINDOW_SIZE, WINDOW_STRIDE, wordAndCueBuckets } from './hashed-features.js';

/** The JSON header beside the weights: what the model predicts and how it was made. */
export interface HashedModelHeader {
  /** One output per label, e.g. `["prompt_injection", "jailbreak"]`; the weights file holds one block of 2^bits floats per label, in this order. */
  labels: string[];
  bits: number;
  /** Window length and step in characters of the normalised text (defaults: WINDOW_SIZE, WINDOW_STRIDE). */
  window?: { size: number; stride: number };
  /** How many times each structural cue of a window (cues.ts) counts as a feature; absent or 0: no cues. */
  cues?: number;
  /**
   * Logit taken off the best window per natural log of the window count: the highest of many windows of a long,
   * harmless text is high by chance more often than the one window of a short text. Absent or 0: none.
   */
  windowPenalty?: number;
  /** Features are scaled by 1/sqrt(max(count, featureFloor)): a very short text's few n-grams weigh less. Absent or 0: none. */
  featureFloor?: number;
  biases: number[];
  /** Data, settings and date, for people reading the file. */
  trainedOn: string;
  created: string;
  seed: number;
}

/** A loaded model: one weight vector per label. */
export interface HashedModel {
  header: HashedModelHeader;
  weights: Float32Array[];
}

/** Builds a model from its header and the raw bytes of its weights file (little-endian Float32). */
export function parseHashedModel(header: HashedModelHeader, bytes: Uint8Array): HashedModel {
  const size = 1 << header.bits;
  const expected = size * header.labels.length * 4;
  if (bytes.byteLength !== expected) throw new Error(`weights file has ${bytes.byteLength} bytes, expected ${expected}`);
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { header, weights: header.labels.map((_, i) => all.subarray(i * size, (i + 1) * size)) };
}

/** Loads `<base>.json` and `<base>.bin` from beside the plugin (never downloaded). */
export async function loadHashedModel(base: URL): Promise<HashedModel> {
  const [header, bytes] = await Promise.all([readFile(new URL(`${base.href}.json`), 'utf8'), readFile(new URL(`${base.href}.bin`))]);
  return parseHashedModel(JSON.parse(header) as HashedModelHeader, bytes);
}

/** The same, synchronously: for a first use before the plugin's setup ran (scripts, direct calls). */
export function loadHashedModelSync(base: URL): HashedModel {
  return parseHashedModel(JSON.parse(readFileSync(new URL(`${base.href}.json`), 'utf8')) as HashedModelHeader, readFileSync(new URL(`${base.href}.bin`)));
}

/** A view of `model` with only the named labels (shares the weights). */
export function selectLabels(model: HashedModel, labels: readonly string[]): HashedModel {
  const indexes = labels.map((label) => model.header.labels.indexOf(label));
  if (indexes.some((i) => i < 0)) throw new Error(`model has no label among ${labels.join(', ')}`);
  return {
    header: { ...model.header, labels: [...labels], biases: indexes.map((i) => model.header.biases[i] ?? 0) },
    weights: indexes.map((i) => model.weights[i] as Float32Array),
  };
}

/** The logistic function. */
export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Margin of one label on one window's buckets: bias + Σ w / sqrt(n). */
export function bucketMargin(weights: Float32Array, bias: number, buckets: ArrayLike<number>, featureFloor = 0): number {
  let sum = 0;
  for (let i = 0; i < buckets.length; i += 1) sum += weights[buckets[i] as number] as number;
  return marginOfSum(bias, sum, buckets.length, featureFloor);
}

/** The margin of a window whose `count` features' weights add up to `sum`: bias + sum / sqrt(max(count, floor)); the bias alone without features. */
function marginOfSum(bias: number, sum: number, count: number, featureFloor: number): number {
  return count === 0 ? bias : bias + sum / Math.sqrt(Math.max(count, featureFloor));
}

/**
 * Probabilities of each label for an already normalised text (see `modelText`): every window is scored and the
 * highest probability per label is kept, so one bad window in a long, harmless text decides.
 */
export function scoreNormalised(model: HashedModel, normalised: string): number[] {
  const { header, weights } = model;
  const best = header.labels.map(() => -Infinity);
  const mask = (1 << header.bits) - 1;
  const sums = new Float64Array(weights.length);
  const words: number[] = [];
  const windows = textWindows(normalised, header.window?.size ?? WINDOW_SIZE, header.window?.stride ?? WINDOW_STRIDE);
  for (const window of windows) {
    // The same sums as bucketMargin over featureBuckets(window): the n-grams' weights, then the words' and cues', in order.
    sums.fill(0);
    const grams = addCharGramWeights(window, mask, weights, sums);
    words.length = 0;
    wordAndCueBuckets(window, mask, words, header.cues ?? 0);
    for (let l = 0; l < weights.length; l += 1) {
      const vector = weights[l] as Float32Array;
      let sum = sums[l] as number;
      for (let k = 0; k < words.length; k += 1) sum += vector[words[k] as number] as number;
      const margin = marginOfSum(header.biases[l] ?? 0, sum, grams + words.length, header.featureFloor ?? 0);
      if (margin > (best[l] as number)) best[l] = margin;
    }
  }
  const penalty = (header.windowPenalty ?? 0) * Math.log(windows.length);
  return best.map((margin) => sigmoid(margin - penalty));
}

/** Probabilities of each label for a raw text: normalised, then scored in windows. */
export function scoreText(model: HashedModel, text: string): number[] {
  return scoreNormalised(model, modelText(text));
}
