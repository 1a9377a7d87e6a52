// Exploration, not part of eval:guardrails: a fast harness that scores trustsafety model variants on the dev set and in leave-one-source-out with the rules cached.
// Run: npx tsx scripts/eval/variants/trust-safety-harness.ts [variant ...]
import { resolve } from 'node:path';
import { auc } from '../ranking-auc.js';
import { GROUP } from '../../../plugins/guardrails/trust-safety/lexicon.js';
import { CATEGORIES, GROUP_MODEL_FLOOR, MODEL_FLOOR, MODEL_WEIGHT, normaliseForRules, scoreTrustSafety, withoutMasks, withoutReportedQuotes, type UnsafeModel } from '../../../plugins/guardrails/trust-safety/scoring.js';
import { unsafeFeatureBuckets } from '../../../plugins/guardrails/trust-safety/unsafe-features.js';
import { modelTokens, TRAIN_TOKENS } from '../../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import { trainHashedLogistic } from '../../train/hashed-logistic.js';
import { createUnsafeClassifier, type UnsafeModelData } from '../../../plugins/guardrails/trust-safety/unsafe-model.js';
import { readJsonl, readOwnRows, repositoryOf, sourceBalance, trainUnsafeModel, TRAIN_DIR, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../../train/trust-safety-model.js';

/** What the rules say about one row, and how the model's evidence would enter. */
export interface CachedRow {
  row: TrustSafetyRow;
  tokens: string[];
  rulesFlag: boolean;
  targetScore: number;
  factor: number;
  /** A protected group is named (the model's floor is then `groupFloor`). */
  group: boolean;
}

const MENTIONS_GROUP = new RegExp(String.raw`\b${GROUP}\b`);
const ONE: UnsafeModel = { predict: () => 1, predictTokens: () => 1 };

/** Caches the rule side of the scoring for each row. */
export function cacheRows(rows: TrustSafetyRow[]): CachedRow[] {
  return rows.map((row) => {
    const base = scoreTrustSafety(row.text);
    const full = scoreTrustSafety(row.text, ONE, { floor: 0, weight: 1, request: 0.35 });
    let target = 0;
    let factor = 0;
    for (const category of CATEGORIES) {
      if (full[category] > base[category] + 1e-6) {
        target = base[category];
        factor = 1 - (1 - full[category]) / (1 - base[category]);
      }
    }
    const normalised = normaliseForRules(withoutReportedQuotes(withoutMasks(row.text)));
    const tokens = modelTokens(normalised);
    return { row, tokens, rulesFlag: CATEGORIES.some((category) => base[category] > 0.5), targetScore: target, factor, group: MENTIONS_GROUP.test(normalised) };
  });
}

/** Recall and FPR of rows given model probabilities. */
export function figures(rows: CachedRow[], p: number[], floorAll: number, weight: number, request = 0.35, groupFloor = floorAll): { recall: number; fpr: number } {
  let tp = 0, fp = 0, pos = 0, neg = 0;
  rows.forEach((c, i) => {
    let flagged = c.rulesFlag;
    const prob = p[i] as number;
    const floor = c.group ? groupFloor : floorAll;
    if (!flagged && prob > floor && c.factor > 0) {
      const factor = c.factor < 0.99 && Math.abs(c.factor - 0.35) < 0.001 ? request : c.factor;
      const evidence = factor * weight * ((prob - floor) / (1 - floor));
      flagged = 1 - (1 - c.targetScore) * (1 - evidence) > 0.5;
    }
    if (c.row.labels.unsafe) { pos += 1; if (flagged) tp += 1; } else { neg += 1; if (flagged) fp += 1; }
  });
  return { recall: tp / Math.max(1, pos), fpr: fp / Math.max(1, neg) };
}

/** The dev rows, the corpus rows, the hand-written rows, the first two with their tokens, and the corpus's repositories. */
export const dev = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, '..', 'trust-safety.jsonl'));
export const corpus = readJsonl<TrustSafetyRow>(resolve(TRAIN_DIR, 'trust-safety.jsonl'));
export const own = readOwnRows();
export const devCached = cacheRows(dev);
export const corpusCached = cacheRows(corpus);
export const repositories = [...new Set(corpus.map(repositoryOf))];

/** A way to train a model on rows. */
export type Trainer = (rows: TrustSafetyRow[]) => UnsafeModelData;

const f3 = (x: number): string => x.toFixed(3);

