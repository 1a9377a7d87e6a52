// Exploration, not part of eval:guardrails: pretrained word vectors (GloVe 100d) for trustsafety's model, as dense features beside the hashed ones or as a second model mixed in log-odds.
// Run: [KAPPA=1] [SIF=0.001] [MLP_H=0] [MIX=0.5] [EPOCHS_V=10] npx tsx scripts/eval/variants/trust-safety-vectors.ts VARIANT
import { auc } from '../ranking-auc.js';
import { corpus, corpusCached, devCached, figures, own, repositories, type CachedRow } from './trust-safety-harness.js';
import { GROUP_MODEL_FLOOR, MODEL_FLOOR, MODEL_WEIGHT } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { unsafeFeatureBuckets, wordFeatureSums } from '../../../plugins/guardrails/trust-safety/unsafe-features.js';
import { LONG_TEXT_WINDOW, modelTokens, normaliseForModel, TRAIN_TOKENS, WINDOW_TOKENS } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { WINDOW_DISCOUNT, WINDOW_DISCOUNT_CAP } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { loadWordVectors } from '../../../plugins/guardrails/shared/word-vectors.js';
import { seededRandom, shuffle } from '../../train/linear-trainer.js';
import { repositoryOf, sourceBalance, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const VARIANT = process.argv[2] ?? 'joint';
const KAPPA = Number(process.env.KAPPA ?? 1);
const SIF = Number(process.env.SIF ?? 0.001);
const MLP_H = Number(process.env.MLP_H ?? 16);
const MIX = Number(process.env.MIX ?? 0.5);
const EPOCHS_V = Number(process.env.EPOCHS_V ?? 10);
const UNIT = process.env.UNIT === '1';
const MLP_SEED = Number(process.env.MLP_SEED ?? 11);
const DENSE_LR = Number(process.env.DENSE_LR ?? TRUST_SAFETY_TRAIN_OPTIONS.learningRate);

const vectors = await loadWordVectors();
const D = vectors.dimensions;
const header = (await import('../../../plugins/guardrails/shared/word-vectors.json', { with: { type: 'json' } })).default as { words: string[] };
const rankOf = new Map(header.words.map((w, i) => [w, i]));
/** A token's vector times its SIF weight a / (a + p(w)), p from the GloVe rank (Zipf); null when it has none. */
const tokenCache = new Map<string, Float32Array | null>();
function tokenVector(token: string): Float32Array | null {
  let v = tokenCache.get(token);
  if (v !== undefined) return v;
  const rank = rankOf.get(token);
  if (rank === undefined) v = null;
  else {
    v = new Float32Array(D + 1);
    vectors.addTo(token, v);
    const p = 1 / ((Math.min(rank, 20_000) + 10) * 13.5);
    const a = SIF > 0 ? SIF / (SIF + p) : 1;
    for (let d = 0; d < D; d += 1) v[d] = (v[d] as number) * a;
    v[D] = a;
  }
  tokenCache.set(token, v);
  return v;
}
/** The weighted mean vector of tokens [start, end). */
function dense(tokens: readonly string[], start = 0, end = tokens.length): Float32Array {
  const x = new Float32Array(D);
  let total = 0;
  for (let t = start; t < end; t += 1) {
    const v = tokenVector(tokens[t] as string);
    if (!v) continue;
    for (let d = 0; d < D; d += 1) x[d] = (x[d] as number) + (v[d] as number);
    total += v[D] as number;
  }
  if (total > 0) {
    let norm = 0;
    for (let d = 0; d < D; d += 1) norm += (x[d] as number) ** 2;
    const by = UNIT ? Math.sqrt(norm) || 1 : total;
    for (let d = 0; d < D; d += 1) x[d] = (x[d] as number) / by;
  }
  return x;
}

interface Example { ids: Int32Array; x: Float32Array; y: number; w: number }
const scratch = { ids: new Int32Array(4096) };
const exampleCache = new Map<TrustSafetyRow, Example>();
function exampleOf(row: TrustSafetyRow, weight: number): Example {
  let e = exampleCache.get(row);
  if (!e) {
    const tokens = modelTokens(normaliseForModel(row.text)).slice(0, TRAIN_TOKENS);
    const n = unsafeFeatureBuckets(tokens, TRUST_SAFETY_TRAIN_OPTIONS.buckets, scratch);
    e = { ids: scratch.ids.slice(0, n), x: dense(tokens), y: row.labels.unsafe ? 1 : 0, w: 1 };
    exampleCache.set(row, e);
  }
  return { ...e, w: weight };
}

/** A trained model: hashed weights, bias, dense weights u (times KAPPA), and an optional dense second model. */
interface Model { bias: number; weights: Float32Array; u: Float32Array; kappa: number; second?: (x: Float32Array) => number; secondTokens?: (tokens: readonly string[], start: number, end: number) => number; mix: number }

/** The shipped AdaGrad logistic regression with `kappa` × the dense features beside the hashed ones (kappa 0: the shipped model). */
function trainJoint(rows: TrustSafetyRow[], kappa: number): Model {
  const o = TRUST_SAFETY_TRAIN_OPTIONS;
  const balance = sourceBalance(rows);
  const examples = rows.map((row) => exampleOf(row, balance(row)));
  const weights = new Float32Array(o.buckets);
  const squares = new Float32Array(o.buckets).fill(1e-6);
  const u = new Float32Array(D);
  const uSquares = new Float32Array(D).fill(1e-6);
  let bias = 0;
  let biasSquare = 1e-6;
  const pos = examples.reduce((s, e) => s + e.y * e.w, 0);
  const neg = examples.reduce((s, e) => s + (1 - e.y) * e.w, 0);
  const cw = [(pos + neg) / (2 * neg), (pos + neg) / (2 * pos)];
  const random = seededRandom(o.seed);
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = examples[i] as Example;
      const scale = e.ids.length > 0 ? 1 / Math.sqrt(e.ids.length) : 0;
      let sum = bias;
      for (const b of e.ids) sum += (weights[b] as number) * scale;
      if (kappa > 0) for (let d = 0; d < D; d += 1) sum += (u[d] as number) * (e.x[d] as number) * kappa;
      const g = (1 / (1 + Math.exp(-sum)) - e.y) * e.w * (cw[e.y] as number);
      for (const b of e.ids) {
        const gb = g * scale + o.l2 * (weights[b] as number);
        squares[b] = (squares[b] as number) + gb * gb;
        weights[b] = (weights[b] as number) - (o.learningRate * gb) / Math.sqrt(squares[b] as number);
      }
      if (kappa > 0) {
        for (let d = 0; d < D; d += 1) {
          const gd = g * (e.x[d] as number) * kappa + o.l2 * (u[d] as number);
          uSquares[d] = (uSquares[d] as number) + gd * gd;
          u[d] = (u[d] as number) - (DENSE_LR * gd) / Math.sqrt(uSquares[d] as number);
        }
      }
      biasSquare += g * g;
      bias -= (o.learningRate * g) / Math.sqrt(biasSquare);
    }
  }
  return { bias, weights, u, kappa, mix: 0 };
}

