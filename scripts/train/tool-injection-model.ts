// Trains the toolinjectiondetection model (instructions planted in tool output) on the training corpus and own template rows, and writes the shipped weights.
// Run: npm run train:tool-injection [-- <trainDir>]   (trainDir defaults to ../shared/data/guardrails/train)
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceOf } from '../eval/leave-one-source-out.js';
import { trainHashedModel, writeHashedModel, type HashedTrainOptions, type PreparedExample } from './hashed-trainer.js';
import { seededRandom } from './linear-trainer.js';
import { DEFAULT_TRAIN_DIR, readRows, type PromptInjectionRow } from './prompt-injection-model.js';
import { foreignParagraphs, type LanguageRow } from './foreign-paragraphs.js';
import { ownBenignTexts, ownInstructions, plantInto } from './tool-injection-augment.js';
import { genreTexts, plantedBlocks } from './tool-injection-genres.js';
import { foreignHumanTexts, foreignInstructions } from './tool-injection-multilingual.js';
import { DEFAULT_HASH_BITS } from '../../plugins/guardrails/prompt-injection-detection/hashed-features.js';
import type { HashedModel } from '../../plugins/guardrails/prompt-injection-detection/hashed-model.js';
import { toolWindowBuckets, toolWindows } from '../../plugins/guardrails/tool-injection-detection/segments.js';

/** One row of train/tool-output.jsonl (the dev set has the same format, with more families). */
export interface ToolOutputRow {
  id: string;
  text: string;
  labels: { attack: boolean; family: string };
  source: string;
}

/** The model's outputs: any planted instruction, and jailbreak templates (a jailbreak planted in data is one too). */
export const TOOL_INJECTION_LABELS = ['prompt_injection', 'jailbreak'];

/**
 * The settings the shipped model and the leave-one-source-out folds both use: every sentence window of a text
 * (multiple-instance on positives), and every window of a clean text a negative of its own.
 */
export const TOOL_INJECTION_TRAIN_OPTIONS: Partial<HashedTrainOptions> = {
  epochs: 6,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 7,
  maxWindows: Infinity,
  positiveWindows: 'max',
  balance: { kind: 'windows', negativeMass: 1 },
  // The mean of three models (seeds 7, 1007 and 2007): one shuffle moves the dev false-positive rate by several rows.
  extraSeeds: [1007, 2007],
  window: undefined,
  // A window's summed weights are divided by sqrt(max(features, 200)), not sqrt(features): a short line ("- marketing
  // campaign plans", "content: | personal journal") has too few n-grams for its score to mean much, so it stays near
  // the bias. Leave-one-source-out (one seed): AgentDojo FPR 0.224 to 0.197, tldr 0.470 to 0.453, dev unchanged.
  featureFloor: 200,
  // Scoring only (written to the header): the best window's log-odds less 0.7 × ln(window count), a correction for the
  // highest of many sentences (2026-11-25, seventh session). Chosen on the leave-one-source-out folds with the
  // threshold set on dev: 1 (the value for exponential tails) cut more false positives but put dev recall at 5% FPR
  // under 0.80 for two other base seeds (0.768, 0.792); 0.7 keeps it at 0.840 for base seeds 7, 8 and 9.
  windowPenalty: 0.7,
};

/** A source part (id tag) larger than this counts as this many rows (AgentDojo's 1,148 attacks sit in 37 records). */
export const TOOL_TAG_CAP = 120;

/** prompt-injection.jsonl parts whose texts are requests to an assistant: planted in tool data, each is an instruction to the agent. */
export const REQUEST_TAGS = ['alpacaeval', 'selfinstruct', 'mtbench', 'awesome', 'jbb_goal', 'cse_frr', 'cse_frr_ml', 'cse_pi', 'cse_pi_ml'];
/** The longest request planted (longer ones are mostly jailbreak stories, planted as jailbreaks below). */
const MAX_REQUEST = 800;
/** prompt-injection.jsonl parts that are jailbreak templates: planted in tool data, positives of both outputs. */
export const JAILBREAK_TAGS = ['inthewild', 'jbb_pair', 'jbb_gcg', 'jbb_rs'];
/** The longest jailbreak planted (characters): longer ones are cut at a sentence end, as a tool's page limit would. */
const MAX_JAILBREAK = 4000;
/** Weight of one paragraph of descriptive text in another language. */
const FOREIGN_WEIGHT = 0.5;

/** How many own template texts of each kind, and their weight. */
export const OWN_TOOL_COUNT = 1500;
export const OWN_TOOL_WEIGHT = 0.5;
/** Weight of one gsm8k word problem (its question cut off) used as plain prose. */
const PROSE_WEIGHT = 0.5;
/** Weight of one planted request row. */
const PLANTED_WEIGHT = 1;

