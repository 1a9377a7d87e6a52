// A word-vector view for promptinjectiondetection (exploration): per 512-character window, GloVe inputs (SIF mean, optionally max-pooled) through a small tanh layer, trained multiple-instance as the linear model is.
import { modelText, textWindows } from '../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import { negativeWindowScale, spread, type MultiLabelExample } from './hashed-trainer.js';
import { seededRandom, shuffle } from './linear-trainer.js';
import { sharedWordTable } from './shared-word-table.js';

/** How a window becomes the network's input: `mean` (SIF-weighted mean vector) or `mean+max` (that and the element-wise max over its words). */
export type VectorShape = 'mean' | 'mean+max';

/** Settings of the vector network. */
export interface WindowVectorOptions {
  shape: VectorShape;
  hidden: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** SIF's a. */
  sif: number;
  /** Training windows per text, spread evenly (as the linear model's `maxWindows`). */
  maxWindows: number;
}

/** Defaults: trustsafety's vector settings, 8 training windows per text as the linear model. */
export const WINDOW_VECTOR_OPTIONS: WindowVectorOptions = { shape: 'mean', hidden: 16, epochs: 10, learningRate: 0.05, l2: 1e-5, seed: 11, sif: 0.001, maxWindows: 8 };

/** A text as the network reads it: one input per window (all windows, in order). */
export interface VectorPrepared {
  inputs: Float32Array[];
  labels: boolean[];
  weight: number;
}

/** A trained network for one label: margin = c + Σ v_k tanh(b_k + W_k · x). */
export interface VectorNet {
  inputSize: number;
  hidden: number;
  W: Float32Array;
  b: Float32Array;
  v: Float32Array;
  c: number;
}

