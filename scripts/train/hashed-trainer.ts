// Trains logistic regression over hashed n-gram windows (the prompt- and tool-injection models), deterministically from a seed: the one trainer of both.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DEFAULT_HASH_BITS, featureBuckets, modelText, textWindows, WINDOW_SIZE, WINDOW_STRIDE } from '../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { bucketMargin, sigmoid, type HashedModel, type HashedModelHeader } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { seededRandom, shuffle } from './linear-trainer.js';

/** One labelled text with one boolean per model label. */
export interface MultiLabelExample {
  text: string;
  labels: boolean[];
  /** Weight in the loss (default 1): used to balance sources of very different sizes. */
  weight?: number;
}

/** A text turned into bucket lists once, so folds and labels reuse the work. */
export interface PreparedExample {
  windows: Uint32Array[];
  labels: boolean[];
  weight: number;
}

/**
 * How the two classes are weighed against each other:
 * - `examples`: each class carries the same total example weight, and a negative text's windows share its weight
 *   (divided by the square root of their number), as for whole prompts;
 * - `windows`: every window of a negative text is its own negative at the text's full weight, and all negative windows
 *   together weigh `negativeMass` times the positive texts. The plugin flags a text when any one window scores high,
 *   so every window of a clean text must score low (tool output, read one sentence at a time).
 */
export type ClassBalance = { kind: 'examples' } | { kind: 'windows'; negativeMass: number };

/** Training settings. */
export interface HashedTrainOptions {
  bits: number;
  epochs: number;
  learningRate: number;
  /** L2 penalty per update. */
  l2: number;
  seed: number;
  /** Windows of one text used in training, spread evenly over it (scoring always reads all of them); Infinity for all. */
  maxWindows: number;
  /**
   * How a positive text with several windows trains: `all` (every window positive) or `max` (multiple-instance:
   * after the first epoch, only its highest-scoring window, which is where the attack most likely sits).
   */
  positiveWindows: 'all' | 'max';
  /** See {@link ClassBalance}. */
  balance: ClassBalance;
  /**
   * More seeds to train with: the model is the average of the models trained from `seed` and each of these (the same
   * data in other orders). Averaging takes out most of what one shuffle decides by chance, so results reproduce
   * across seeds, not only for one.
   */
  extraSeeds: number[];
  /** Window length and step (characters of normalised text) written to the header; omitted for models read in other units (sentences). */
  window?: { size: number; stride: number };
  /** Times each structural cue counts as a feature (written to the header; prepare the examples with the same number). */
  cues?: number;
  /** Written to the header: logit taken off the best window per natural log of the window count (scoring only). */
  windowPenalty?: number;
  /** Features scaled by 1/sqrt(max(count, featureFloor)) in training and (through the header) in scoring. */
  featureFloor?: number;
  /**
   * With `balance: windows`, after the first epoch each negative text also trains its highest window, at the
   * text-level log-odds the plugin scores (best margin less windowPenalty × ln(window count)), with all negative texts
   * together weighing this many times the positive texts: the loss of the max-pooled score, so the sentences that
   * would flag a clean text get more weight than the easy ones. 0 or absent: off.
   */
  negativeMaxMass?: number;
}

export const DEFAULT_HASHED_OPTIONS: HashedTrainOptions = {
  bits: DEFAULT_HASH_BITS,
  epochs: 6,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 7,
  maxWindows: 8,
  positiveWindows: 'max',
  balance: { kind: 'examples' },
  extraSeeds: [],
  window: { size: WINDOW_SIZE, stride: WINDOW_STRIDE },
};

/** Normalises and hashes each example's windows once. */
export function prepareExamples(examples: readonly MultiLabelExample[], bits = DEFAULT_HASH_BITS, window = { size: WINDOW_SIZE, stride: WINDOW_STRIDE }, cues = 0): PreparedExample[] {
  return examples.map((example) => ({
    windows: textWindows(modelText(example.text), window.size, window.stride).map((window) => Uint32Array.from(featureBuckets(window, bits, [], cues))),
    labels: example.labels,
    weight: example.weight ?? 1,
  }));
}

/** Up to `max` windows spread evenly over the list (first and last kept). */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))] as T);
}

/** The margin of one window's `buckets`: the bias plus the weights' sum scaled by 1/sqrt(max(count, floor)). */
export function windowMargin(weights: Float64Array, bias: number, buckets: Uint32Array, featureFloor: number): number {
  let sum = 0;
  for (const bucket of buckets) sum += weights[bucket] as number;
  return buckets.length === 0 ? bias : bias + sum / Math.sqrt(Math.max(buckets.length, featureFloor));
}