/** How many rows of the second set of own templates (tool-injection-genres.ts, tool-injection-multilingual.ts) are used. */
export interface ExtraRows {
  /** Ordinary texts of imperative genres to a human reader (e-mails, chats, notes, events, files, guides): negatives. */
  genres: number;
  /** Planted blocks addressed to the agent, planted into clean texts: positives. */
  blocks: number;
  /** Planted instructions in other languages, planted into clean texts: positives. */
  foreign: number;
  /** Ordinary requests to a human reader in other languages: negatives (and hosts). */
  foreignHuman: number;
  /** Weight of each of these rows. */
  weight: number;
  /** Weight of each planted instruction in another language. */
  foreignWeight: number;
}

/** The shipped amounts of {@link ExtraRows}. */
export const EXTRA_ROWS: ExtraRows = { genres: 0, blocks: 0, foreign: 1500, foreignHuman: 500, weight: 0.5, foreignWeight: 0.5 };

/** Where the shipped model lives. */
export const TOOL_INJECTION_MODEL = fileURLToPath(new URL('../../plugins/guardrails/tool-injection-detection/model', import.meta.url));

/** A row is positive when it is a prompt-injection attack (the corpus has no other family). */
export function isToolInjection(row: ToolOutputRow): boolean {
  return row.labels.attack && row.labels.family === 'prompt_injection';
}

const bucketsOf = (text: string): Array<[string, Uint32Array]> => toolWindowBuckets(text, DEFAULT_HASH_BITS).map(([window, buckets]) => [window, Uint32Array.from(buckets)]);

/** A positive example of the windows of `text` that its clean host does not have (where the instruction sits). */
function diffExample(text: string, host: string, weight: number, jailbreak = false): PreparedExample {
  const clean = new Set(toolWindows(host));
  const all = bucketsOf(text);
  const windows = all.filter(([w]) => !clean.has(w));
  return { windows: (windows.length > 0 ? windows : all).map(([, b]) => b), labels: [true, jailbreak], weight };
}

const example = (text: string, positive: boolean, weight: number): PreparedExample => ({ windows: bucketsOf(text).map(([, b]) => b), labels: [positive, false], weight });

/** A jailbreak template cut to at most MAX_JAILBREAK characters, at a sentence end where there is one. */
function cutJailbreak(text: string): string {
  if (text.length <= MAX_JAILBREAK) return text;
  const head = text.slice(0, MAX_JAILBREAK);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('\n'));
  return end > MAX_JAILBREAK / 2 ? head.slice(0, end + 1) : head;
}

/** Per-row weight of each id tag, capped at TOOL_TAG_CAP rows. */
function tagWeights<T extends { id: string; source: string }>(rows: readonly T[]): (row: T) => number {
  const perTag = new Map<string, number>();
  for (const row of rows) perTag.set(sourceOf(row, 'tag'), (perTag.get(sourceOf(row, 'tag')) ?? 0) + 1);
  return (row) => Math.min(1, TOOL_TAG_CAP / (perTag.get(sourceOf(row, 'tag')) ?? 1));
}

/**
 * The prepared training set of some corpus rows (a fold leaves a repository out of both files):
 * - clean tool rows and own ordinary texts (e-mails, how-tos, pages with requests to the human reader) as negatives;
 * - AgentDojo attack records as positives on the windows their clean record lacks; other attacks multiple-instance;
 * - own planted instructions and assistant requests from prompt-injection.jsonl planted into clean texts, positive on
 *   the windows around the instruction.
 * `conversations` (none in the shipped model; a variant of tool-injection-experiment.ts, `--conversation`) are more
 * clean texts, negatives and hosts, at `conversationWeight` each.
 */
