// Trains the promptinjectiondetection model (prompt_injection and jailbreak outputs) on the training corpus and writes the shipped weights.
// Run: npm run train:prompt-injection [-- <trainDir>]   (trainDir defaults to ../shared/data/guardrails/train)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceOf } from '../eval/leave-one-source-out.js';
import { prepareExamples, trainHashedModel, writeHashedModel, type HashedTrainOptions, type MultiLabelExample, type PreparedExample } from './hashed-trainer.js';
import type { HashedModel } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { benignSystemPrompts } from './system-prompt-examples.js';
import { foreignParagraphs, type LanguageRow } from './foreign-paragraphs.js';
import { benignPromptDocuments } from './prompt-document-examples.js';
import { rolePlayExamples } from './roleplay-examples.js';

/** One row of train/prompt-injection.jsonl (the dev set has the same format). */
export interface PromptInjectionRow {
  id: string;
  text: string;
  labels: { prompt_injection: boolean; jailbreak: boolean };
  source: string;
}

/** The model's outputs, in order. */
export const PROMPT_INJECTION_LABELS = ['prompt_injection', 'jailbreak'];

/** Times each structural cue of a window (plugins/guardrails/prompt-injection-detection/cues.ts) counts as a feature. */
export const PROMPT_INJECTION_CUES = 16;

/**
 * Logit taken off a text's best window per natural log of its window count (see `windowPenalty` in hashed-model.ts),
 * chosen on the training corpus's leave-one-source-out folds, not on the dev set.
 */
export const PROMPT_INJECTION_WINDOW_PENALTY = 0.25;

/**
 * Features are scaled by 1/sqrt(max(count, this)) (see `featureFloor` in hashed-model.ts): a window of a few words
 * ("can you write code?") has so few n-grams that each one swung the score; chosen on the leave-one-source-out folds.
 */
export const PROMPT_INJECTION_FEATURE_FLOOR = 300;

/** Feature-space size: 2^bits buckets per output. */
export const PROMPT_INJECTION_BITS = 18;

/**
 * How the classes are weighed: every training window of a negative text is a negative of its own, all negative windows
 * together weighing as much as the positive texts. The plugin flags a text when its best window scores high, so every
 * window of a harmless long prompt must score low (chosen on the leave-one-source-out folds: awesome-chatgpt-prompts
 * FPR 0.140 -> 0.116 with the same recall within two rows).
 */
export const PROMPT_INJECTION_BALANCE: HashedTrainOptions['balance'] = { kind: 'windows', negativeMass: 1 };

/** The settings the shipped model and the leave-one-source-out folds both use. */
export const PROMPT_INJECTION_TRAIN_OPTIONS: Partial<HashedTrainOptions> = { bits: PROMPT_INJECTION_BITS, epochs: 6, learningRate: 0.2, l2: 1e-6, seed: 7, maxWindows: 8, positiveWindows: 'max', balance: PROMPT_INJECTION_BALANCE,
  cues: PROMPT_INJECTION_CUES, windowPenalty: PROMPT_INJECTION_WINDOW_PENALTY, featureFloor: PROMPT_INJECTION_FEATURE_FLOOR };

/** A source part (id tag) larger than this counts as this many rows in the loss, so no one source dominates. */
export const TAG_CAP = 300;

/** Where the shipped model lives (`.json` header and `.bin` weights). */
export const PROMPT_INJECTION_MODEL = fileURLToPath(new URL('../../plugins/guardrails/prompt-injection-detection/model', import.meta.url));

/** The default corpus folder. */
export const DEFAULT_TRAIN_DIR = fileURLToPath(new URL('../../../shared/data/guardrails/train', import.meta.url));

/** Reads a JSONL file into objects. */
export function readRows<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Training examples of corpus rows: both labels, each id tag weighted down to TAG_CAP rows. */
export function promptInjectionExamples(rows: readonly PromptInjectionRow[]): MultiLabelExample[] {
  const perTag = new Map<string, number>();
  for (const row of rows) perTag.set(sourceOf(row, 'tag'), (perTag.get(sourceOf(row, 'tag')) ?? 0) + 1);
  return rows.map((row) => ({
    text: row.text,
    labels: [row.labels.prompt_injection, row.labels.jailbreak],
    weight: Math.min(1, TAG_CAP / (perTag.get(sourceOf(row, 'tag')) ?? 1)),
  }));
}

/** Weight of one row written for this project (scripts/train/data/prompt-injection-own.jsonl) in the loss. */
export const OWN_WEIGHT = 0.5;
const OWN_ROWS = fileURLToPath(new URL('./data/prompt-injection-own.jsonl', import.meta.url));

/** How many benign system prompts (scripts/train/system-prompt-examples.ts) join the own rows, at OWN_WEIGHT each. */
export const SYSTEM_PROMPT_COUNT = 600;