/** A small tanh network on the dense features alone (AdaGrad, seeded, the same balancing); answers its margin function. */
function trainMlp(rows: TrustSafetyRow[], hidden: number): (x: Float32Array) => number {
  const balance = sourceBalance(rows);
  const examples = rows.map((row) => exampleOf(row, balance(row)));
  const random = seededRandom(MLP_SEED);
  const H = Math.max(1, hidden);
  const W = new Float32Array(H * D).map(() => (random() - 0.5) * 0.2);
  const gW = new Float32Array(H * D).fill(1e-6);
  const b = new Float32Array(H);
  const gb = new Float32Array(H).fill(1e-6);
  const v = new Float32Array(H).map(() => (random() - 0.5) * 0.2);
  const gv = new Float32Array(H).fill(1e-6);
  let c = 0;
  let gc = 1e-6;
  const rate = 0.05;
  const h = new Float32Array(H);
  const forward = (x: Float32Array): number => {
    let z = c;
    for (let k = 0; k < H; k += 1) {
      let s = b[k] as number;
      for (let d = 0; d < D; d += 1) s += (W[k * D + d] as number) * (x[d] as number);
      h[k] = hidden > 0 ? Math.tanh(s) : s;
      z += (v[k] as number) * (h[k] as number);
    }
    return z;
  };
  const pos = examples.reduce((s, e) => s + e.y * e.w, 0);
  const neg = examples.reduce((s, e) => s + (1 - e.y) * e.w, 0);
  const cw = [(pos + neg) / (2 * neg), (pos + neg) / (2 * pos)];
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS_V; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = examples[i] as Example;
      const g = (1 / (1 + Math.exp(-forward(e.x))) - e.y) * e.w * (cw[e.y] as number);
      gc += g * g;
      c -= (rate * g) / Math.sqrt(gc);
      for (let k = 0; k < H; k += 1) {
        const a = h[k] as number;
        const gvk = g * a;
        const gh = g * (v[k] as number) * (hidden > 0 ? 1 - a * a : 1);
        gv[k] = (gv[k] as number) + gvk * gvk;
        v[k] = (v[k] as number) - (rate * gvk) / Math.sqrt(gv[k] as number);
        gb[k] = (gb[k] as number) + gh * gh;
        b[k] = (b[k] as number) - (rate * gh) / Math.sqrt(gb[k] as number);
        for (let d = 0; d < D; d += 1) {
          const at = k * D + d;
          const gw = gh * (e.x[d] as number) + 1e-5 * (W[at] as number);
          gW[at] = (gW[at] as number) + gw * gw;
          W[at] = (W[at] as number) - (rate * gw) / Math.sqrt(gW[at] as number);
        }
      }
    }
  }
  return (x) => forward(x);
}

