// lang_detector variant check: trains the full model and both leave-one-source-out fold models with option overrides, then scores dev and folds per language.
// Run: VARIANT='{"l2":0.001}' npx tsx scripts/eval/variants/language-variants.ts   (env: FOLDS=full,ud,tatoeba; CACHE=name keeps models in /tmp/lang;
//   META='{"namesPrior":3}' overrides header fields at detection; PSEUDO=1 adds the self-labelled machine-translated rows, see language-self-labels.ts;
//   BIAS_SCALE=0.5 scales the class biases at detection; DICT=2000 adds that many spelling-dictionary stems per language (DICT_FORMS=1: inflected forms too), see language-dictionary-words.ts)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createLanguageModel, type LanguageModel, type LanguageModelData, type LanguageModelMeta } from '../../../plugins/guardrails/lang-detector/language-model.js';
import { LANGUAGE_TRAIN_OPTIONS, quantise, trainLanguageModel, TRAIN_DIR, type LanguageRow, type LanguageTrainOptions } from '../../train/language-model.js';
import { ownLanguageExamples } from '../../train/own-language-words.js';
import { readJsonl } from '../eval-data.js';
import { pseudoLabelledRows } from './language-self-labels.js';
import { dictionaryRows } from './language-dictionary-words.js';
import { shortTexts } from '../short-texts.js';

const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');

/** A model trained on `rows` with `options` (int16 as shipped), or read from the cache. */
function model(name: string, rows: LanguageRow[], options: LanguageTrainOptions): LanguageModel {
  const cache = process.env.CACHE ? `/tmp/lang/variant-${process.env.CACHE}-${name}` : undefined;
  let meta: LanguageModelMeta;
  let weights: Int16Array;
  if (cache !== undefined) mkdirSync('/tmp/lang', { recursive: true });
  if (cache !== undefined && existsSync(`${cache}.json`)) {
    meta = JSON.parse(readFileSync(`${cache}.json`, 'utf8')) as LanguageModelMeta;
    const bytes = readFileSync(`${cache}.bin`);
    weights = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  } else {
    const quantised = quantise(trainLanguageModel(rows, options));
    meta = quantised.meta;
    weights = new Int16Array(quantised.bytes.buffer.slice(quantised.bytes.byteOffset, quantised.bytes.byteOffset + quantised.bytes.byteLength));
    if (cache !== undefined) {
      writeFileSync(`${cache}.json`, JSON.stringify(meta));
      writeFileSync(`${cache}.bin`, quantised.bytes);
    }
  }
  const overrides = JSON.parse(process.env.META ?? '{}') as Partial<LanguageModelMeta>;
  // BIAS_SCALE=0.5: every class bias times that factor at detection (0: a uniform prior over the script's languages).
  if (process.env.BIAS_SCALE) overrides.bias = meta.bias.map((b) => b * Number(process.env.BIAS_SCALE));
  const data: LanguageModelData = { meta: { ...meta, ...overrides }, weights };
  return createLanguageModel(data);
}

function score(label: string, detector: LanguageModel, rows: LanguageRow[], target: number): void {
  const per = new Map<string, { n: number; ok: number }>();
  let ok = 0;
  for (const row of rows) {
    const stats = per.get(row.labels.lang) ?? { n: 0, ok: 0 };
    per.set(row.labels.lang, stats);
    stats.n += 1;
    if (detector.detect(row.text).lang === row.labels.lang) {
      stats.ok += 1;
      ok += 1;
    }
  }
  const under = [...per].filter(([, s]) => s.ok / s.n < target).sort(([a], [b]) => a.localeCompare(b));
  const watch = ['es', 'pt', 'it', 'fr', 'nl', 'en'].map((lang) => `${lang} ${((per.get(lang)?.ok ?? 0) / (per.get(lang)?.n ?? 1)).toFixed(3)}`);
  console.log(`${label.padEnd(16)} ${(ok / rows.length).toFixed(4)}  under: ${under.map(([lang, s]) => `${lang} ${(s.ok / s.n).toFixed(3)}`).join(', ') || 'none'}  | ${watch.join(' ')}`);
}

async function main(): Promise<void> {
  const options: LanguageTrainOptions = { ...LANGUAGE_TRAIN_OPTIONS, ...(JSON.parse(process.env.VARIANT ?? '{}') as Partial<LanguageTrainOptions>) };
  const folds = (process.env.FOLDS ?? 'full,ud,tatoeba').split(',');
  const corpus = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[];
  // DICT=<n>: n seeded stems of each language's spelling dictionary as one-word rows (see language-dictionary-words.ts).
  const dict = process.env.DICT ? dictionaryRows(process.env.DICT_MODULES ?? '/tmp/lang-scratch/node_modules', Number(process.env.DICT), process.env.DICT_LANGS?.split(',')) : [];
  const own = [...ownLanguageExamples(), ...dict];
  // PSEUDO=1: add the machine-translated rows labelled by the cached base model of the same fold (CACHE=base run first).
  const pseudo = (name: string): LanguageRow[] => {
    if (!process.env.PSEUDO) return [];
    const saved = process.env.CACHE;
    process.env.CACHE = 'base';
    const labeller = model(name, [], options);
    process.env.CACHE = saved;
    const rows = pseudoLabelledRows(labeller, TRAIN_DIR);
    const per = new Map<string, number>();
    for (const row of rows) per.set(row.labels.lang, (per.get(row.labels.lang) ?? 0) + 1);
    console.log(`${name}: ${rows.length} self-labelled rows (${[...per].map(([l, n]) => `${l} ${n}`).join(' ')})`);
    return rows;
  };
  console.log(`variant ${process.env.VARIANT ?? '{}'} meta ${process.env.META ?? '{}'}`);
  if (folds.includes('full')) {
    const dev = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR, '..'), 'language.jsonl')) as LanguageRow[];
    const detector = model('full', [...corpus, ...own, ...pseudo('full')], options);
    score('dev sentences', detector, dev, 0.97);
    score('dev short', detector, shortTexts(dev) as LanguageRow[], 0.9);
  }
  for (const [name, leftOut] of [['ud', isTreebank], ['tatoeba', (row: LanguageRow) => !isTreebank(row)]] as const) {
    if (!folds.includes(name)) continue;
    const detector = model(name, [...corpus.filter((row) => !leftOut(row)), ...own, ...pseudo(name)], options);
    const held = corpus.filter(leftOut);
    score(`${name} sentences`, detector, held.filter((row) => !isShort(row)), 0.97);
    score(`${name} short`, detector, held.filter(isShort), 0.9);
  }
}

await main();