/** SIF weight of the word of frequency rank `rank` (as scripts/train/trust-safety-vectors.ts). */
export function sifWeight(rank: number, a: number): number {
  const p = 1 / ((Math.min(rank, 20_000) + 10) * 13.5);
  return a / (a + p);
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The input of one normalised window. */
export function windowInput(window: string, shape: VectorShape, a: number): Float32Array {
  const { rows, raw } = sharedWordTable();
  const D = 100;
  const x = new Float32Array(shape === 'mean' ? D : 2 * D);
  let total = 0;
  let any = false;
  if (shape !== 'mean') x.fill(-Infinity, D);
  for (const match of window.matchAll(WORD)) {
    const rank = rows.get(match[0]);
    if (rank === undefined) continue;
    const weight = sifWeight(rank, a);
    const at = rank * D;
    for (let d = 0; d < D; d += 1) x[d] = (x[d] as number) + (raw[at + d] as number) * weight;
    if (shape !== 'mean') for (let d = 0; d < D; d += 1) x[D + d] = Math.max(x[D + d] as number, raw[at + d] as number);
    total += weight;
    any = true;
  }
  for (let d = 0; d < D; d += 1) x[d] = total > 0 ? (x[d] as number) / total / 127 : 0;
  if (shape !== 'mean') for (let d = D; d < 2 * D; d += 1) x[d] = any ? (x[d] as number) / 127 : 0;
  return x;
}

/** Every window's input of each example (windows as the plugin cuts them). */
export function prepareVectorExamples(examples: readonly MultiLabelExample[], shape: VectorShape, a = WINDOW_VECTOR_OPTIONS.sif): VectorPrepared[] {
  return examples.map((e) => ({ inputs: textWindows(modelText(e.text)).map((w) => windowInput(w, shape, a)), labels: e.labels, weight: e.weight ?? 1 }));
}

/** The network's margin for one input; `h` receives the hidden activations when given. */
export function netMargin(net: VectorNet, x: Float32Array, h?: Float32Array): number {
  const { inputSize: D, hidden: H, W, b, v } = net;
  let z = net.c;
  for (let k = 0; k < H; k += 1) {
    let s = b[k] as number;
    const at = k * D;
    for (let d = 0; d < D; d += 1) s += (W[at + d] as number) * (x[d] as number);
    const t = Math.tanh(s);
    if (h) h[k] = t;
    z += (v[k] as number) * t;
  }
  return z;
}

/** A network of `hidden` tanh units over `inputSize` inputs, its weights drawn from `random`. */
export function newVectorNet(inputSize: number, hidden: number, random: () => number): VectorNet {
  const W = new Float32Array(hidden * inputSize).map(() => (random() - 0.5) * 0.2);
  return { inputSize, hidden, W, b: new Float32Array(hidden), v: new Float32Array(hidden).map(() => (random() - 0.5) * 0.2), c: 0 };
}

/**
 * One AdaGrad step on the hidden layer and output weights of `net` (not its output bias) for the margin's gradient `g`,
 * given the input `x` and the hidden activations `h` that {@link netMargin} left; the squared gradients are kept inside.
 */
export function adaGradStep(net: VectorNet, rate: number, l2: number): (x: Float32Array, h: Float32Array, g: number) => void {
  const { inputSize: D, hidden: H } = net;
  const gW = new Float32Array(H * D).fill(1e-6);
  const gb = new Float32Array(H).fill(1e-6);
  const gv = new Float32Array(H).fill(1e-6);
  return (x, h, g) => {
    for (let k = 0; k < H; k += 1) {
      const t = h[k] as number;
      const gvk = g * t;
      const gh = g * (net.v[k] as number) * (1 - t * t);
      gv[k] = (gv[k] as number) + gvk * gvk;
      net.v[k] = (net.v[k] as number) - (rate * gvk) / Math.sqrt(gv[k] as number);
      gb[k] = (gb[k] as number) + gh * gh;
      net.b[k] = (net.b[k] as number) - (rate * gh) / Math.sqrt(gb[k] as number);
      const at = k * D;
      for (let d = 0; d < D; d += 1) {
        const gw = gh * (x[d] as number) + l2 * (net.W[at + d] as number);
        gW[at + d] = (gW[at + d] as number) + gw * gw;
        net.W[at + d] = (net.W[at + d] as number) - (rate * gw) / Math.sqrt(gW[at + d] as number);
      }
    }
  };
}

/**
 * Trains the network for label `label` with the linear model's rules (hashed-trainer.ts, `balance: windows`,
 * `positiveWindows: max`): every window of a negative text is a negative at the text's weight, all of them together
 * weighing as much as the positive texts; a positive text trains on the mean of its windows' losses in the first
 * epoch, then on its highest-scoring window only. AdaGrad, seeded.
 */
export function trainVectorNet(examples: readonly VectorPrepared[], label: number, options: Partial<WindowVectorOptions> = {}): VectorNet {
  const o = { ...WINDOW_VECTOR_OPTIONS, ...options };
  const first = examples[0]?.inputs[0];
  const D = first?.length ?? 100;
  const H = o.hidden;
  const random = seededRandom(o.seed);
  const net = newVectorNet(D, H, random);
  const step = adaGradStep(net, o.learningRate, o.l2);
  let gc = 1e-6;
  const training = examples.map((e) => ({ inputs: spread(e.inputs, o.maxWindows), positive: e.labels[label] === true, weight: e.weight }));
  const negScale = negativeWindowScale(training, (e) => e.inputs.length);
  const h = new Float32Array(H);
  const rate = o.learningRate;
  const update = (x: Float32Array, target: number, importance: number): void => {
    const g = (1 / (1 + Math.exp(-netMargin(net, x, h))) - target) * importance;
    gc += g * g;
    net.c -= (rate * g) / Math.sqrt(gc);
    step(x, h, g);
  };
  const order = training.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = training[i] as (typeof training)[number];
      if (e.positive && epoch > 0 && e.inputs.length > 1) {
        let best = e.inputs[0] as Float32Array;
        let bestMargin = -Infinity;
        for (const x of e.inputs) {
          const m = netMargin(net, x);
          if (m > bestMargin) [best, bestMargin] = [x, m];
        }
        update(best, 1, e.weight);
      } else if (e.positive) {
        for (const x of e.inputs) update(x, 1, e.weight / e.inputs.length);
      } else {
        for (const x of e.inputs) update(x, 0, e.weight * negScale);
      }
    }
  }
  return net;
}
