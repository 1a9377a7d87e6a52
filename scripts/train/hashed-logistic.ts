// Binary logistic regression over hashed features (AdaGrad, class-balanced, seeded), and int16 quantisation of its weights.
import { seededRandom, shuffle } from './linear-trainer.js';

/** One training text, already turned into hashed features by the caller. */
export interface HashedExample {
  buckets: number[];
  label: boolean;
  /** Weight in the loss; default 1. */
  weight?: number;
}

/** Settings of {@link trainHashedLogistic}. */
export interface HashedTrainOptions {
  buckets: number;
  epochs: number;
  learningRate: number;
  /** L2 penalty per step on the weights touched. */
  l2: number;
  seed: number;
}

/**
 * Trains on examples whose features are bucket ids (a bucket may repeat: it counts that many times). Features are
 * scaled by 1/sqrt(count), as at prediction. The two classes carry equal total weight.
 */
export function trainHashedLogistic(examples: HashedExample[], options: HashedTrainOptions): { bias: number; weights: Float32Array } {
  const weights = new Float32Array(options.buckets);
  const squares = new Float32Array(options.buckets).fill(1e-6);
  let bias = 0;
  let biasSquare = 1e-6;
  const positiveWeight = examples.reduce((sum, e) => sum + (e.label ? (e.weight ?? 1) : 0), 0);
  const negativeWeight = examples.reduce((sum, e) => sum + (e.label ? 0 : (e.weight ?? 1)), 0);
  const total = positiveWeight + negativeWeight;
  const classWeight = { pos: total / (2 * Math.max(1e-9, positiveWeight)), neg: total / (2 * Math.max(1e-9, negativeWeight)) };
  const random = seededRandom(options.seed);
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const example = examples[i] as HashedExample;
      const scale = example.buckets.length > 0 ? 1 / Math.sqrt(example.buckets.length) : 0;
      let sum = bias;
      for (const bucket of example.buckets) sum += (weights[bucket] as number) * scale;
      const error = 1 / (1 + Math.exp(-sum)) - (example.label ? 1 : 0);
      const gradient = error * (example.weight ?? 1) * (example.label ? classWeight.pos : classWeight.neg);
      for (const bucket of example.buckets) {
        const g = gradient * scale + options.l2 * (weights[bucket] as number);
        squares[bucket] = (squares[bucket] as number) + g * g;
        weights[bucket] = (weights[bucket] as number) - (options.learningRate * g) / Math.sqrt(squares[bucket] as number);
      }
      biasSquare += gradient * gradient;
      bias -= (options.learningRate * gradient) / Math.sqrt(biasSquare);
    }
  }
  return { bias, weights };
}

/** Int16 little-endian bytes of float weights with one scale (the largest weight maps to 32767). */
export function quantiseWeights(weights: Float32Array): { scale: number; bytes: Buffer } {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  const bytes = Buffer.alloc(weights.length * 2);
  weights.forEach((w, i) => bytes.writeInt16LE(Math.round(w / scale), i * 2));
  return { scale, bytes };
}
