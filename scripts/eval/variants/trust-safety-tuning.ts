// Exploration, not part of eval:guardrails: trustsafety's model floor, weight and request factor swept on the dev set and in leave-one-source-out, to show the trade-off between them.
// Run: npx tsx scripts/eval/variants/trust-safety-tuning.ts
import { resolve } from 'node:path';
import { CATEGORIES, scoreTrustSafety, type UnsafeModel } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { memoisedUnsafeModel } from './memoised-unsafe-model.js';
import { createUnsafeClassifier, loadUnsafeClassifier } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { readJsonl, readOwnRows, repositoryOf, trainUnsafeModel, TRAIN_DIR, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

const dev = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, '..', 'trust-safety.jsonl'));
const corpus = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, 'trust-safety.jsonl'));
const own = readOwnRows();


/** Recall and FPR of "any category flagged" over rows, each scored with its own model. */
function figures(rows: ReadonlyArray<{ row: TrustSafetyRow; model: UnsafeModel }>, tuning: { floor: number; weight: number; request: number }): { recall: number; fpr: number; fp: number } {
  let tp = 0;
  let fp = 0;
  let positives = 0;
  for (const { row, model } of rows) {
    const scores = scoreTrustSafety(row.text, model, tuning);
    const flagged = CATEGORIES.some((category) => scores[category] > 0.5);
    if (row.labels.unsafe) {
      positives += 1;
      if (flagged) tp += 1;
    } else if (flagged) fp += 1;
  }
  return { recall: tp / positives, fpr: fp / (rows.length - positives), fp };
}

const shipped = memoisedUnsafeModel(loadUnsafeClassifier());
const devRows = dev.map((row) => ({ row, model: shipped }));
const losoRows: Array<{ row: TrustSafetyRow; model: UnsafeModel }> = [];
for (const repository of [...new Set(corpus.map(repositoryOf))]) {
  const model = memoisedUnsafeModel(createUnsafeClassifier(trainUnsafeModel([...corpus.filter((row) => repositoryOf(row) !== repository), ...own], TRUST_SAFETY_TRAIN_OPTIONS)));
  for (const row of corpus) if (repositoryOf(row) === repository) losoRows.push({ row, model });
}
console.log('| floor | weight | request | dev recall | dev FPR | LOSO recall | LOSO FPR |\n|---:|---:|---:|---:|---:|---:|---:|');
for (const floor of [0.3, 0.4, 0.5]) {
  for (const weight of [0.8, 0.9, 1.0]) {
    for (const request of [0.35, 0.5]) {
      const d = figures(devRows, { floor, weight, request });
      const l = figures(losoRows, { floor, weight, request });
      console.log(`| ${floor} | ${weight} | ${request} | ${d.recall.toFixed(3)} | ${d.fpr.toFixed(3)} | ${l.recall.toFixed(3)} | ${l.fpr.toFixed(3)} |`);
    }
  }
}
