// Trains lang_detector's model on the corpus's language.jsonl and writes language-model.json and language-weights.bin beside the plugin.
// Run: npm run train:language   (deterministic: seeded order and crops)
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forEachFeature, normaliseCasedForLanguage, normaliseForLanguage, type Script } from '../../plugins/guardrails/lang-detector/language-features.js';
import { capitalisedWords } from '../../plugins/guardrails/lang-detector/text-cues.js';
import type { LanguageModelData, LanguageModelMeta } from '../../plugins/guardrails/lang-detector/language-model.js';
import { seededRandom, shuffle } from './linear-trainer.js';
import { ownLanguageExamples } from './own-language-words.js';
import { readJsonl } from './trust-safety-model.js';

/** Languages the model separates, per script; every other supported language is named by its script alone. */
export const SCRIPT_LANGUAGES: Partial<Record<Script, string[]>> = {
  latin: ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'tr', 'vi', 'id', 'sv', 'cs'],
  cyrillic: ['ru', 'uk'],
  arabic: ['ar', 'fa'],
};

/** Training settings of the shipped model. */
export interface LanguageTrainOptions {
  buckets: number;
  epochs: number;
  learningRate: number;
  /** Extra short crops (1 to 4 words) cut from each training sentence, so short texts are seen in training. */
  cropsPerSentence: number;
  /** How many times each whole word counts among a text's features. */
  wordWeight: number;
  /** Models trained with seeds `seed`, `seed + 1`, … whose weights are averaged (less dependence on one order). */
  averageOf: number;
  seed: number;
  /** Logit taken from a language per letter its alphabet lacks, at detection (written to the header). */
  orthographyPenalty: number;
  /** Weight, at detection, of the features of a capitalised word that does not open the text (a name; header). */
  capitalWeight: number;
  /** Logits added to English, at detection, for a text of capitalised ASCII words only (names, titles; header). */
  namesPrior: number;
  /** L2 penalty on the weights a text touches, applied with each update (0 or absent: none). */
  l2?: number;
  /** Shortest and longest crop in words (1 and 4 when absent). */
  cropMin?: number;
  cropMax?: number;
  /** Weigh capitalised words (names) by `capitalWeight` in training too, as at detection. */
  capitalsInTraining?: boolean;
  /** Label smoothing: the share of each text's target spread evenly over its script's languages (0 or absent: none). */
  labelSmoothing?: number;
  /** Average the weights at the end of each epoch from this one (0-based) on, instead of taking the last (absent: the last). */
  averageFrom?: number;
  /** Share of a text's features left out at random in each epoch (0 or absent: none). */
  dropout?: number;
}

export const LANGUAGE_TRAIN_OPTIONS: LanguageTrainOptions = { buckets: 1 << 16, epochs: 6, learningRate: 0.4, cropsPerSentence: 4, wordWeight: 4, averageOf: 5, seed: 7, orthographyPenalty: 2, capitalWeight: 0.4, namesPrior: 2 };

/** One corpus row. */
export interface LanguageRow {
  id: string;
  text: string;
  labels: { lang: string };
  source: string;
}

/** Words of a text, for cropping. */
function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => /\p{L}/u.test(word));
}

/** The training texts: every row, plus seeded crops of 1 to 4 consecutive words from each sentence. */
function trainingTexts(rows: LanguageRow[], options: LanguageTrainOptions, random: () => number): Array<{ text: string; lang: string }> {
  const out: Array<{ text: string; lang: string }> = [];
  for (const row of rows) {
    out.push({ text: row.text, lang: row.labels.lang });
    const list = words(row.text);
    if (list.length < 3) continue;
    for (let k = 0; k < options.cropsPerSentence; k += 1) {
      const size = (options.cropMin ?? 1) + Math.floor(random() * ((options.cropMax ?? 4) - (options.cropMin ?? 1) + 1));
      const start = Math.floor(random() * Math.max(1, list.length - size + 1));
      out.push({ text: list.slice(start, start + size).join(' '), lang: row.labels.lang });
    }
  }
  return out;
}

/**
 * Softmax regression with AdaGrad over hashed features, `averageOf` times with consecutive seeds, weights and biases
 * averaged. Each text is scored only against the classes of its own script, as at detection time. Answers float
 * weights; `quantise` turns them into the shipped int16 file.
 */