/** A token's unit vector (no SIF weight), or null. */
const rawCache = new Map<string, Float32Array | null>();
function rawVector(token: string): Float32Array | null {
  let v = rawCache.get(token);
  if (v !== undefined) return v;
  if (!rankOf.has(token)) v = null;
  else {
    v = new Float32Array(D);
    vectors.addTo(token, v);
  }
  rawCache.set(token, v);
  return v;
}
/** The distinct unit vectors of tokens [start, end). */
function wordVectorsOf(tokens: readonly string[], start = 0, end = tokens.length): Float32Array[] {
  const seen = new Set<string>();
  const out: Float32Array[] = [];
  for (let t = start; t < end; t += 1) {
    const token = tokens[t] as string;
    if (seen.has(token)) continue;
    seen.add(token);
    const v = rawVector(token);
    if (v) out.push(v);
  }
  return out;
}

/**
 * Tanh units over the SIF mean (W·x) plus, per unit, the max over the window's words of U·v(w): one strong word is
 * not diluted by many harmless ones. Foldable into a per-word table of 2H projections.
 */
function trainMaxMlp(rows: TrustSafetyRow[], hidden: number): (tokens: readonly string[], start: number, end: number) => number {
  const balance = sourceBalance(rows);
  const examples = rows.map((row) => {
    const e = exampleOf(row, balance(row));
    return { ...e, words: wordVectorsOf(modelTokens(normaliseForModel(row.text)).slice(0, TRAIN_TOKENS)) };
  });
  const random = seededRandom(11);
  const H = hidden;
  const W = new Float32Array(H * D).map(() => (random() - 0.5) * 0.2);
  const U = new Float32Array(H * D).map(() => (random() - 0.5) * 0.2);
  const gW = new Float32Array(H * D).fill(1e-6);
  const gU = new Float32Array(H * D).fill(1e-6);
  const b = new Float32Array(H);
  const gb = new Float32Array(H).fill(1e-6);
  const v = new Float32Array(H).map(() => (random() - 0.5) * 0.2);
  const gv = new Float32Array(H).fill(1e-6);
  let c = 0;
  let gc = 1e-6;
  const rate = 0.05;
  const h = new Float32Array(H);
  const arg = new Int32Array(H);
  const forward = (x: Float32Array, words: Float32Array[]): number => {
    let z = c;
    for (let k = 0; k < H; k += 1) {
      let s = b[k] as number;
      for (let d = 0; d < D; d += 1) s += (W[k * D + d] as number) * (x[d] as number);
      let best = words.length > 0 ? -Infinity : 0;
      arg[k] = -1;
      for (let w = 0; w < words.length; w += 1) {
        const vec = words[w] as Float32Array;
        let p = 0;
        for (let d = 0; d < D; d += 1) p += (U[k * D + d] as number) * (vec[d] as number);
        if (p > best) { best = p; arg[k] = w; }
      }
      h[k] = Math.tanh(s + best);
      z += (v[k] as number) * (h[k] as number);
    }
    return z;
  };
  const pos = examples.reduce((s, e) => s + e.y * e.w, 0);
  const neg = examples.reduce((s, e) => s + (1 - e.y) * e.w, 0);
  const cw = [(pos + neg) / (2 * neg), (pos + neg) / (2 * pos)];
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS_V; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const e = examples[i] as (typeof examples)[number];
      const g = (1 / (1 + Math.exp(-forward(e.x, e.words))) - e.y) * e.w * (cw[e.y] as number);
      gc += g * g;
      c -= (rate * g) / Math.sqrt(gc);
      for (let k = 0; k < H; k += 1) {
        const a = h[k] as number;
        const gvk = g * a;
        const gh = g * (v[k] as number) * (1 - a * a);
        gv[k] = (gv[k] as number) + gvk * gvk;
        v[k] = (v[k] as number) - (rate * gvk) / Math.sqrt(gv[k] as number);
        gb[k] = (gb[k] as number) + gh * gh;
        b[k] = (b[k] as number) - (rate * gh) / Math.sqrt(gb[k] as number);
        const word = arg[k] as number;
        const vec = word >= 0 ? (e.words[word] as Float32Array) : undefined;
        for (let d = 0; d < D; d += 1) {
          const at = k * D + d;
          const gw = gh * (e.x[d] as number) + 1e-5 * (W[at] as number);
          gW[at] = (gW[at] as number) + gw * gw;
          W[at] = (W[at] as number) - (rate * gw) / Math.sqrt(gW[at] as number);
          if (vec) {
            const gu = gh * (vec[d] as number) + 1e-5 * (U[at] as number);
            gU[at] = (gU[at] as number) + gu * gu;
            U[at] = (U[at] as number) - (rate * gu) / Math.sqrt(gU[at] as number);
          }
        }
      }
    }
  }
  return (tokens, start, end) => forward(dense(tokens, start, end), wordVectorsOf(tokens, start, end));
}

