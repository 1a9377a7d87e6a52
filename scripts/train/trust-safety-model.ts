// Trains the trustsafety unsafe-text model on the dev set plus hand-written examples and writes the shipped weights.
// Run: npx tsx scripts/train/trust-safety-model.ts [dataDir]   (dataDir defaults to ../shared/data/guardrails)
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { trainLinearModel, type TrainingExample, type TrainOptions } from './linear-trainer.js';

/** The settings the shipped model and the cross-validation in the eval both use. */
export const TRUST_SAFETY_TRAIN_OPTIONS: Partial<TrainOptions> = { l2: 1e-5, epochs: 20, learningRate: 0.3, minCount: 2, seed: 7 };

/** Where the shipped weights live. */
export const TRUST_SAFETY_WEIGHTS = fileURLToPath(new URL('../../plugins/guardrails/trust-safety/model-weights.json', import.meta.url));

const HAND_WRITTEN = fileURLToPath(new URL('./data/trust-safety-examples.jsonl', import.meta.url));

/** Reads a JSONL file into objects. */
export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The dev set's trust-safety rows as training examples, in file order. */
export function devExamples(dataDir: string): TrainingExample[] {
  return readJsonl<{ text: string; labels: { unsafe: boolean } }>(resolve(dataDir, 'trust-safety.jsonl')).map((row) => ({ text: row.text, label: row.labels.unsafe }));
}

/** The hand-written examples in scripts/train/data (written for this project, not taken from any data set). */
export function handWrittenExamples(): TrainingExample[] {
  return readJsonl<{ text: string; unsafe: boolean }>(HAND_WRITTEN).map((row) => ({ text: row.text, label: row.unsafe }));
}

/** Trains on everything and writes the weights file. */
function main(): void {
  const dataDir = resolve(process.argv[2] ?? fileURLToPath(new URL('../../../shared/data/guardrails', import.meta.url)));
  const dev = devExamples(dataDir);
  const extra = handWrittenExamples();
  const model = trainLinearModel(
    [...dev, ...extra],
    'unsafe',
    `dev set trust-safety.jsonl (${dev.length} rows) + scripts/train/data/trust-safety-examples.jsonl (${extra.length} rows); ` +
      `logistic regression, ${JSON.stringify(TRUST_SAFETY_TRAIN_OPTIONS)}. Dev-set figures must be cross-validated (see scripts/eval/trust-safety-eval.ts).`,
    TRUST_SAFETY_TRAIN_OPTIONS,
  );
  writeFileSync(TRUST_SAFETY_WEIGHTS, `${JSON.stringify(model)}\n`);
  console.log(`wrote ${TRUST_SAFETY_WEIGHTS}: ${Object.keys(model.weights).length} weights`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