export function trainLanguageModel(rows: LanguageRow[], options: LanguageTrainOptions = LANGUAGE_TRAIN_OPTIONS, trainedOn = ''): LanguageModelData {
  const runs = Math.max(1, options.averageOf);
  const models = Array.from({ length: runs }, (_, k) => trainOnce(rows, { ...options, seed: options.seed + k }, trainedOn));
  const first = models[0] as LanguageModelData;
  if (runs === 1) return first;
  const weights = new Float32Array(first.weights.length);
  for (const model of models) model.weights.forEach((w, i) => (weights[i] = (weights[i] as number) + w / runs));
  const bias = first.meta.bias.map((_, c) => Math.round((models.reduce((sum, model) => sum + (model.meta.bias[c] as number), 0) / runs) * 10_000) / 10_000);
  return { meta: { ...first.meta, bias }, weights };
}

/** One training run with one seed. */
function trainOnce(rows: LanguageRow[], options: LanguageTrainOptions, trainedOn: string): LanguageModelData {
  const languages = Object.values(SCRIPT_LANGUAGES).flat();
  const classes = languages.length;
  const classIndex = new Map(languages.map((lang, i) => [lang, i]));
  const groupOf = new Map<string, number[]>();
  for (const langs of Object.values(SCRIPT_LANGUAGES)) {
    const ids = langs.map((lang) => classIndex.get(lang) as number);
    for (const lang of langs) groupOf.set(lang, ids);
  }
  const random = seededRandom(options.seed);
  const texts = trainingTexts(rows.filter((row) => classIndex.has(row.labels.lang)), options, random);
  const examples = texts.map(({ text, lang }) => {
    const counts = new Map<number, number>();
    const n = options.capitalsInTraining === true ? weighedFeatures(text, options, counts) : forEachFeature(normaliseForLanguage(text), options.buckets, (bucket) => counts.set(bucket, (counts.get(bucket) ?? 0) + 1), options.wordWeight);
    const scale = n > 0 ? 1 / Math.sqrt(n) : 0;
    return { buckets: [...counts.keys()], values: [...counts.values()].map((count) => count * scale), label: classIndex.get(lang) as number, group: groupOf.get(lang) as number[] };
  });
  const weights = new Float32Array(options.buckets * classes);
  const squares = new Float32Array(options.buckets * classes).fill(1e-6);
  const bias = new Float64Array(classes);
  const biasSquares = new Float64Array(classes).fill(1e-6);
  const scores = new Float64Array(classes);
  const order = examples.map((_, i) => i);
  const l2 = options.l2 ?? 0;
  const dropout = options.dropout ?? 0;
  const smoothing = options.labelSmoothing ?? 0;
  const averageFrom = options.averageFrom;
  const averaged = new Float32Array(averageFrom === undefined ? 0 : weights.length);
  const averagedBias = new Float64Array(classes);
  let snapshots = 0;
  for (let epoch = 0; epoch < options.epochs; epoch += 1) {
    for (const i of shuffle(order, random)) {
      const full = examples[i] as (typeof examples)[number];
      const example = dropout > 0 ? dropFeatures(full, dropout, random) : full;
      let top = -Infinity;
      for (const c of example.group) {
        let sum = bias[c] as number;
        example.buckets.forEach((bucket, k) => (sum += (weights[bucket * classes + c] as number) * (example.values[k] as number)));
        scores[c] = sum;
        if (sum > top) top = sum;
      }
      let z = 0;
      for (const c of example.group) z += Math.exp((scores[c] as number) - top);
      for (const c of example.group) {
        const target = smoothing > 0 ? (c === example.label ? 1 - smoothing : 0) + smoothing / example.group.length : c === example.label ? 1 : 0;
        const error = Math.exp((scores[c] as number) - top) / z - target;
        if (Math.abs(error) < 1e-4) continue;
        example.buckets.forEach((bucket, k) => {
          const at = bucket * classes + c;
          const g = error * (example.values[k] as number) + l2 * (weights[at] as number);
          squares[at] = (squares[at] as number) + g * g;
          weights[at] = (weights[at] as number) - (options.learningRate * g) / Math.sqrt(squares[at] as number);
        });
        biasSquares[c] = (biasSquares[c] as number) + error * error;
        bias[c] = (bias[c] as number) - (options.learningRate * error) / Math.sqrt(biasSquares[c] as number);
      }
    }
    if (averageFrom !== undefined && epoch >= averageFrom) {
      for (let at = 0; at < weights.length; at += 1) averaged[at] = (averaged[at] as number) + (weights[at] as number);
      for (let c = 0; c < classes; c += 1) averagedBias[c] = (averagedBias[c] as number) + (bias[c] as number);
      snapshots += 1;
    }
  }
  if (snapshots > 0) {
    for (let at = 0; at < weights.length; at += 1) weights[at] = (averaged[at] as number) / snapshots;
    for (let c = 0; c < classes; c += 1) bias[c] = (averagedBias[c] as number) / snapshots;
  }
  const meta: LanguageModelMeta = {
    languages,
    scriptLanguages: SCRIPT_LANGUAGES,
    buckets: options.buckets,
    ...(options.wordWeight === 1 ? {} : { wordWeight: options.wordWeight }),
    ...(options.orthographyPenalty > 0 ? { orthographyPenalty: options.orthographyPenalty } : {}),
    ...(options.capitalWeight === 1 ? {} : { capitalWeight: options.capitalWeight }),
    ...(options.namesPrior === 0 ? {} : { namesPrior: options.namesPrior }),
    scale: 1,
    bias: [...bias].map((b) => Math.round(b * 10_000) / 10_000),
    trainedOn,
  };
  return { meta, weights };
}