/** The margins of the linear part and of the second model for each window of tokens as scored (one window up to WINDOW_TOKENS words). */
function windowMargins(model: Model, tokens: readonly string[]): [number, number][] {
  const { own: ownSums, count, pair } = wordFeatureSums(tokens, TRUST_SAFETY_TRAIN_OPTIONS.buckets, model.weights);
  const windowMargin = (start: number, end: number): [number, number] => {
    let sum = 0;
    let n = 0;
    for (let t = start; t < end; t += 1) {
      sum += ownSums[t] as number;
      n += count[t] as number;
      if (t > start) {
        sum += pair[t] as number;
        n += 1;
      }
    }
    let m = model.bias + (n > 0 ? sum / Math.sqrt(n) : 0);
    let second = 0;
    if (model.kappa > 0 || model.second) {
      const x = dense(tokens, start, end);
      if (model.kappa > 0) for (let d = 0; d < D; d += 1) m += (model.u[d] as number) * (x[d] as number) * model.kappa;
      if (model.second) second = model.second(x);
    }
    if (model.secondTokens) second = model.secondTokens(tokens, start, end);
    return [m, second];
  };
  if (tokens.length <= WINDOW_TOKENS) return [windowMargin(0, tokens.length)];
  const step = LONG_TEXT_WINDOW / 2;
  const out: [number, number][] = [];
  for (let start = 0; start < tokens.length - step; start += step) out.push(windowMargin(start, Math.min(tokens.length, start + LONG_TEXT_WINDOW)));
  return out;
}

/** The probability from window margins: lin × (1 − mix) + second × mix, or lin + mix × second with ADD=1; the best window less the discount. */
function combine(windows: [number, number][], mix: number, add: boolean, alpha = add ? 1 : 1 - mix): number {
  let best = -Infinity;
  const longLinear = process.env.LONG_LINEAR === '1' && windows.length > 1;
  for (const [lin, second] of windows) best = Math.max(best, longLinear ? lin : alpha * lin + mix * second);
  const discount = windows.length > 1 ? WINDOW_DISCOUNT * Math.log(Math.min(windows.length, WINDOW_DISCOUNT_CAP)) : 0;
  return 1 / (1 + Math.exp(-(best - discount)));
}

