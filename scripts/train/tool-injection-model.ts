// Trains the toolinjectiondetection model (instructions planted in tool output) on train/tool-output.jsonl and writes the shipped weights.
// Run: npm run train:tool-injection [-- <trainDir>]   (trainDir defaults to ../shared/data/guardrails/train)
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceOf } from '../eval/leave-one-source-out.js';
import { prepareExamples, trainHashedModel, writeHashedModel, type HashedTrainOptions, type MultiLabelExample, type PreparedExample } from './hashed-trainer.js';
import { DEFAULT_TRAIN_DIR, readRows } from './prompt-injection-model.js';
import { augmentNegatives, ownToolExamples } from './tool-injection-augment.js';
import type { HashedModel } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';

/** One row of train/tool-output.jsonl (the dev set has the same format, with more families). */
export interface ToolOutputRow {
  id: string;
  text: string;
  labels: { attack: boolean; family: string };
  source: string;
}

/** The model's one output. */
export const TOOL_INJECTION_LABELS = ['prompt_injection'];

/** Tool output is read in short windows: a planted instruction is a sentence or two, and a long window dilutes it. */
export const TOOL_WINDOW = { size: 256, stride: 128 };

/** The settings the shipped model and the leave-one-source-out folds both use. */
export const TOOL_INJECTION_TRAIN_OPTIONS: Partial<HashedTrainOptions> = { epochs: 6, learningRate: 0.2, l2: 1e-6, seed: 7, maxWindows: 24, positiveWindows: 'max', window: TOOL_WINDOW };

/**
 * A source part (id tag) larger than this counts as this many rows: AgentDojo's 1,148 attacks sit in 37 records,
 * so without a cap the model would learn the records rather than the planted instructions.
 */
export const TOOL_TAG_CAP = 120;

/** Where the shipped model lives. */
export const TOOL_INJECTION_MODEL = fileURLToPath(new URL('../../plugins/guardrails/tool-injection-detection/model', import.meta.url));

/** A row is positive when it is a prompt-injection attack (the corpus has no other family). */
export function isToolInjection(row: ToolOutputRow): boolean {
  return row.labels.attack && row.labels.family === 'prompt_injection';
}

/** Training examples of corpus rows, each id tag weighted down to TOOL_TAG_CAP rows. */
export function toolInjectionExamples(rows: readonly ToolOutputRow[]): MultiLabelExample[] {
  const perTag = new Map<string, number>();
  for (const row of rows) perTag.set(sourceOf(row, 'tag'), (perTag.get(sourceOf(row, 'tag')) ?? 0) + 1);
  return rows.map((row) => ({ text: row.text, labels: [isToolInjection(row)], weight: Math.min(1, TOOL_TAG_CAP / (perTag.get(sourceOf(row, 'tag')) ?? 1)) }));
}

/** Weight of each row written for this project (templates in tool-injection-augment.ts) and how many of each class. */
export const OWN_TOOL_WEIGHT = 0.5;
export const OWN_TOOL_COUNT = 300;

/**
 * The full training set of some corpus rows: the rows, a planted-instruction copy of each negative row (so the
 * model learns the instruction, not the record format), and the hand-written template rows.
 */
export function toolTrainingSet(rows: readonly ToolOutputRow[]): MultiLabelExample[] {
  const negatives = rows.filter((row) => !isToolInjection(row)).map((row) => row.text);
  const weighted = (examples: MultiLabelExample[]): MultiLabelExample[] => examples.map((example) => ({ ...example, weight: OWN_TOOL_WEIGHT }));
  return [...toolInjectionExamples(rows), ...weighted(augmentNegatives(negatives)), ...weighted(ownToolExamples(OWN_TOOL_COUNT))];
}

/** Trains on prepared examples with the shipped settings. */
export function trainToolInjection(prepared: readonly PreparedExample[], trainedOn: string, options: Partial<HashedTrainOptions> = {}): HashedModel {
  return trainHashedModel(prepared, TOOL_INJECTION_LABELS, trainedOn, { ...TOOL_INJECTION_TRAIN_OPTIONS, ...options });
}

function main(): void {
  const trainDir = resolve(process.argv[2] ?? DEFAULT_TRAIN_DIR);
  const started = performance.now();
  const rows = readRows<ToolOutputRow>(resolve(trainDir, 'tool-output.jsonl'));
  const model = trainToolInjection(
    prepareExamples(toolTrainingSet(rows), undefined, TOOL_WINDOW),
    `train/tool-output.jsonl (${rows.length} rows; each id tag weighted to at most ${TOOL_TAG_CAP} rows), a copy of each negative row with an instruction ` +
      `planted from hand-written templates, and ${2 * OWN_TOOL_COUNT} template rows (scripts/train/tool-injection-augment.ts; weight ${OWN_TOOL_WEIGHT}); logistic regression over hashed ` +
      `character 2-5-grams and word 1-2-grams of the normalised text, 512-character windows, multiple-instance on attack windows; ${JSON.stringify(TOOL_INJECTION_TRAIN_OPTIONS)}`,
  );
  writeHashedModel(TOOL_INJECTION_MODEL, model);
  console.log(`wrote ${TOOL_INJECTION_MODEL}.{json,bin} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
