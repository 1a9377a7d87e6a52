// Scores trustsafety on the dev set's trust-safety.jsonl with 5-fold cross-validated model predictions (never train-set figures).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CATEGORIES, scoreTrustSafety, type CategoryScores } from '../../plugins/guardrails/trust-safety/scoring.js';
import { crossValidatedProbabilities } from '../train/linear-trainer.js';
import { handWrittenExamples, TRUST_SAFETY_TRAIN_OPTIONS } from '../train/trust-safety-model.js';
import type { EvalModule, EvalRow } from './eval-types.js';

const PROCESSOR = 'trustsafety';
const THRESHOLD = 0.5;
const FOLDS = 5;

interface TrustSafetyRow {
  id: string;
  text: string;
  labels: { unsafe: boolean; category: string };
}

/** Binary figures of "any category flagged" against `unsafe`, rounded to 3 decimals. */
function unsafeMetrics(rows: TrustSafetyRow[], flagged: boolean[]): Pick<EvalRow, 'precision' | 'recall' | 'f1' | 'falsePositiveRate' | 'support'> {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  rows.forEach((row, i) => {
    if (row.labels.unsafe) flagged[i] ? (tp += 1) : (fn += 1);
    else flagged[i] ? (fp += 1) : (tn += 1);
  });
  const round = (value: number): number => Math.round(value * 1000) / 1000;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision: round(precision), recall: round(recall), f1: round(f1), falsePositiveRate: round(fp + tn === 0 ? 0 : fp / (fp + tn)), support: tp + fn };
}

/** True when any category is above the threshold. */
function anyFlagged(scores: CategoryScores): boolean {
  return CATEGORIES.some((category) => scores[category] > THRESHOLD);
}

/** Recall within one source (xstest or surge), for the notes. */
function sourceRecall(rows: TrustSafetyRow[], flagged: boolean[], prefix: string): string {
  const positives = rows.map((row, i) => ({ row, hit: flagged[i] })).filter(({ row }) => row.id.startsWith(prefix) && row.labels.unsafe);
  const negatives = rows.map((row, i) => ({ row, hit: flagged[i] })).filter(({ row }) => row.id.startsWith(prefix) && !row.labels.unsafe);
  return `${prefix} recall ${positives.filter((p) => p.hit).length}/${positives.length}, FP ${negatives.filter((n) => n.hit).length}/${negatives.length}`;
}

/**
 * The trust-safety eval. The model part of every score comes from a model trained on the other four folds plus
 * the hand-written examples (scripts/train/data), so no row is scored by a model that saw it. The shipped model
 * (trained on all rows) is not scored here, because its dev-set figures would be train-set figures.
 */
export const trustSafetyEval: EvalModule = {
  name: 'trust-safety',
  async run(dataDir: string): Promise<EvalRow[]> {
    const rows = readFileSync(resolve(dataDir, 'trust-safety.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as TrustSafetyRow);
    const examples = rows.map((row) => ({ text: row.text, label: row.labels.unsafe }));
    const outOfFold = crossValidatedProbabilities(examples, handWrittenExamples(), FOLDS, 'unsafe', TRUST_SAFETY_TRAIN_OPTIONS);
    const scores = rows.map((row, i) => scoreTrustSafety(row.text, { predict: () => outOfFold[i] as number }));
    const flagged = scores.map(anyFlagged);
    const rulesOnly = rows.map((row) => anyFlagged(scoreTrustSafety(row.text)));

    const cv = unsafeMetrics(rows, flagged);
    const categorised = rows.map((row, i) => ({ row, score: scores[i] as CategoryScores })).filter(({ row }) => (CATEGORIES as readonly string[]).includes(row.labels.category));
    const correct = categorised.filter(({ row, score }) => score[row.labels.category as keyof CategoryScores] > THRESHOLD).length;
    const tuningNote =
      'the rules were written by people who had read these rows, and the model floor and weight were chosen on these cross-validated predictions, so treat the figures as optimistic for unseen data';
    return [
      {
        processor: PROCESSOR,
        label: 'unsafe',
        ...cv,
        target: 'recall >= 0.8 and FPR <= 5%',
        met: (cv.recall ?? 0) >= 0.8 && (cv.falsePositiveRate ?? 1) <= 0.05,
        note: `${FOLDS}-fold cross-validated model + rules; ${sourceRecall(rows, flagged, 'xstest')}; ${sourceRecall(rows, flagged, 'surge')}; ${tuningNote}`,
      },
      {
        processor: PROCESSOR,
        label: 'unsafe (rules only)',
        ...unsafeMetrics(rows, rulesOnly),
        note: `use_model: false; no trained component; ${sourceRecall(rows, rulesOnly, 'xstest')}; ${sourceRecall(rows, rulesOnly, 'surge')}`,
      },
      {
        processor: PROCESSOR,
        label: 'category accuracy',
        accuracy: categorised.length === 0 ? 0 : Math.round((correct / categorised.length) * 1000) / 1000,
        support: categorised.length,
        note: 'a row counts as correct when its labelled category (hate_speech or violence) is flagged; cross-validated model',
      },
    ];
  },
};

export default trustSafetyEval;
