// Leave-one-source-out evaluation: groups labelled rows by source, trains on all sources but one, scores the one left out, prints a per-source table.

/** What a row needs for grouping: the corpus row format's `id` (`<tag>-<n>`) and `source` (`<owner/repo>@<commit>:<path>`). */
export interface SourcedRow {
  id: string;
  source: string;
}

/** Group by the repository in `source` (`repo`), or by the id tag (`tag`, finer: a source's parts). */
export type SourceKey = 'repo' | 'tag';

/** The group of one row: `owner/repo` for `repo`, the id without its last `-<n>` for `tag`. */
export function sourceOf(row: SourcedRow, by: SourceKey = 'repo'): string {
  if (by === 'tag') return row.id.replace(/-[^-]*$/, '');
  return row.source.split('@')[0] ?? row.source;
}

/** Rows grouped by source, in order of first appearance. */
export function groupBySource<T extends SourcedRow>(rows: readonly T[], by: SourceKey = 'repo'): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = sourceOf(row, by);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

/** One fold: the source left out, its rows and the scores a model trained without it gave them. */
export interface Fold<T, S = number> {
  source: string;
  test: T[];
  /** One score per test row (a number, or anything the caller maps to numbers later). */
  scores: S[];
}

/**
 * Trains on all sources but one and scores the one left out, for each source in turn. `trainAndScore` gets the
 * training rows and the held-out rows and answers one score per held-out row (aligned).
 * @example
 * const folds = await leaveOneSourceOut(rows, (train, test) => { const m = fit(train); return test.map((r) => m(r.text)); });
 */
export async function leaveOneSourceOut<T extends SourcedRow, S = number>(
  rows: readonly T[],
  trainAndScore: (train: T[], test: T[]) => S[] | Promise<S[]>,
  by: SourceKey = 'repo',
): Promise<Array<Fold<T, S>>> {
  const folds: Array<Fold<T, S>> = [];
  for (const [source, test] of groupBySource(rows, by)) {
    const train = rows.filter((row) => sourceOf(row, by) !== source);
    folds.push({ source, test, scores: await trainAndScore(train, test) });
  }
  return folds;
}

/** Binary metrics of one group of rows at one threshold. F1, precision and recall are undefined without positives. */
export interface SourceMetrics {
  source: string;
  rows: number;
  positives: number;
  negatives: number;
  precision?: number;
  recall?: number;
  f1?: number;
  /** False-positive rate on the group's negatives; undefined when it has none. */
  fpr?: number;
  /** `positives only` or `negatives only` for single-class groups. */
  note?: string;
}

/** Metrics of labels and scores at `threshold` (a score above it is a positive). */
export function metricsAt(source: string, labels: readonly boolean[], scores: readonly number[], threshold: number): SourceMetrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  labels.forEach((label, i) => {
    const predicted = (scores[i] ?? 0) > threshold;
    if (label && predicted) tp += 1;
    else if (label) fn += 1;
    else if (predicted) fp += 1;
    else tn += 1;
  });
  const positives = tp + fn;
  const negatives = fp + tn;
  const out: SourceMetrics = { source, rows: labels.length, positives, negatives };
  if (positives > 0) {
    out.recall = tp / positives;
    out.precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    out.f1 = out.precision + out.recall === 0 ? 0 : (2 * out.precision * out.recall) / (out.precision + out.recall);
  }
  if (negatives > 0) out.fpr = fp / negatives;
  if (positives === 0) out.note = 'negatives only';
  else if (negatives === 0) out.note = 'positives only';
  return out;
}

/**
 * Per-source metrics of folds: one line per fold, then (with `subgroup`) one line per finer group inside each fold
 * (e.g. the id tags of a repository), and a pooled line over all folds.
 */
export function foldMetrics<T extends SourcedRow>(folds: ReadonlyArray<Fold<T>>, label: (row: T) => boolean, threshold: number, subgroup?: SourceKey): SourceMetrics[] {
  const out: SourceMetrics[] = [];
  const allLabels: boolean[] = [];
  const allScores: number[] = [];
  for (const fold of folds) {
    const labels = fold.test.map(label);
    out.push(metricsAt(fold.source, labels, fold.scores, threshold));
    allLabels.push(...labels);
    allScores.push(...fold.scores);
    if (subgroup) {
      const index = new Map(fold.test.map((row, i) => [row, i]));
      const groups = groupBySource(fold.test, subgroup);
      if (groups.size > 1) {
        for (const [name, group] of groups) {
          out.push(metricsAt(`  ${name}`, group.map(label), group.map((row) => fold.scores[index.get(row) ?? 0] ?? 0), threshold));
        }
      }
    }
  }
  out.push(metricsAt('pooled', allLabels, allScores, threshold));
  return out;
}

/** Prints metrics as a Markdown table under a title. */
export function printSourceTable(title: string, rows: readonly SourceMetrics[]): void {
  const fmt = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(3));
  console.log(`\n${title}\n`);
  console.log('| source | rows | pos | neg | P | R | F1 | FPR | note |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of rows) {
    console.log(`| ${r.source} | ${r.rows} | ${r.positives} | ${r.negatives} | ${fmt(r.precision)} | ${fmt(r.recall)} | ${fmt(r.f1)} | ${fmt(r.fpr)} | ${r.note ?? ''} |`);
  }
}