/** Counts a text's features into `counts` as detection weighs them (a capitalised word that is not the first counts `capitalWeight` times); answers their total weight. */
function weighedFeatures(text: string, options: LanguageTrainOptions, counts: Map<number, number>): number {
  const cased = normaliseCasedForLanguage(text);
  const lower = cased.toLowerCase();
  const flags = options.capitalWeight !== 1 ? capitalisedWords(cased, lower) : undefined;
  if (flags === undefined) return forEachFeature(lower, options.buckets, (bucket) => counts.set(bucket, (counts.get(bucket) ?? 0) + 1), options.wordWeight);
  let n = 0;
  lower.split(' ').forEach((word, i) => {
    const factor = flags[i] === true ? options.capitalWeight : 1;
    n += factor * forEachFeature(word, options.buckets, (bucket) => counts.set(bucket, (counts.get(bucket) ?? 0) + factor), options.wordWeight);
  });
  return n;
}

/** A copy of a training example without a random share of its features, the rest rescaled to the same total. */
function dropFeatures<T extends { buckets: number[]; values: number[] }>(example: T, share: number, random: () => number): T {
  const buckets: number[] = [];
  const values: number[] = [];
  for (let k = 0; k < example.buckets.length; k += 1) {
    if (random() < share) continue;
    buckets.push(example.buckets[k] as number);
    values.push((example.values[k] as number) / (1 - share));
  }
  return { ...example, buckets, values };
}

/** Int16 weights with one scale, as shipped (the largest weight maps to 32767). */
export function quantise(data: LanguageModelData): { meta: LanguageModelMeta; bytes: Buffer } {
  let max = 0;
  for (const w of data.weights) max = Math.max(max, Math.abs(w));
  const scale = max / 32767 || 1;
  const bytes = Buffer.alloc(data.weights.length * 2);
  data.weights.forEach((w, i) => bytes.writeInt16LE(Math.round(w / scale), i * 2));
  return { meta: { ...data.meta, scale }, bytes };
}

/** The corpus folder: ../shared/data/guardrails/train beside the repository. */
export const TRAIN_DIR = fileURLToPath(new URL('../../../shared/data/guardrails/train', import.meta.url));

function main(): void {
  const dir = resolve(process.argv[2] ?? TRAIN_DIR);
  const rows = readJsonl<LanguageRow>(resolve(dir, 'language.jsonl'));
  const own = ownLanguageExamples();
  const started = performance.now();
  const trainedOn =
    `corpus train/language.jsonl (${rows.length} rows: UD treebanks and Tatoeba via LASER, 25 languages) and ${own.length} hand-written ` +
    `rows (common words and sentences, scripts/train/data/language-own-*.txt), ${LANGUAGE_TRAIN_OPTIONS.cropsPerSentence} seeded 1-4 word crops per sentence; ` +
    `softmax regression, ${JSON.stringify(LANGUAGE_TRAIN_OPTIONS)}`;
  const { meta, bytes } = quantise(trainLanguageModel([...rows, ...own], LANGUAGE_TRAIN_OPTIONS, trainedOn));
  const folder = new URL('../../plugins/guardrails/lang-detector/', import.meta.url);
  writeFileSync(new URL('language-model.json', folder), `${JSON.stringify(meta, null, 1)}\n`);
  writeFileSync(new URL('language-weights.bin', folder), bytes);
  console.log(`trained in ${((performance.now() - started) / 1000).toFixed(1)} s; wrote ${bytes.length} bytes of weights`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
