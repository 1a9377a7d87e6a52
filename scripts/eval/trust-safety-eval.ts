// Scores trustsafety: the shipped model with the rules on the dev set (per source and category), and leave-one-source-out on the corpus.
import { resolve } from 'node:path';
import dlpCloud from '../../plugins/guardrails/dlp-cloud/index.js';
import { CATEGORIES, scoreTrustSafety, type CategoryScores, type UnsafeModel } from '../../plugins/guardrails/trust-safety/scoring.js';
import { createUnsafeClassifier, loadUnsafeClassifier } from '../../plugins/guardrails/trust-safety/unsafe-model.js';
import { GuardrailEngine } from '../../src/index.js';
import { readOwnRows, repositoryOf, trainUnsafeModel, TRUST_SAFETY_TRAIN_OPTIONS, type TrustSafetyRow } from '../train/trust-safety-model.js';
import { readJsonl } from './eval-data.js';
import type { EvalModule, EvalRow } from './eval-types.js';

const PROCESSOR = 'trustsafety';
const THRESHOLD = 0.5;
const TARGET = 'recall >= 0.85 and FPR <= 5%';

/** True when any category is above the threshold. */
function anyFlagged(scores: CategoryScores): boolean {
  return CATEGORIES.some((category) => scores[category] > THRESHOLD);
}

/** Binary figures of "any category flagged" against `unsafe`. */
export function unsafeFigures(rows: TrustSafetyRow[], flagged: boolean[]): Pick<EvalRow, 'precision' | 'recall' | 'f1' | 'falsePositiveRate' | 'support'> & { negatives: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  rows.forEach((row, i) => {
    if (row.labels.unsafe) flagged[i] ? (tp += 1) : (fn += 1);
    else flagged[i] ? (fp += 1) : (tn += 1);
  });
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const out: Pick<EvalRow, 'precision' | 'recall' | 'f1' | 'falsePositiveRate' | 'support'> & { negatives: number } = { support: tp + fn, negatives: fp + tn };
  if (tp + fn > 0) Object.assign(out, { precision, recall, f1 });
  if (fp + tn > 0) out.falsePositiveRate = fp / (fp + tn);
  return out;
}

/** A table row with the target, judged on what the rows can measure (a one-class source measures only one of the two). */
function targetRow(label: string, rows: TrustSafetyRow[], flagged: boolean[], note: string): EvalRow {
  const { negatives, ...figures } = unsafeFigures(rows, flagged);
  const recallOk = figures.recall === undefined || figures.recall >= 0.85;
  const fprOk = figures.falsePositiveRate === undefined || figures.falsePositiveRate <= 0.05;
  const oneClass = figures.support === 0 ? 'safe rows only: FPR only' : negatives === 0 ? 'unsafe rows only: recall only' : '';
  return { processor: PROCESSOR, label, ...figures, target: TARGET, met: recallOk && fprOk, note: [`${negatives} safe`, oneClass, note].filter(Boolean).join('; ') };
}

/** Recall per labelled category (any category flagged counts), and for safe rows the share flagged per category. */
function categoryRows(prefix: string, rows: TrustSafetyRow[], scores: CategoryScores[]): EvalRow[] {
  const out: EvalRow[] = [];
  const labels = [...new Set(rows.filter((row) => row.labels.unsafe).map((row) => row.labels.category))].sort();
  for (const category of labels) {
    const indices = rows.map((row, i) => (row.labels.unsafe && row.labels.category === category ? i : -1)).filter((i) => i >= 0);
    const hits = indices.filter((i) => anyFlagged(scores[i] as CategoryScores)).length;
    const same = indices.filter((i) => (CATEGORIES as readonly string[]).includes(category) && (scores[i] as CategoryScores)[category as keyof CategoryScores] > THRESHOLD).length;
    out.push({
      processor: PROCESSOR,
      label: `  ${prefix} category ${category}`,
      recall: hits / indices.length,
      support: indices.length,
      note: (CATEGORIES as readonly string[]).includes(category) ? `flagged as ${category} itself: ${same}/${indices.length}` : 'no category in the source: any flag counts',
    });
  }
  const safe = rows.map((row, i) => (row.labels.unsafe ? -1 : i)).filter((i) => i >= 0);
  const perCategory = CATEGORIES.map((category) => `${category} ${safe.filter((i) => (scores[i] as CategoryScores)[category] > THRESHOLD).length}`);
  out.push({ processor: PROCESSOR, label: `  ${prefix} safe rows flagged, by category`, falsePositiveRate: safe.filter((i) => anyFlagged(scores[i] as CategoryScores)).length / Math.max(1, safe.length), support: 0, note: `of ${safe.length}: ${perCategory.join(', ')}` });
  return out;
}

