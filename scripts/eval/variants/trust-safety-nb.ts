// Exploration: NB-weighted logistic regression (NBSVM, Wang and Manning 2012) for trustsafety, folded into one weight per bucket.
// Run: npx tsx scripts/eval/variants/trust-safety-nb.ts
import { report, type Trainer } from './trust-safety-harness.js';
import { seededRandom, shuffle } from '../../train/linear-trainer.js';
import { repositoryOf, unsafeFeatures, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const B = TRUST_SAFETY_TRAIN_OPTIONS.buckets;

function nbTrainer(alpha: number, power: number, mix: number, epochs = 8, lr = 0.2): Trainer {
  return (rows: TrustSafetyRow[]) => {
    const groupSize = new Map<string, number>();
    const keyOf = (row: TrustSafetyRow): string => `${repositoryOf(row)}|${row.labels.unsafe}`;
    for (const row of rows) groupSize.set(keyOf(row), (groupSize.get(keyOf(row)) ?? 0) + 1);
    const average = rows.length / Math.max(1, groupSize.size);
    const examples = rows.map((row) => ({ buckets: unsafeFeatures(row.text, B), label: row.labels.unsafe, weight: (average / (groupSize.get(keyOf(row)) as number)) ** 0.5 }));
    const pos = new Float64Array(B);
    const neg = new Float64Array(B);
    let pw = 0, nw = 0;
    for (const e of examples) (e.label ? (pw += e.weight) : (nw += e.weight));
    for (const e of examples) {
      const seen = new Set(e.buckets);
      const target = e.label ? pos : neg;
      const w = e.weight;
      for (const b of seen) target[b] += w;
    }
    let ps = 0, ns = 0;
    for (let i = 0; i < B; i += 1) { ps += pos[i]! + alpha; ns += neg[i]! + alpha; }
    const r = new Float32Array(B);
    for (let i = 0; i < B; i += 1) {
      const v = Math.log((pos[i]! + alpha) / ps) - Math.log((neg[i]! + alpha) / ns);
      r[i] = mix + (1 - mix) * Math.sign(v) * Math.abs(v) ** power;
    }
    // Logistic regression on x * r.
    const weights = new Float32Array(B);
    const squares = new Float32Array(B).fill(1e-6);
    let bias = 0, biasSquare = 1e-6;
    const total = pw + nw;
    const cw = { pos: total / (2 * pw), neg: total / (2 * nw) };
    const random = seededRandom(7);
    const order = examples.map((_, i) => i);
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      for (const i of shuffle(order, random)) {
        const e = examples[i]!;
        const scale = e.buckets.length > 0 ? 1 / Math.sqrt(e.buckets.length) : 0;
        let sum = bias;
        for (const b of e.buckets) sum += weights[b]! * r[b]! * scale;
        const error = 1 / (1 + Math.exp(-sum)) - (e.label ? 1 : 0);
        const gradient = error * e.weight * (e.label ? cw.pos : cw.neg);
        for (const b of e.buckets) {
          const g = gradient * scale * r[b]! + 1e-6 * weights[b]!;
          squares[b] = squares[b]! + g * g;
          weights[b] = weights[b]! - (lr * g) / Math.sqrt(squares[b]!);
        }
        biasSquare += gradient * gradient;
        bias -= (lr * gradient) / Math.sqrt(biasSquare);
      }
    }
    const folded = new Float32Array(B);
    for (let i = 0; i < B; i += 1) folded[i] = weights[i]! * r[i]!;
    return { meta: { buckets: B, scale: 1, bias, trainedOn: '' }, weights: folded };
  };
}

const variants: Record<string, Trainer> = {
  'nb a1 p1 m0': nbTrainer(1, 1, 0),
  'nb a0.5 p1 m0.5': nbTrainer(0.5, 1, 0.5),
  'nb a1 p0.5 m0': nbTrainer(1, 0.5, 0),
};
for (const name of process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(variants)) report(name, variants[name]!);