/** Trains the full model and the nine fold models and prints the figures. */
export function report(name: string, train: Trainer, extra: TrustSafetyRow[] = own, tokensOf?: (c: CachedRow) => string[]): void {
  const started = performance.now();
  const full = createUnsafeClassifier(train([...corpus, ...extra]));
  const tok = tokensOf ?? ((c: CachedRow) => c.tokens);
  const devP = devCached.map((c) => full.predictTokens(tok(c)));
  const losoP = new Array<number>(corpus.length);
  for (const repository of repositories) {
    const model = createUnsafeClassifier(train([...corpus.filter((row) => repositoryOf(row) !== repository), ...extra]));
    corpusCached.forEach((c, i) => { if (repositoryOf(c.row) === repository) losoP[i] = model.predictTokens(tok(c)); });
  }
  const surge = devCached.map((c, i) => (c.row.id.startsWith('surge') ? i : -1)).filter((i) => i >= 0);
  const surgeAuc = auc(surge.map((i) => dev[i]!.labels.unsafe), surge.map((i) => devP[i]!));
  const losoAuc = auc(corpus.map((r) => r.labels.unsafe), losoP);
  const shippedDev = figures(devCached, devP, MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
  const shippedLoso = figures(corpusCached, losoP, MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
  let best = { recall: 0, fpr: 0, floor: 0, weight: 0, loso: { recall: 0, fpr: 0 } };
  for (const floor of [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
    for (const weight of [0.7, 0.8, 0.9, 1.0]) {
      const d = figures(devCached, devP, floor, weight);
      if (process.env.TS_GRID && d.fpr <= 0.055) { const l = figures(corpusCached, losoP, floor, weight); console.log(`   grid ${floor}/${weight} dev ${f3(d.recall)}/${f3(d.fpr)} LOSO ${f3(l.recall)}/${f3(l.fpr)}`); }
      if (d.fpr <= 0.05 && d.recall > best.recall) best = { ...d, floor, weight, loso: figures(corpusCached, losoP, floor, weight) };
    }
  }
  const perSource = repositories.map((repository) => {
    const idx = corpusCached.map((c, i) => (repositoryOf(c.row) === repository ? i : -1)).filter((i) => i >= 0);
    const f = figures(idx.map((i) => corpusCached[i]!), idx.map((i) => losoP[i]!), MODEL_FLOOR, MODEL_WEIGHT, 0.35, GROUP_MODEL_FLOOR);
    return `${repository.split('/')[1]!.slice(0, 10)} ${f3(f.recall)}/${f3(f.fpr)}`;
  });
  console.log(`${name}: surgeAUC ${f3(surgeAuc)} losoAUC ${f3(losoAuc)} | shipped ${MODEL_FLOOR}/${MODEL_WEIGHT} (group ${GROUP_MODEL_FLOOR}) dev ${f3(shippedDev.recall)}/${f3(shippedDev.fpr)} LOSO ${f3(shippedLoso.recall)}/${f3(shippedLoso.fpr)} | best ${best.floor}/${best.weight} dev ${f3(best.recall)}/${f3(best.fpr)} LOSO ${f3(best.loso.recall)}/${f3(best.loso.fpr)} | ${((performance.now() - started) / 1000).toFixed(0)} s`);
  console.log(`   ${perSource.join(' | ')}`);
}

/** A trainer like the shipped one on tokens made by `tokensOf` (text → tokens). */
export function tokenTrainer(tokensOf: (text: string) => string[], options = TRUST_SAFETY_TRAIN_OPTIONS): Trainer {
  return (rows) => {
    const balance = sourceBalance(rows, options.balancePower);
    const out = { ids: new Int32Array(1024) };
    const examples = rows.map((row) => {
      const n = unsafeFeatureBuckets(tokensOf(row.text).slice(0, TRAIN_TOKENS), options.buckets, out);
      return { buckets: [...out.ids.subarray(0, n)], label: row.labels.unsafe, weight: balance(row) };
    });
    const { bias, weights } = trainHashedLogistic(examples, options);
    return { meta: { buckets: options.buckets, scale: 1, bias, trainedOn: '' }, weights };
  };
}

export const baseTrainer: Trainer = (rows) => trainUnsafeModel(rows, TRUST_SAFETY_TRAIN_OPTIONS);

if (process.argv[1]?.endsWith('trust-safety-harness.ts')) report('baseline', baseTrainer);