export function toolTrainingSet(toolRows: readonly ToolOutputRow[], promptRows: readonly PromptInjectionRow[], languageRows: readonly LanguageRow[] = [], seed = 20261126, extra: ExtraRows = EXTRA_ROWS, conversations: readonly string[] = [], conversationWeight = 0.5): PreparedExample[] {
  const random = seededRandom(seed);
  const weightOf = tagWeights(toolRows);
  const out: PreparedExample[] = [];
  const cleanById = new Map(toolRows.filter((r) => !isToolInjection(r)).map((r) => [r.id, r.text]));
  const hosts: string[] = [];
  for (const row of toolRows) {
    if (!isToolInjection(row)) {
      out.push(example(row.text, false, weightOf(row)));
      if (row.text.length < 3000) hosts.push(row.text);
      continue;
    }
    const match = /^(.*)_inj-(\d+)_\d+$/.exec(row.id);
    const clean = match ? cleanById.get(`${match[1]}-${match[2]}`) : undefined;
    out.push(clean === undefined ? example(row.text, true, weightOf(row)) : diffExample(row.text, clean, weightOf(row)));
  }
  // Word problems without their final question: plain declarative prose, from the same corpus file.
  for (const row of promptRows) {
    if (sourceOf(row, 'tag') !== 'gsm8k') continue;
    const prose = row.text.replace(/[^.!?]*\?\s*$/, '').trim();
    if (prose.length < 40) continue;
    out.push(example(prose, false, PROSE_WEIGHT));
    hosts.push(prose);
  }
  for (const paragraph of foreignParagraphs(languageRows)) {
    out.push(example(paragraph, false, FOREIGN_WEIGHT));
    hosts.push(paragraph);
  }
  for (const text of conversations) {
    out.push(example(text, false, conversationWeight));
    hosts.push(text);
  }
  const own = ownBenignTexts(OWN_TOOL_COUNT);
  for (const text of own) out.push(example(text, false, OWN_TOOL_WEIGHT));
  hosts.push(...own);
  const genres = [...genreTexts(extra.genres), ...foreignHumanTexts(extra.foreignHuman)];
  for (const text of genres) out.push(example(text, false, extra.weight));
  hosts.push(...genres);
  for (const instruction of plantedBlocks(extra.blocks)) {
    const host = hosts[Math.floor(random() * hosts.length)] as string;
    out.push(diffExample(plantInto(host, instruction, random), host, extra.weight));
  }
  for (const instruction of foreignInstructions(extra.foreign)) {
    const host = hosts[Math.floor(random() * hosts.length)] as string;
    out.push(diffExample(plantInto(host, instruction, random), host, extra.foreignWeight));
  }
  const requests = promptRows.filter((r) => REQUEST_TAGS.includes(sourceOf(r, 'tag')) && r.text.length <= MAX_REQUEST);
  const requestWeight = tagWeights(requests);
  for (const instruction of ownInstructions(OWN_TOOL_COUNT)) {
    const host = hosts[Math.floor(random() * hosts.length)] as string;
    out.push(diffExample(plantInto(host, instruction, random), host, OWN_TOOL_WEIGHT));
  }
  for (const row of requests) {
    const host = hosts[Math.floor(random() * hosts.length)] as string;
    out.push(diffExample(plantInto(host, row.text, random), host, PLANTED_WEIGHT * requestWeight(row)));
  }
  const jailbreaks = promptRows.filter((r) => JAILBREAK_TAGS.includes(sourceOf(r, 'tag')));
  const jailbreakWeight = tagWeights(jailbreaks);
  for (const row of jailbreaks) {
    const host = hosts[Math.floor(random() * hosts.length)] as string;
    out.push(diffExample(plantInto(host, cutJailbreak(row.text), random), host, PLANTED_WEIGHT * jailbreakWeight(row), true));
  }
  return out;
}

/** Trains on prepared examples with the shipped settings. */
export function trainToolInjection(prepared: readonly PreparedExample[], trainedOn: string, options: Partial<HashedTrainOptions> = {}): HashedModel {
  return trainHashedModel(prepared, TOOL_INJECTION_LABELS, trainedOn, { ...TOOL_INJECTION_TRAIN_OPTIONS, ...options });
}

function main(): void {
  const trainDir = resolve(process.argv[2] ?? DEFAULT_TRAIN_DIR);
  const started = performance.now();
  const rows = readRows<ToolOutputRow>(resolve(trainDir, 'tool-output.jsonl'));
  const prompts = readRows<PromptInjectionRow>(resolve(trainDir, 'prompt-injection.jsonl'));
  const languages = readRows<LanguageRow>(resolve(trainDir, 'language.jsonl'));
  const model = trainToolInjection(
    toolTrainingSet(rows, prompts, languages),
    `train/tool-output.jsonl (${rows.length} rows; each id tag weighted to at most ${TOOL_TAG_CAP} rows; AgentDojo attacks on the windows their clean record lacks), ` +
      `assistant requests from train/prompt-injection.jsonl (${REQUEST_TAGS.join(', ')}) and jailbreak templates (${JAILBREAK_TAGS.join(', ')}; both outputs) planted into clean texts, ` +
      `UD paragraphs in 24 languages from train/language.jsonl (negatives), and ${2 * OWN_TOOL_COUNT} template rows ` +
      `(scripts/train/tool-injection-augment.ts: ordinary e-mails, how-tos and pages; planted instructions; weight ${OWN_TOOL_WEIGHT}), ` +
      `own rows in other languages ${JSON.stringify(EXTRA_ROWS)} (tool-injection-multilingual.ts: planted instructions and requests to a human in 22 languages), ` +
      `logistic regression over hashed character 2-5-grams and word 1-2-grams of the normalised text plus cross-language concept tokens (concepts.ts) and a reference-page feature on every window of a command reference (reference-page.ts), read per sentence or line; ${JSON.stringify(TOOL_INJECTION_TRAIN_OPTIONS)}`,
  );
  writeHashedModel(TOOL_INJECTION_MODEL, model);
  console.log(`wrote ${TOOL_INJECTION_MODEL}.{json,bin} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
