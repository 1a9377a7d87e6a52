// Exploration, not part of eval:guardrails: trustsafety model variants (training settings, seeds, seed averaging) on the dev set, with the model's ranking (AUC) per source.
// Run: npx tsx scripts/eval/variants/trust-safety-variants.ts
import { resolve } from 'node:path';
import { auc } from '../ranking-auc.js';
import { CATEGORIES, scoreTrustSafety, type UnsafeModel } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { createUnsafeClassifier, loadUnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { readJsonl, trainUnsafeModel, TRAIN_DIR, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const dev = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, '..', 'trust-safety.jsonl'));
const corpus = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, 'trust-safety.jsonl'));
/** (model floor, model weight) pairs of the scoring, the first being the shipped one. */
const TUNINGS: Array<[number, number]> = [[0.4, 0.8], [0.35, 0.8], [0.3, 0.8], [0.3, 0.9]];


function report(name: string, model: UnsafeModel): void {
  const probabilities = dev.map((row) => model.predict(row.text));
  const ranking = ['xstest', 'surge'].map((source) => {
    const rows = dev.map((row, i) => (row.id.startsWith(source) ? i : -1)).filter((i) => i >= 0);
    return `${source} ${auc(rows.map((i) => dev[i]!.labels.unsafe), rows.map((i) => probabilities[i]!)).toFixed(3)}`;
  });
  const operating = TUNINGS.map(([floor, weight]) => {
    let tp = 0, fp = 0, pos = 0, neg = 0;
    for (const row of dev) {
      const scores = scoreTrustSafety(row.text, model, { floor, weight });
      const flagged = CATEGORIES.some((c) => scores[c] > 0.5);
      if (row.labels.unsafe) { pos += 1; if (flagged) tp += 1; } else { neg += 1; if (flagged) fp += 1; }
    }
    return `floor ${floor} weight ${weight}: R ${(tp / pos).toFixed(3)} FPR ${(fp / neg).toFixed(3)}`;
  });
  console.log(`| ${name} | ${ranking.join(', ')} | ${operating.join('; ')} |`);
}

console.log('| model | AUC of the model alone | dev recall / FPR with the rules |\n|---|---|---|');
report('shipped', loadUnsafeClassifier());
for (const variant of [{ balanceSources: false }, { epochs: 15 }, { epochs: 4 }, { l2: 1e-5 }, { learningRate: 0.1, epochs: 15 }, { seed: 8 }, { seed: 9 }]) {
  report(JSON.stringify(variant), createUnsafeClassifier(trainUnsafeModel(corpus, { ...TRUST_SAFETY_TRAIN_OPTIONS, ...variant })));
}
const seeds = [7, 8, 9, 10, 11].map((seed) => trainUnsafeModel(corpus, { ...TRUST_SAFETY_TRAIN_OPTIONS, seed }));
const mean = new Float32Array(seeds[0]!.weights.length);
for (const m of seeds) m.weights.forEach((w, i) => (mean[i] = (mean[i] as number) + w / seeds.length));
report('mean of seeds 7-11', createUnsafeClassifier({ meta: { ...seeds[0]!.meta, bias: seeds.reduce((s, m) => s + m.meta.bias, 0) / seeds.length }, weights: mean }));