/** The dev set's source tag (xstest or surge). */
const devSource = (row: TrustSafetyRow): string => row.id.replace(/-\d+$/, '');

/**
 * The trust-safety eval. Dev set: the shipped model (trained on the corpus and the hand-written rows) with the rules, pooled, per source and
 * per category; the rules alone; and the dev rows after DLP masking. Leave-one-source-out: for each of the corpus's 9
 * repositories, a model trained on the other 8 and the hand-written rows with the shipped settings, plus the rules,
 * scores the one left out.
 */
export const trustSafetyEval: EvalModule = {
  name: 'trust-safety',
  async run(dataDir: string): Promise<EvalRow[]> {
    const dev = (await readJsonl<TrustSafetyRow['labels']>(dataDir, 'trust-safety.jsonl')) as TrustSafetyRow[];
    const shipped = loadUnsafeClassifier();
    const scores = dev.map((row) => scoreTrustSafety(row.text, shipped));
    const flagged = scores.map(anyFlagged);
    const out: EvalRow[] = [targetRow('dev (shipped model + rules)', dev, flagged, 'the model never saw the dev set; its floor and weight were picked on it')];
    for (const source of [...new Set(dev.map(devSource))]) {
      const indices = dev.map((row, i) => (devSource(row) === source ? i : -1)).filter((i) => i >= 0);
      out.push(targetRow(`  dev ${source}`, indices.map((i) => dev[i] as TrustSafetyRow), indices.map((i) => flagged[i] as boolean), ''));
    }
    out.push(...categoryRows('dev', dev, scores));
    out.push({ processor: PROCESSOR, label: 'dev, rules only (use_model: false)', ...unsafeFigures(dev, dev.map((row) => anyFlagged(scoreTrustSafety(row.text)))), note: 'no trained component' });

    // DLP mask first, as a policy with dlp_cloud (mask) before trustsafety runs it.
    const engine = new GuardrailEngine();
    await engine.add(dlpCloud);
    const masked: string[] = [];
    for (const row of dev) masked.push((await engine.evaluate('dlp_cloud', row.text)).transformedText ?? row.text);
    const changed = dev.map((row, i) => (masked[i] !== row.text && !row.labels.unsafe ? i : -1)).filter((i) => i >= 0);
    out.push(targetRow('dev safe rows after DLP mask', changed.map((i) => dev[i] as TrustSafetyRow), changed.map((i) => anyFlagged(scoreTrustSafety(masked[i] as string, shipped))), 'only the safe rows DLP changed'));

    const corpus = (await readJsonl<TrustSafetyRow['labels']>(resolve(dataDir, 'train'), 'trust-safety.jsonl')) as TrustSafetyRow[];
    const own = readOwnRows();
    const pooledRows: TrustSafetyRow[] = [];
    const pooledScores: CategoryScores[] = [];
    const sourceRows: EvalRow[] = [];
    for (const repository of [...new Set(corpus.map(repositoryOf))]) {
      const model: UnsafeModel = createUnsafeClassifier(trainUnsafeModel([...corpus.filter((row) => repositoryOf(row) !== repository), ...own], TRUST_SAFETY_TRAIN_OPTIONS));
      const held = corpus.filter((row) => repositoryOf(row) === repository);
      const heldScores = held.map((row) => scoreTrustSafety(row.text, model));
      pooledRows.push(...held);
      pooledScores.push(...heldScores);
      const tags = [...new Set(held.map((row) => row.id.replace(/-[^-]+$/, '').replace(/_(?:hate|neutral)_.*$|_(?:train|val|test)$/, '')))];
      sourceRows.push(targetRow(`  LOSO ${repository}`, held, heldScores.map(anyFlagged), `tags ${tags.slice(0, 4).join(' ')}${tags.length > 4 ? ' …' : ''}`));
    }
    out.push(targetRow('LOSO pooled (9 repositories)', pooledRows, pooledScores.map(anyFlagged), 'each row scored by a model that never saw its repository'), ...sourceRows);
    out.push(...categoryRows('LOSO', pooledRows, pooledScores));
    return out;
  },
};

export default trustSafetyEval;
