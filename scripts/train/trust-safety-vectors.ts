// Trains the word-vector part of trustsafety's model (a small tanh network over the SIF-weighted mean GloVe vector) and folds its first layer into a per-word table.
import { modelTokens, normaliseForModel, TRAIN_TOKENS } from '../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { wordKey, type VectorModelData } from '../../plugins/guardrails/trust-safety/vector-model.js';
import { seededRandom, shuffle } from './linear-trainer.js';
import type { WordVectors } from '../../plugins/guardrails/shared/word-vectors.js';
import { sharedWordTable } from './shared-word-table.js';

/** Settings of the vector part. */
export interface VectorTrainOptions {
  hidden: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** The network's margin counts this much in the model's (vector-model.ts). */
  mix: number;
  /** The linear model's margin counts this much. */
  linearScale: number;
  /** SIF's a: a word's weight is a / (a + p(w)), p(w) its Zipf frequency from GloVe's rank. */
  sif: number;
}

/** The shipped settings (and every leave-one-source-out fold's). */
export const VECTOR_TRAIN_OPTIONS: VectorTrainOptions = { hidden: 16, epochs: 10, learningRate: 0.05, l2: 1e-5, seed: 11, mix: 0.3, linearScale: 0.9, sif: 0.001 };

/** One training row: its text, label and balancing weight (as the linear model weighs it). */
export interface VectorExample {
  text: string;
  label: boolean;
  weight: number;
}

/**
 * SIF weight of the word in row `rank` of the shared table: its first 20,000 rows are GloVe's most frequent words in
 * order, so p(w) ≈ 1 / ((rank + 10) · 13.5) (Zipf over GloVe's 400,000 words); later rows count as rank 20,000.
 */
function sifWeight(rank: number, a: number): number {
  const p = 1 / ((Math.min(rank, 20_000) + 10) * 13.5);
  return a / (a + p);
}

/** The mean input of a text: Σ a(w)·v(w) / Σ a(w) over its first TRAIN_TOKENS words with a vector. */
function meanVector(text: string, rankOf: Map<string, number>, vectors: WordVectors, a: number): Float32Array {
  const x = new Float32Array(vectors.dimensions);
  let total = 0;
  for (const token of modelTokens(normaliseForModel(text)).slice(0, TRAIN_TOKENS)) {
    const rank = rankOf.get(token);
    if (rank === undefined) continue;
    const weight = sifWeight(rank, a);
    vectors.addTo(token, x, weight);
    total += weight;
  }
  if (total > 0) for (let d = 0; d < x.length; d += 1) x[d] = (x[d] as number) / total;
  return x;
}

/**
 * Trains the network (AdaGrad, classes of equal total weight, seeded) and answers it with its first layer folded into
 * the per-word table of vector-model.ts (int16, one scale). Deterministic: the same rows give the same bytes.
 */
export function trainVectorModel(examples: VectorExample[], options = VECTOR_TRAIN_OPTIONS, trainedOn = ''): VectorModelData {
  const { vectors, words } = sharedWordTable();
  const rankOf = new Map(words.map((word, rank) => [word, rank]));
  const D = vectors.dimensions;
  const H = options.hidden;
  const rows = examples.map((e) => ({ x: meanVector(e.text, rankOf, vectors, options.sif), y: e.label ? 1 : 0, w: e.weight }));
  const random = seededRandom(options.seed);
  const W = new Float32Array(H * D).map(() => (random() - 0.5) * 0.2);
  const gW = new Float32Array(H * D).fill(1e-6);
  const b = new Float32Array(H);
  const gb = new Float32Array(H).fill(1e-6);
  const v = new Float32Array(H).map(() => (random() - 0.5) * 0.2);
  const gv = new Float32Array(H).fill(1e-6);
  let c = 0;
  let gc = 1e-6;
  const rate = options.learningRate;
  const h = new Float32Array(H);
  const forward = (x: Float32Array): number => {
    let z = c;
    for (let k = 0; k < H; k += 1) {
      let s = b[k] as number;
      for (let d = 0; d < D; d += 1) s += (W[k * D + d] as number) * (x[d] as number);
      h[k] = Math.tanh(s);
      z += (v[k] as number) * (h[k] as number);
    }
    return z;
  };
  const pos = rows.reduce((s, e) => s + e.y * e.w, 0);
  const neg = rows.reduce((s, e) => s + (1 - e.y) * e.w, 0);
  const classWeight = [(pos + neg) / (2 * Math.max(1e-9, neg)), (pos + neg) / (2 * Math.max(1e-9, pos))];
  const order = rows.map((_, i) => i);
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = rows[i] as (typeof rows)[number];
      const g = (1 / (1 + Math.exp(-forward(e.x))) - e.y) * e.w * (classWeight[e.y] as number);
      gc += g * g;
      c -= (rate * g) / Math.sqrt(gc);
      for (let k = 0; k < H; k += 1) {
        const activation = h[k] as number;
        const gvk = g * activation;
        const gh = g * (v[k] as number) * (1 - activation * activation);
        gv[k] = (gv[k] as number) + gvk * gvk;
        v[k] = (v[k] as number) - (rate * gvk) / Math.sqrt(gv[k] as number);
        gb[k] = (gb[k] as number) + gh * gh;
        b[k] = (b[k] as number) - (rate * gh) / Math.sqrt(gb[k] as number);
        for (let d = 0; d < D; d += 1) {
          const at = k * D + d;
          const gw = gh * (e.x[d] as number) + options.l2 * (W[at] as number);
          gW[at] = (gW[at] as number) + gw * gw;
          W[at] = (W[at] as number) - (rate * gw) / Math.sqrt(gW[at] as number);
        }
      }
    }
  }
  // Fold the first layer into the table: each word's a(w)·W·v(w). Words whose key another word already has are left out.
  const keys: number[] = [];
  const weights: number[] = [];
  const projected: number[] = [];
  const seen = new Set<number>();
  const unit = new Float32Array(D);
  words.forEach((word, rank) => {
    const key = wordKey(word);
    if (seen.has(key)) return;
    seen.add(key);
    const a = sifWeight(rank, options.sif);
    unit.fill(0);
    vectors.addTo(word, unit, a);
    keys.push(key);
    weights.push(a);
    for (let k = 0; k < H; k += 1) {
      let s = 0;
      for (let d = 0; d < D; d += 1) s += (W[k * D + d] as number) * (unit[d] as number);
      projected.push(s);
    }
  });
  let max = 0;
  for (const p of projected) max = Math.max(max, Math.abs(p));
  const projectionScale = max / 32767 || 1;
  const round = (x: number): number => Math.round(x * 1e6) / 1e6;
  return {
    meta: { hidden: H, mix: options.mix, linearScale: options.linearScale, outputBias: round(c), output: [...v].map(round), hiddenBias: [...b].map(round), words: keys.length, projectionScale, trainedOn },
    keys: Int32Array.from(keys),
    weights: Float32Array.from(weights),
    projections: Int16Array.from(projected, (p) => Math.round(p / projectionScale)),
  };
}
