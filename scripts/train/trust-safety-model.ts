// Trains trustsafety's unsafe-text model on the corpus (train/trust-safety.jsonl) and the project's hand-written rows and writes unsafe-model.json and unsafe-weights.bin.
// Run: npm run train:trustsafety   (deterministic from the seed)
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unsafeFeatureBuckets } from '../../plugins/guardrails/trust-safety/unsafe-features.js';
import { modelTokens, normaliseForModel, TRAIN_TOKENS } from '../../plugins/guardrails/trust-safety/unsafe-tokens.js';
import type { UnsafeModelData } from '../../plugins/guardrails/trust-safety/unsafe-model.js';
import { quantiseWeights, trainHashedLogistic, type HashedExample, type HashedTrainOptions } from './hashed-logistic.js';
import { trainVectorModel, VECTOR_TRAIN_OPTIONS, type VectorTrainOptions } from './trust-safety-vectors.js';
import { vectorTableBytes } from '../../plugins/guardrails/trust-safety/vector-model.js';

/** The settings of the shipped model (and of every leave-one-source-out model in the eval). */
export const TRUST_SAFETY_TRAIN_OPTIONS: UnsafeTrainOptions = {
  buckets: 1 << 18,
  epochs: 8,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 7,
  balanceSources: true,
  vectors: VECTOR_TRAIN_OPTIONS,
};

/** Training settings of the unsafe-text model. */
export interface UnsafeTrainOptions extends HashedTrainOptions {
  /** Weigh each (repository, class) group by (average group size / its size) ^ `balancePower`. */
  balanceSources: boolean;
  /** 0.5 (the default) is the square root: a middle way between one weight per row and one weight per group. */
  balancePower?: number;
  /** The word-vector part's settings (trust-safety-vectors.ts); absent: a linear model alone. */
  vectors?: VectorTrainOptions;
}

/** One corpus or dev-set row. */
export interface TrustSafetyRow {
  id: string;
  text: string;
  labels: { unsafe: boolean; category: string };
  source: string;
}

/** Reads a JSONL file into objects. */
export function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The repository a row comes from (`owner/repo` of its `source`): the unit of leave-one-source-out. */
export function repositoryOf(row: { source: string }): string {
  return row.source.split('@')[0] ?? row.source;
}

/** Hashed features of one text, as the classifier computes them. */
export function unsafeFeatures(text: string, buckets: number): number[] {
  const out = { ids: new Int32Array(1024) };
  const count = unsafeFeatureBuckets(modelTokens(normaliseForModel(text)).slice(0, TRAIN_TOKENS), buckets, out);
  return [...out.ids.subarray(0, count)];
}

/**
 * The source-balancing weight of each row: (rows per group on average / rows in its group)^power, where a group is one
 * repository's rows of one class, so every group weighs about the same in total.
 */
export function sourceBalance(rows: TrustSafetyRow[], power = 0.5): (row: TrustSafetyRow) => number {
  const keyOf = (row: TrustSafetyRow): string => `${repositoryOf(row)}|${row.labels.unsafe}`;
  const groupSize = new Map<string, number>();
  for (const row of rows) groupSize.set(keyOf(row), (groupSize.get(keyOf(row)) ?? 0) + 1);
  const average = rows.length / Math.max(1, groupSize.size);
  return (row) => (average / (groupSize.get(keyOf(row)) as number)) ** power;
}

/**
 * Trains on corpus rows. With `balanceSources`, each repository and class within it weighs the same in total, so
 * the two largest sources (Stormfront, OLID) do not decide alone what "unsafe" means.
 */
export function trainUnsafeModel(rows: TrustSafetyRow[], options = TRUST_SAFETY_TRAIN_OPTIONS, trainedOn = ''): UnsafeModelData {
  const balance = sourceBalance(rows, options.balancePower);
  const examples: HashedExample[] = rows.map((row) => ({
    buckets: unsafeFeatures(row.text, options.buckets),
    label: row.labels.unsafe,
    weight: options.balanceSources ? balance(row) : 1,
  }));
  const { bias, weights } = trainHashedLogistic(examples, options);
  const model: UnsafeModelData = { meta: { buckets: options.buckets, scale: 1, bias: Math.round(bias * 10_000) / 10_000, trainedOn }, weights };
  if (options.vectors) {
    const vectorExamples = rows.map((row, i) => ({ text: row.text, label: row.labels.unsafe, weight: examples[i]?.weight ?? 1 }));
    model.vectors = trainVectorModel(vectorExamples, options.vectors, `the same rows; a ${options.vectors.hidden}-unit tanh network over the SIF-weighted mean of GloVe 6B 100d vectors (plugins/guardrails/shared/word-vectors.*), ${JSON.stringify(options.vectors)}`);
  }
  return model;
}

/** The corpus folder: ../shared/data/guardrails/train beside the repository. */
export const TRAIN_DIR = fileURLToPath(new URL('../../../shared/data/guardrails/train', import.meta.url));

/** Hand-written rows of this project (scripts/train/trust-safety-own-examples.ts): abuse without swear words and harmless look-alikes. */
export const OWN_ROWS = fileURLToPath(new URL('./data/trust-safety-own.jsonl', import.meta.url));

/** The hand-written rows, trained on beside the corpus (and in every leave-one-source-out fold, which never leaves them out). */
export function readOwnRows(): TrustSafetyRow[] {
  return readJsonl<TrustSafetyRow>(OWN_ROWS);
}

function main(): void {
  const dir = resolve(process.argv[2] ?? TRAIN_DIR);
  const corpus = readJsonl<TrustSafetyRow>(resolve(dir, 'trust-safety.jsonl'));
  const own = readOwnRows();
  const rows = [...corpus, ...own];
  const started = performance.now();
  const trainedOn = `corpus train/trust-safety.jsonl (${corpus.length} rows, 9 repositories) and ${own.length} hand-written rows (scripts/train/data/trust-safety-own.jsonl); logistic regression, ${JSON.stringify(TRUST_SAFETY_TRAIN_OPTIONS)}`;
  const model = trainUnsafeModel(rows, TRUST_SAFETY_TRAIN_OPTIONS, trainedOn);
  const { scale, bytes } = quantiseWeights(model.weights as Float32Array);
  const folder = new URL('../../plugins/guardrails/trust-safety/', import.meta.url);
  writeFileSync(new URL('unsafe-model.json', folder), `${JSON.stringify({ ...model.meta, scale, ...(model.vectors ? { vectors: model.vectors.meta } : {}) }, null, 1)}\n`);
  writeFileSync(new URL('unsafe-weights.bin', folder), bytes);
  if (model.vectors) writeFileSync(new URL('unsafe-vectors.bin', folder), vectorTableBytes(model.vectors));
  console.log(`trained in ${((performance.now() - started) / 1000).toFixed(1)} s; wrote ${bytes.length} bytes of weights`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
