// Shared helpers of the eval modules: reading JSONL rows and computing precision, recall and F1.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One dev-set row, as every JSONL file of the set writes it. */
export interface DataRow<Labels> {
  id: string;
  text: string;
  labels: Labels;
  source: string;
}

/** Reads `<dataDir>/<file>` as one JSON object per line. */
export async function readJsonl<Labels>(dataDir: string, file: string): Promise<Array<DataRow<Labels>>> {
  const raw = await readFile(join(dataDir, file), 'utf8');
  return raw
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DataRow<Labels>);
}

/** Counts of one scored label. */
export interface Counts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

/** Precision, recall and F1 of counts; a metric with an empty denominator is 0. */
export function prf(counts: Counts): { precision: number; recall: number; f1: number } {
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = counts;
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Adds counts together. */
export function sumCounts(all: Counts[]): Counts {
  return all.reduce(
    (sum, c) => ({
      truePositives: sum.truePositives + c.truePositives,
      falsePositives: sum.falsePositives + c.falsePositives,
      falseNegatives: sum.falseNegatives + c.falseNegatives,
    }),
    { truePositives: 0, falsePositives: 0, falseNegatives: 0 },
  );
}
