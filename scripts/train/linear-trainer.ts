// Trains the n-gram logistic-regression models that guardrail plugins ship, and gives out-of-fold predictions for honest evaluation.
import { extractFeatures, margin, sigmoid, type LinearModelFile } from '../../plugins/guardrails/trust-safety/text-classifier.js';

/** One labelled training text. */
export interface TrainingExample {
  text: string;
  label: boolean;
  /** Weight of the example in the loss (hand-written examples may count more or less than data rows). */
  weight?: number;
}

/** Training settings. */
export interface TrainOptions {
  /** L2 penalty per example and step. */
  l2: number;
  epochs: number;
  /** Features seen in fewer training texts are dropped. */
  minCount: number;
  learningRate: number;
  /** Seed of the example order. */
  seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { l2: 1e-4, epochs: 30, minCount: 2, learningRate: 0.5, seed: 7 };

/** A seeded pseudo-random generator (mulberry32), so training is repeatable. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Shuffles in place with the given generator. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/**
 * Trains logistic regression with AdaGrad on binary n-gram features (see `extractFeatures`), balancing the two
 * classes, and answers the model in the shipped file format. Weights under 1e-3 are dropped and the rest rounded.
 */
export function trainLinearModel(examples: TrainingExample[], label: string, trainedOn: string, options: Partial<TrainOptions> = {}): LinearModelFile {
  const settings = { ...DEFAULT_TRAIN_OPTIONS, ...options };
  const featureSets = examples.map((example) => extractFeatures(example.text));
  const counts = new Map<string, number>();
  for (const list of featureSets) for (const feature of new Set(list)) counts.set(feature, (counts.get(feature) ?? 0) + 1);
  const index = new Map<string, number>();
  for (const [feature, count] of counts) if (count >= settings.minCount) index.set(feature, index.size);
  const rows = featureSets.map((list) => {
    const ids = list.map((feature) => index.get(feature)).filter((id): id is number => id !== undefined);
    return { ids, scale: list.length > 0 ? 1 / Math.sqrt(list.length) : 0 };
  });
  const positives = examples.filter((example) => example.label).length;
  const classWeight = { pos: examples.length / (2 * Math.max(1, positives)), neg: examples.length / (2 * Math.max(1, examples.length - positives)) };
  const weights = new Float64Array(index.size);
  const squares = new Float64Array(index.size).fill(1e-8);
  let bias = 0;
  let biasSquare = 1e-8;
  const random = seededRandom(settings.seed);
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < settings.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const example = examples[i] as TrainingExample;
      const row = rows[i] as { ids: number[]; scale: number };
      let sum = bias;
      for (const id of row.ids) sum += (weights[id] as number) * row.scale;
      const error = sigmoid(sum) - (example.label ? 1 : 0);
      const importance = (example.weight ?? 1) * (example.label ? classWeight.pos : classWeight.neg);
      const gradient = error * importance;
      // An id that repeats (an n-gram of two words) gets its gradient once per occurrence, as its count implies.
      for (const id of row.ids) {
        const g = gradient * row.scale + settings.l2 * (weights[id] as number);
        squares[id] = (squares[id] as number) + g * g;
        weights[id] = (weights[id] as number) - (settings.learningRate * g) / Math.sqrt(squares[id] as number);
      }
      biasSquare += gradient * gradient;
      bias -= (settings.learningRate * gradient) / Math.sqrt(biasSquare);
    }
  }
  const kept: Record<string, number> = {};
  for (const [feature, id] of index) {
    const weight = weights[id] as number;
    if (Math.abs(weight) >= 1e-3) kept[feature] = Math.round(weight * 10_000) / 10_000;
  }
  return { label, trainedOn, bias: Math.round(bias * 10_000) / 10_000, weights: kept };
}

/** Probability of the positive label for `text` under a model file (without building a classifier). */
export function predictWith(model: LinearModelFile, weights: ReadonlyMap<string, number>, text: string): number {
  return sigmoid(margin(extractFeatures(text), model.bias, weights));
}

/**
 * Out-of-fold probabilities: `rows` are split into `folds` seeded folds; each fold is predicted by a model
 * trained on the other folds plus `extra` (hand-written examples, never scored). The answer is aligned with `rows`.
 */
export function crossValidatedProbabilities(rows: TrainingExample[], extra: TrainingExample[], folds: number, label: string, options: Partial<TrainOptions> = {}): number[] {
  const random = seededRandom(options.seed ?? DEFAULT_TRAIN_OPTIONS.seed);
  const foldOf = shuffle(rows.map((_, i) => i % folds), random);
  const probabilities = new Array<number>(rows.length).fill(0);
  for (let fold = 0; fold < folds; fold += 1) {
    const training = [...rows.filter((_, i) => foldOf[i] !== fold), ...extra];
    const model = trainLinearModel(training, label, `fold ${fold}`, options);
    const weights = new Map(Object.entries(model.weights));
    rows.forEach((row, i) => {
      if (foldOf[i] === fold) probabilities[i] = predictWith(model, weights, row.text);
    });
  }
  return probabilities;
}