/** Loss scale of each class under `balance` (see {@link ClassBalance}). */
function classScales(training: ReadonlyArray<{ windows: Uint32Array[]; positive: boolean; weight: number }>, balance: ClassBalance): { pos: number; neg: number } {
  let positiveWeight = 0;
  let negativeWeight = 0;
  for (const example of training) {
    if (example.positive) positiveWeight += example.weight;
    else negativeWeight += balance.kind === 'windows' ? example.weight * example.windows.length : example.weight;
  }
  if (balance.kind === 'windows') return { pos: 1, neg: (balance.negativeMass * positiveWeight) / Math.max(1e-9, negativeWeight) };
  const total = positiveWeight + negativeWeight;
  return { pos: total / (2 * Math.max(1e-9, positiveWeight)), neg: total / (2 * Math.max(1e-9, negativeWeight)) };
}

/**
 * One AdaGrad step on the hashed weights of a window's `buckets`: each weight moves by its share (`scale`) of
 * `gradient` plus L2, over the root of its summed squared steps (`squares`, updated). The bias is the caller's.
 */
export function sparseAdaGradStep(weights: Float64Array, squares: Float64Array, buckets: Uint32Array, gradient: number, scale: number, l2: number, learningRate: number): void {
  for (const bucket of buckets) {
    const g = gradient * scale + l2 * (weights[bucket] as number);
    squares[bucket] = (squares[bucket] as number) + g * g;
    weights[bucket] = (weights[bucket] as number) - (learningRate * g) / Math.sqrt(squares[bucket] as number);
  }
}

/**
 * The weight of a negative window under `balance: windows`: every window of a negative text counts, and all of them
 * together weigh as much as the positive texts (`count` gives a text's window count).
 */
export function negativeWindowScale<T extends { positive: boolean; weight: number }>(training: readonly T[], count: (example: T) => number): number {
  let positive = 0;
  let negative = 0;
  for (const e of training) {
    if (e.positive) positive += e.weight;
    else negative += e.weight * count(e);
  }
  return positive / Math.max(1e-9, negative);
}

/** Trains one label (index `label` of each example's labels) with AdaGrad; answers its weights and bias. */
export function trainLabel(examples: readonly PreparedExample[], label: number, options: Partial<HashedTrainOptions> = {}): { weights: Float32Array; bias: number } {
  const settings = { ...DEFAULT_HASHED_OPTIONS, ...options };
  const size = 1 << settings.bits;
  const weights = new Float64Array(size);
  const squares = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasSquare = 1e-8;
  const training = examples.map((example) => ({ windows: spread(example.windows, settings.maxWindows), positive: example.labels[label] === true, weight: example.weight }));
  const classScale = classScales(training, settings.balance);
  const random = seededRandom(settings.seed);
  const order = training.map((_, i) => i);
  const floor = settings.featureFloor ?? 0;
  const update = (buckets: Uint32Array, target: number, importance: number): void => {
    if (buckets.length === 0) return;
    const scale = 1 / Math.sqrt(Math.max(buckets.length, floor));
    const gradient = (sigmoid(windowMargin(weights, bias, buckets, floor)) - target) * importance;
    sparseAdaGradStep(weights, squares, buckets, gradient, scale, settings.l2, settings.learningRate);
    biasSquare += gradient * gradient;
    bias -= (settings.learningRate * gradient) / Math.sqrt(biasSquare);
  };
  const eachNegativeWindow = settings.balance.kind === 'windows';
  const maxMass = eachNegativeWindow ? (settings.negativeMaxMass ?? 0) : 0;
  let positiveTexts = 0;
  let negativeTexts = 0;
  for (const e of training) e.positive ? (positiveTexts += e.weight) : (negativeTexts += e.weight);
  const negativeMaxScale = (maxMass * positiveTexts) / Math.max(1e-9, negativeTexts);
  const penalty = settings.windowPenalty ?? 0;
  for (let epoch = 0; epoch < settings.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const example = training[i] as (typeof training)[number];
      const importance = example.weight * (example.positive ? classScale.pos : classScale.neg);
      if (example.positive && settings.positiveWindows === 'max' && epoch > 0 && example.windows.length > 1) {
        let best = example.windows[0] as Uint32Array;
        let bestMargin = -Infinity;
        for (const window of example.windows) {
          const m = windowMargin(weights, bias, window, floor);
          if (m > bestMargin) [best, bestMargin] = [window, m];
        }
        update(best, 1, importance);
      } else if (!example.positive && eachNegativeWindow) {
        for (const window of example.windows) update(window, 0, importance);
        if (maxMass > 0 && epoch > 0 && example.windows.length > 0) {
          let best = example.windows[0] as Uint32Array;
          let bestMargin = -Infinity;
          for (const window of example.windows) {
            const m = windowMargin(weights, bias, window, floor);
            if (m > bestMargin) [best, bestMargin] = [window, m];
          }
          // The text-level score's gradient: sigmoid(best - penalty × ln n) - 0, on the best window's weights.
          const gradient = sigmoid(bestMargin - penalty * Math.log(example.windows.length)) * example.weight * negativeMaxScale;
          sparseAdaGradStep(weights, squares, best, gradient, 1 / Math.sqrt(Math.max(best.length, floor)), settings.l2, settings.learningRate);
          biasSquare += gradient * gradient;
          bias -= (settings.learningRate * gradient) / Math.sqrt(biasSquare);
        }
      } else {
        // Window-balanced training starts a positive on the mean of its windows; example-balanced shares by sqrt.
        const share = importance / (eachNegativeWindow ? example.windows.length : Math.sqrt(example.windows.length));
        for (const window of example.windows) update(window, example.positive ? 1 : 0, share);
      }
    }
  }
  return { weights: Float32Array.from(weights), bias };
}