function train(rows: TrustSafetyRow[]): Model {
  if (VARIANT === 'baseline') return trainJoint(rows, 0);
  if (VARIANT === 'joint') return trainJoint(rows, KAPPA);
  if (VARIANT === 'mix') return { ...trainJoint(rows, 0), second: trainMlp(rows, MLP_H), mix: MIX };
  if (VARIANT === 'maxmix') return { ...trainJoint(rows, 0), secondTokens: trainMaxMlp(rows, MLP_H), mix: MIX };
  if (VARIANT === 'alone') return { ...trainJoint(rows, 0), second: trainMlp(rows, MLP_H), mix: 1 };
  throw new Error(`unknown variant ${VARIANT}`);
}

const f3 = (x: number): string => x.toFixed(3);
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const CACHE = `/tmp/ts-vectors-${VARIANT}-k${KAPPA}-s${SIF}-u${UNIT}-h${MLP_H}-e${EPOCHS_V}${MLP_SEED === 11 ? '' : `-seed${MLP_SEED}`}.json`;
const started = performance.now();
let devW: [number, number][][];
let losoW: [number, number][][];
if (existsSync(CACHE)) ({ devW, losoW } = JSON.parse(readFileSync(CACHE, 'utf8')) as { devW: [number, number][][]; losoW: [number, number][][] });
else {
  const full = train([...corpus, ...own]);
  devW = devCached.map((c) => windowMargins(full, c.tokens));
  losoW = new Array<[number, number][]>(corpus.length);
  for (const repository of repositories) {
    const model = train([...corpus.filter((row) => repositoryOf(row) !== repository), ...own]);
    corpusCached.forEach((c: CachedRow, i) => { if (repositoryOf(c.row) === repository) losoW[i] = windowMargins(model, c.tokens); });
  }
  writeFileSync(CACHE, JSON.stringify({ devW, losoW }));
}
const surge = devCached.map((c, i) => (c.row.id.startsWith('surge') ? i : -1)).filter((i) => i >= 0);
const xs = devCached.map((c, i) => (c.row.id.startsWith('xstest') ? i : -1)).filter((i) => i >= 0);
const ADD = process.env.ADD === '1';
for (const alpha of (process.env.ALPHAS ?? '-1').split(',').map(Number)) for (const mix of (process.env.MIXES ?? String(MIX)).split(',').map(Number)) {
  const a = alpha < 0 ? (ADD ? 1 : 1 - mix) : alpha;
  const devP = devW.map((w) => combine(w, mix, ADD, a));
  const losoP = losoW.map((w) => combine(w, mix, ADD, a));
  const surgeAuc = auc(surge.map((i) => devCached[i]!.row.labels.unsafe), surge.map((i) => devP[i]!));
  const losoAuc = auc(corpus.map((r) => r.labels.unsafe), losoP);
  const shippedDev = figures(devCached, devP, MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
  const shippedLoso = figures(corpusCached, losoP, MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
  const xsF = figures(xs.map((i) => devCached[i]!), xs.map((i) => devP[i]!), MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
  console.log(`${VARIANT} kappa ${KAPPA} sif ${SIF} unit ${UNIT} H ${MLP_H} mix ${mix} alpha ${a.toFixed(2)} ep ${EPOCHS_V}: surgeAUC ${f3(surgeAuc)} losoAUC ${f3(losoAuc)} | shipped floors dev ${f3(shippedDev.recall)}/${f3(shippedDev.fpr)} (xstest ${f3(xsF.recall)}/${f3(xsF.fpr)}) LOSO ${f3(shippedLoso.recall)}/${f3(shippedLoso.fpr)} | ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (process.env.GRID === '0') continue;
  const grid: string[] = [];
  const LOSO_MAX = Number(process.env.LOSO_MAX ?? 0.135);
  for (const floor of [0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55]) {
    for (const group of [0.5, 0.6, 0.7]) {
      for (const weight of [0.9, 1.0]) {
        const d = figures(devCached, devP, floor, weight, 0.35, group);
        const x = figures(xs.map((i) => devCached[i]!), xs.map((i) => devP[i]!), floor, weight, 0.35, group);
        const l = figures(corpusCached, losoP, floor, weight, 0.35, group);
        if (d.fpr <= Number(process.env.DEV_MAX ?? 0.05) && x.fpr <= 0.05 && l.fpr <= LOSO_MAX) grid.push(`${floor}/${group}/${weight}: dev ${f3(d.recall)}/${f3(d.fpr)} xs ${f3(x.fpr)} LOSO ${f3(l.recall)}/${f3(l.fpr)}`);
      }
    }
  }
  console.log(`   ${grid.join('\n   ')}`);
}
