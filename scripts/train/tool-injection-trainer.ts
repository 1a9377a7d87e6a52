// Trains the toolinjectiondetection model: logistic regression over hashed n-grams of sentence windows, multiple-instance, with every window of a clean text a negative.
import { bucketMargin, sigmoid, type HashedModel, type HashedModelHeader } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { DEFAULT_HASH_BITS } from '../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { seededRandom, shuffle } from './linear-trainer.js';
import type { PreparedExample } from './hashed-trainer.js';

/** Training settings. */
export interface ToolTrainOptions {
  bits: number;
  epochs: number;
  learningRate: number;
  /** L2 penalty per update. */
  l2: number;
  seed: number;
  /**
   * Total loss weight of the negative windows relative to the positive examples. The plugin flags a text when any
   * one of its windows scores high, so every window of a clean text must score low: each clean window is its own
   * negative, and together they outweigh the attacks this many times.
   */
  negativeMass: number;
}

export const DEFAULT_TOOL_TRAIN_OPTIONS: ToolTrainOptions = { bits: DEFAULT_HASH_BITS, epochs: 6, learningRate: 0.2, l2: 1e-6, seed: 7, negativeMass: 1 };

/**
 * Trains one output with AdaGrad. A positive example trains on its highest-scoring window after the first epoch
 * (multiple-instance: the planted instruction sits in one window); a negative example trains on all its windows.
 */
export function trainToolModel(examples: readonly PreparedExample[], trainedOn: string, options: Partial<ToolTrainOptions> = {}): HashedModel {
  const settings = { ...DEFAULT_TOOL_TRAIN_OPTIONS, ...options };
  const size = 1 << settings.bits;
  const weights = new Float64Array(size);
  const squares = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasSquare = 1e-8;
  let positiveMass = 0;
  let negativeMass = 0;
  for (const example of examples) {
    if (example.labels[0] === true) positiveMass += example.weight;
    else negativeMass += example.weight * example.windows.length;
  }
  const negativeScale = (settings.negativeMass * positiveMass) / Math.max(1e-9, negativeMass);
  const margin = (buckets: Uint32Array): number => {
    let sum = 0;
    for (const bucket of buckets) sum += weights[bucket] as number;
    return buckets.length === 0 ? bias : bias + sum / Math.sqrt(buckets.length);
  };
  const update = (buckets: Uint32Array, target: number, importance: number): void => {
    if (buckets.length === 0) return;
    const scale = 1 / Math.sqrt(buckets.length);
    const gradient = (sigmoid(margin(buckets)) - target) * importance;
    for (const bucket of buckets) {
      const g = gradient * scale + settings.l2 * (weights[bucket] as number);
      squares[bucket] = (squares[bucket] as number) + g * g;
      weights[bucket] = (weights[bucket] as number) - (settings.learningRate * g) / Math.sqrt(squares[bucket] as number);
    }
    biasSquare += gradient * gradient;
    bias -= (settings.learningRate * gradient) / Math.sqrt(biasSquare);
  };
  const random = seededRandom(settings.seed);
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < settings.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const example = examples[i] as PreparedExample;
      if (example.labels[0] !== true) {
        for (const window of example.windows) update(window, 0, example.weight * negativeScale);
      } else if (epoch > 0 && example.windows.length > 1) {
        let best = example.windows[0] as Uint32Array;
        let bestMargin = -Infinity;
        for (const window of example.windows) {
          const m = margin(window);
          if (m > bestMargin) [best, bestMargin] = [window, m];
        }
        update(best, 1, example.weight);
      } else {
        for (const window of example.windows) update(window, 1, example.weight / example.windows.length);
      }
    }
  }
  const header: HashedModelHeader = { labels: ['prompt_injection'], bits: settings.bits, biases: [Math.round(bias * 1e6) / 1e6], trainedOn, created: new Date().toISOString().slice(0, 10), seed: settings.seed };
  return { header, weights: [Float32Array.from(weights)] };
}

/** The model's probability for a prepared example: the highest over its windows, as the plugin scores. */
export function predictTool(model: HashedModel, example: PreparedExample): number {
  let best = 0;
  for (const window of example.windows) best = Math.max(best, sigmoid(bucketMargin(model.weights[0] as Float32Array, model.header.biases[0] ?? 0, window)));
  return best;
}