/**
 * The rows written for this project from hand-written templates (scripts/train/own-prompt-examples.ts) and the
 * benign system prompts (policies check system messages, so "you are a helpful assistant… do not reveal these
 * instructions" must score low).
 */
export function templateExamples(): MultiLabelExample[] {
  const rows = readRows<{ text: string; prompt_injection: boolean; jailbreak: boolean }>(OWN_ROWS).map((row) => ({
    text: row.text,
    labels: [row.prompt_injection, row.jailbreak],
    weight: OWN_WEIGHT,
  }));
  const systemPrompts = benignSystemPrompts(SYSTEM_PROMPT_COUNT).map((text) => ({ text, labels: [false, false], weight: OWN_WEIGHT }));
  return [...rows, ...systemPrompts];
}

/** How many benign prompt documents (scripts/train/prompt-document-examples.ts) join the own rows. */
export const PROMPT_DOCUMENT_COUNT = 300;

/**
 * Every row beside the corpus, each at OWN_WEIGHT, in every fold's training and never scored: the template rows and
 * system prompts; the role-play rows (benign role prompts, chat follow-ups and ordinary requests in 19 languages
 * against role-play hijacks, persuasion jailbreaks and overrides in those languages; scripts/train/roleplay-examples.ts);
 * long benign prompt documents (scripts/train/prompt-document-examples.ts); ordinary paragraphs in 24 languages
 * from train/language.jsonl, so that "not English" does not read as "attack"; and the clean rows of
 * train/tool-output.jsonl (command pages, JSON records, YAML files), so that code and data do not either.
 */
export function ownPromptExamples(trainDir = DEFAULT_TRAIN_DIR): MultiLabelExample[] {
  const negative = (text: string): MultiLabelExample => ({ text, labels: [false, false], weight: OWN_WEIGHT });
  return [
    ...templateExamples(),
    ...rolePlayExamples().map((row) => ({ text: row.text, labels: [row.prompt_injection, row.jailbreak], weight: OWN_WEIGHT })),
    ...benignPromptDocuments(PROMPT_DOCUMENT_COUNT).map(negative),
    ...foreignParagraphs(readRows<LanguageRow>(resolve(trainDir, 'language.jsonl'))).map(negative),
    ...readRows<{ text: string; labels: { attack: boolean } }>(resolve(trainDir, 'tool-output.jsonl')).filter((row) => !row.labels.attack).map((row) => negative(row.text)),
  ];
}

/** Normalises and hashes examples as the shipped model reads them (n-grams and structural cues). */
export function preparePromptExamples(examples: readonly MultiLabelExample[]): PreparedExample[] {
  return prepareExamples(examples, PROMPT_INJECTION_BITS, undefined, PROMPT_INJECTION_CUES);
}

/** Trains on prepared examples (from {@link preparePromptExamples}) with the shipped settings. */
export function trainPromptInjection(prepared: readonly PreparedExample[], trainedOn: string, options: Partial<HashedTrainOptions> = {}): HashedModel {
  return trainHashedModel(prepared, PROMPT_INJECTION_LABELS, trainedOn, { ...PROMPT_INJECTION_TRAIN_OPTIONS, ...options });
}

function main(): void {
  const trainDir = resolve(process.argv[2] ?? DEFAULT_TRAIN_DIR);
  const started = performance.now();
  const rows = readRows<PromptInjectionRow>(resolve(trainDir, 'prompt-injection.jsonl'));
  const own = ownPromptExamples(trainDir);
  const model = trainPromptInjection(
    preparePromptExamples([...promptInjectionExamples(rows), ...own]),
    `train/prompt-injection.jsonl (${rows.length} rows; each id tag weighted to at most ${TAG_CAP} rows) + ` +
      `${own.length} rows at weight ${OWN_WEIGHT}: scripts/train/data/prompt-injection-own.jsonl, ${SYSTEM_PROMPT_COUNT} benign system prompts (system-prompt-examples.ts), ` +
      `role-play rows (roleplay-examples.ts), ${PROMPT_DOCUMENT_COUNT} prompt documents (prompt-document-examples.ts), ordinary paragraphs in 24 languages (train/language.jsonl), clean rows of train/tool-output.jsonl; logistic regression over hashed ` +
      `character 2-5-grams and word 1-2-grams of the normalised text and structural cues (cues.ts, with the reader-self cue of self-reference.ts in 21 languages), 512-character windows, the best one less ${PROMPT_INJECTION_WINDOW_PENALTY} × ln(windows), features scaled by 1/sqrt(max(count, ${PROMPT_INJECTION_FEATURE_FLOOR})), every negative window its own negative; ${JSON.stringify(PROMPT_INJECTION_TRAIN_OPTIONS)}`,
  );
  writeHashedModel(PROMPT_INJECTION_MODEL, model);
  console.log(`wrote ${PROMPT_INJECTION_MODEL}.{json,bin} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
