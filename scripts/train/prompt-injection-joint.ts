// Exploration: the promptinjectiondetection linear model and a word-vector network trained jointly, one window margin (linear + network) under the same multiple-instance and window-balance rules as hashed-trainer.ts.
import { sigmoid } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { DEFAULT_HASHED_OPTIONS, negativeWindowScale, sparseAdaGradStep, spread, windowMargin, type HashedTrainOptions, type PreparedExample } from './hashed-trainer.js';
import { seededRandom, shuffle } from './linear-trainer.js';
import { adaGradStep, netMargin, newVectorNet, WINDOW_VECTOR_OPTIONS, type VectorNet, type VectorPrepared, type WindowVectorOptions } from './prompt-injection-vectors.js';

/** One label's jointly trained parts: the hashed weights and bias, and the network whose margin adds to theirs. */
export interface JointLabel {
  weights: Float32Array;
  bias: number;
  net: VectorNet;
}


/**
 * Trains label `label` of aligned examples (`prepared[i]` and `vectors[i]` the same text, the same windows): a window's
 * margin is the linear model's plus the network's, and both take each step's gradient. Window-balanced negatives and
 * multiple-instance positives (the best window by the joint margin after the first epoch), as `trainLabel` with
 * `balance: windows`, `positiveWindows: max`.
 */
export function trainJointLabel(prepared: readonly PreparedExample[], vectors: readonly VectorPrepared[], label: number, options: Partial<HashedTrainOptions> = {}, vectorOptions: Partial<WindowVectorOptions> = {}): JointLabel {
  const s = { ...DEFAULT_HASHED_OPTIONS, ...options };
  const o = { ...WINDOW_VECTOR_OPTIONS, ...vectorOptions };
  const size = 1 << s.bits;
  const weights = new Float64Array(size);
  const squares = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasSquare = 1e-8;
  const floor = s.featureFloor ?? 0;
  const D = vectors[0]?.inputs[0]?.length ?? 100;
  const H = o.hidden;
  const netRandom = seededRandom(o.seed);
  const net = newVectorNet(D, H, netRandom);
  const step = adaGradStep(net, o.learningRate, o.l2);
  const h = new Float32Array(H);
  const training = prepared.map((e, i) => {
    const inputs = vectors[i]!.inputs;
    if (inputs.length !== e.windows.length) throw new Error(`example ${i}: ${e.windows.length} windows but ${inputs.length} vector inputs`);
    return { windows: spread(e.windows, s.maxWindows), inputs: spread(inputs, s.maxWindows), positive: e.labels[label] === true, weight: e.weight };
  });
  const negScale = negativeWindowScale(training, (e) => e.windows.length);
  const linear = (buckets: Uint32Array): number => windowMargin(weights, bias, buckets, floor);
  const update = (buckets: Uint32Array, x: Float32Array, target: number, importance: number): void => {
    const gradient = (sigmoid(linear(buckets) + netMargin(net, x, h)) - target) * importance;
    if (buckets.length > 0) {
      const scale = 1 / Math.sqrt(Math.max(buckets.length, floor));
      sparseAdaGradStep(weights, squares, buckets, gradient, scale, s.l2, s.learningRate);
    }
    biasSquare += gradient * gradient;
    bias -= (s.learningRate * gradient) / Math.sqrt(biasSquare);
    step(x, h, gradient);
  };
  const random = seededRandom(s.seed);
  const order = training.map((_, i) => i);
  for (let epoch = 0; epoch < s.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = training[i] as (typeof training)[number];
      if (e.positive && epoch > 0 && e.windows.length > 1) {
        let best = 0;
        let bestMargin = -Infinity;
        e.windows.forEach((w, j) => {
          const m = linear(w) + netMargin(net, e.inputs[j] as Float32Array);
          if (m > bestMargin) [best, bestMargin] = [j, m];
        });
        update(e.windows[best] as Uint32Array, e.inputs[best] as Float32Array, 1, e.weight);
      } else if (e.positive) {
        e.windows.forEach((w, j) => update(w, e.inputs[j] as Float32Array, 1, e.weight / e.windows.length));
      } else {
        e.windows.forEach((w, j) => update(w, e.inputs[j] as Float32Array, 0, e.weight * negScale));
      }
    }
  }
  return { weights: Float32Array.from(weights), bias, net };
}