/** The mean of models trained from several seeds (the first one itself when there is one). */
function averaged(models: ReadonlyArray<{ weights: Float32Array; bias: number }>): { weights: Float32Array; bias: number } {
  const [first] = models;
  if (!first) throw new Error('no model to average');
  if (models.length === 1) return first;
  const sum = new Float64Array(first.weights.length);
  for (const model of models) model.weights.forEach((w, k) => (sum[k] = (sum[k] as number) + w));
  return { weights: Float32Array.from(sum, (w) => w / models.length), bias: models.reduce((total, m) => total + m.bias, 0) / models.length };
}

/**
 * The date written to a model header: `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) when set,
 * else today. With it set, a retrain is byte-identical.
 */
export function trainingDate(): string {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return (Number.isFinite(epoch) && process.env.SOURCE_DATE_EPOCH ? new Date(epoch * 1000) : new Date()).toISOString().slice(0, 10);
}

/** Trains every label and answers a model ready to score or to write. */
export function trainHashedModel(examples: readonly PreparedExample[], labels: string[], trainedOn: string, options: Partial<HashedTrainOptions> = {}): HashedModel {
  const settings = { ...DEFAULT_HASHED_OPTIONS, ...options };
  const seeds = [settings.seed, ...settings.extraSeeds];
  const trained = labels.map((_, i) => averaged(seeds.map((seed) => trainLabel(examples, i, { ...settings, seed }))));
  const header: HashedModelHeader = {
    labels,
    bits: settings.bits,
    window: settings.window,
    ...(settings.cues ? { cues: settings.cues } : {}),
    ...(settings.windowPenalty ? { windowPenalty: settings.windowPenalty } : {}),
    ...(settings.featureFloor ? { featureFloor: settings.featureFloor } : {}),
    biases: trained.map((t) => Math.round(t.bias * 1e6) / 1e6),
    trainedOn,
    created: trainingDate(),
    seed: settings.seed,
  };
  if (!settings.window) delete header.window;
  return { header, weights: trained.map((t) => t.weights) };
}

/** Probabilities of each label for a prepared example: the highest over its windows, as the plugin scores. */
export function predictPrepared(model: HashedModel, example: PreparedExample): number[] {
  return model.weights.map((weights, i) => {
    let best = 0;
    for (const window of example.windows) best = Math.max(best, sigmoid(bucketMargin(weights, model.header.biases[i] ?? 0, window, model.header.featureFloor ?? 0)));
    return best;
  });
}

/** Writes `<base>.json` (header) and `<base>.bin` (little-endian Float32 weights, one block per label). */
export function writeHashedModel(base: string, model: HashedModel): void {
  mkdirSync(dirname(base), { recursive: true });
  const size = 1 << model.header.bits;
  const all = new Float32Array(size * model.weights.length);
  model.weights.forEach((weights, i) => all.set(weights, i * size));
  writeFileSync(`${base}.bin`, new Uint8Array(all.buffer));
  writeFileSync(`${base}.json`, `${JSON.stringify(model.header, null, 2)}\n`);
}
