// Exploration, not part of eval:guardrails: a small hidden layer (hashed embeddings, tanh) beside trustsafety's logistic regression, mixed with it in log-odds.
// Run: [D=8] [EPOCHS=3] [MIX=0.5] npx tsx scripts/eval/variants/trust-safety-hidden-layer.ts
import { resolve } from 'node:path';
import { auc } from '../ranking-auc.js';
import { baseTrainer, cacheRows, figures } from './trust-safety-harness.js';
import { createUnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { unsafeFeatureBuckets } from '../../../plugins/guardrails/trust-safety/unsafe-features.js';
import { modelTokens, normaliseForModel, TRAIN_TOKENS } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { seededRandom, shuffle } from '../../train/linear-trainer.js';
import { readJsonl, readOwnRows, repositoryOf, TRAIN_DIR, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const D = Number(process.env.D ?? 8);
const EPOCHS = Number(process.env.EPOCHS ?? 3);
const MIX = Number(process.env.MIX ?? 0.5);
const RATE = 0.05;
const BUCKETS = 1 << 18;

const dev = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, '..', 'trust-safety.jsonl'));
const rows = [...readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, 'trust-safety.jsonl')), ...readOwnRows()];
const scratch = { ids: new Int32Array(1024) };
const bucketsOf = (tokens: readonly string[]): Int32Array => scratch.ids.slice(0, unsafeFeatureBuckets(tokens, BUCKETS, scratch));

// The shipped source balancing and equal class weight.
const groupSize = new Map<string, number>();
const keyOf = (row: TrustSafetyRow): string => `${repositoryOf(row)}|${row.labels.unsafe}`;
for (const row of rows) groupSize.set(keyOf(row), (groupSize.get(keyOf(row)) ?? 0) + 1);
const average = rows.length / groupSize.size;
const examples = rows.map((row) => ({ ids: bucketsOf(modelTokens(normaliseForModel(row.text)).slice(0, TRAIN_TOKENS)), y: row.labels.unsafe ? 1 : 0, w: (average / (groupSize.get(keyOf(row)) as number)) ** 0.5 }));
const positive = examples.reduce((sum, e) => sum + e.y * e.w, 0);
const negative = examples.reduce((sum, e) => sum + (1 - e.y) * e.w, 0);

// margin = c + v · tanh(b + Σ E[id] / sqrt(n)), trained with AdaGrad.
const random = seededRandom(3);
const E = new Float32Array(BUCKETS * D).map(() => (random() - 0.5) * 0.1);
const gE = new Float32Array(BUCKETS * D).fill(1e-6);
const v = new Float32Array(D).map(() => (random() - 0.5) * 0.1);
const gv = new Float32Array(D).fill(1e-6);
const b = new Float32Array(D);
const gb = new Float32Array(D).fill(1e-6);
let c = 0;
let gc = 1e-6;
const hidden = new Float32Array(D);
const margin = (ids: Int32Array): number => {
  hidden.set(b);
  const scale = 1 / Math.sqrt(ids.length || 1);
  for (const id of ids) for (let k = 0; k < D; k += 1) hidden[k] = (hidden[k] as number) + (E[id * D + k] as number) * scale;
  let z = c;
  for (let k = 0; k < D; k += 1) {
    hidden[k] = Math.tanh(hidden[k] as number);
    z += (v[k] as number) * (hidden[k] as number);
  }
  return z;
};
const order = examples.map((_, i) => i);
for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
  for (const i of shuffle(order, random)) {
    const e = examples[i] as (typeof examples)[number];
    const g = (1 / (1 + Math.exp(-margin(e.ids))) - e.y) * e.w * ((positive + negative) / (2 * (e.y ? positive : negative)));
    gc += g * g;
    c -= (RATE * g) / Math.sqrt(gc);
    const scale = 1 / Math.sqrt(e.ids.length || 1);
    for (let k = 0; k < D; k += 1) {
      const a = hidden[k] as number;
      const gvk = g * a;
      const gh = g * (v[k] as number) * (1 - a * a);
      gv[k] = (gv[k] as number) + gvk * gvk;
      v[k] = (v[k] as number) - (RATE * gvk) / Math.sqrt(gv[k] as number);
      gb[k] = (gb[k] as number) + gh * gh;
      b[k] = (b[k] as number) - (RATE * gh) / Math.sqrt(gb[k] as number);
      for (const id of e.ids) {
        const at = id * D + k;
        const ge = gh * scale + 1e-6 * (E[at] as number);
        gE[at] = (gE[at] as number) + ge * ge;
        E[at] = (E[at] as number) - (RATE * ge) / Math.sqrt(gE[at] as number);
      }
    }
  }
}

const linear = createUnsafeClassifier(baseTrainer(rows));
const logit = (p: number): number => Math.log(Math.max(1e-9, p) / Math.max(1e-9, 1 - p));
const devCached = cacheRows(dev);
const pLinear = devCached.map((row) => linear.predictTokens(row.tokens));
const pMixed = devCached.map((row, i) => 1 / (1 + Math.exp(-(MIX * margin(bucketsOf(row.tokens.slice(0, 100))) + (1 - MIX) * logit(pLinear[i] as number)))));
const surge = devCached.map((row, i) => (row.row.id.startsWith('surge') ? i : -1)).filter((i) => i >= 0);
const surgeAuc = (p: number[]): string => auc(surge.map((i) => (dev[i] as TrustSafetyRow).labels.unsafe), surge.map((i) => p[i] as number)).toFixed(3);
console.log(`hidden layer D ${D}, ${EPOCHS} epochs, mix ${MIX}: surge AUC linear ${surgeAuc(pLinear)}, mixed ${surgeAuc(pMixed)}`);
for (const floor of [0.4, 0.45, 0.5]) {
  const a = figures(devCached, pLinear, floor, 0.9, 0.35, floor + 0.2);
  const m = figures(devCached, pMixed, floor, 0.9, 0.35, floor + 0.2);
  console.log(`  floor ${floor}: dev linear ${a.recall.toFixed(3)}/${a.fpr.toFixed(3)}, mixed ${m.recall.toFixed(3)}/${m.fpr.toFixed(3)}`);
}
