// lang_detector diagnostics: per-language accuracy and confusions of each leave-one-source-out fold (and the dev set), with the misses of chosen languages (train-set folds only).
// Run: npx tsx scripts/eval/language-loso-confusions.ts   (env: SHOW=en,uk to list those misses; FOLDS=ud,tatoeba,dev; CACHE=name keeps the trained models in /tmp; CAP_WEIGHT, NAMES_PRIOR override the header's cues)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createLanguageModel, type LanguageModelData, type LanguageModelMeta } from '../../plugins/guardrails/lang-detector/language-model.js';
import { LANGUAGE_TRAIN_OPTIONS, trainLanguageModel, TRAIN_DIR, type LanguageRow } from '../train/language-model.js';
import { ownLanguageExamples } from '../train/own-language-words.js';
import { readJsonl } from './eval-data.js';
import { shortTexts } from './short-texts.js';

const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');

/** A fold's model: trained on `rows`, or read from the CACHE folder when a previous run wrote it. */
function foldModel(name: string, rows: LanguageRow[]): LanguageModelData {
  const cache = process.env.CACHE ? `/tmp/lang-loso-${process.env.CACHE}-${name}` : undefined;
  let data: LanguageModelData;
  if (cache !== undefined && existsSync(`${cache}.json`)) {
    const bytes = readFileSync(`${cache}.bin`);
    data = { meta: JSON.parse(readFileSync(`${cache}.json`, 'utf8')) as LanguageModelMeta, weights: new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) };
  } else {
    data = trainLanguageModel(rows, LANGUAGE_TRAIN_OPTIONS);
    if (cache !== undefined) {
      writeFileSync(`${cache}.json`, JSON.stringify(data.meta));
      writeFileSync(`${cache}.bin`, Buffer.from(data.weights.buffer, data.weights.byteOffset, data.weights.byteLength));
    }
  }
  const meta = { ...data.meta };
  if (process.env.CAP_WEIGHT) meta.capitalWeight = Number(process.env.CAP_WEIGHT);
  if (process.env.NAMES_PRIOR) meta.namesPrior = Number(process.env.NAMES_PRIOR);
  return { meta, weights: data.weights };
}

async function main(): Promise<void> {
  const corpus = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[];
  const dev = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR, '..'), 'language.jsonl')) as LanguageRow[];
  const show = new Set((process.env.SHOW ?? '').split(',').filter(Boolean));
  const folds = (process.env.FOLDS ?? 'ud,tatoeba').split(',');
  const sets = [['ud', isTreebank], ['tatoeba', (row: LanguageRow) => !isTreebank(row)], ['dev', () => false]] as const;
  for (const [name, leftOut] of sets) {
    if (!folds.includes(name)) continue;
    const model = createLanguageModel(foldModel(name, [...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()]));
    // The dev set is only scored: its misses are never listed (rules and rows must not be written from them).
    const held = name === 'dev' ? [...dev, ...shortTexts(dev).map((row) => ({ ...row, source: 'dev' }))] : corpus.filter(leftOut);
    for (const [kind, rows] of [['sentences', held.filter((row) => !isShort(row))], ['short', held.filter(isShort)]] as const) {
      const per = new Map<string, { n: number; ok: number; confusions: Map<string, number> }>();
      const misses: string[] = [];
      let ok = 0;
      for (const row of rows) {
        const got = model.detect(row.text).lang;
        const stats = per.get(row.labels.lang) ?? { n: 0, ok: 0, confusions: new Map<string, number>() };
        per.set(row.labels.lang, stats);
        stats.n += 1;
        if (got === row.labels.lang) {
          stats.ok += 1;
          ok += 1;
        } else {
          stats.confusions.set(got, (stats.confusions.get(got) ?? 0) + 1);
          if (name !== 'dev' && show.has(row.labels.lang)) misses.push(`  ${row.labels.lang}->${got}: ${row.text.slice(0, 140)}`);
        }
      }
      const target = kind === 'short' ? 0.9 : 0.97;
      const languages = [...per].sort(([a], [b]) => a.localeCompare(b));
      console.log(`${name} ${kind}: ${(ok / rows.length).toFixed(3)}`);
      const cell = ([lang, s]: (typeof languages)[number]): string =>
        `${lang} ${(s.ok / s.n).toFixed(3)}${s.ok / s.n < target ? '*' : ''}${s.confusions.size > 0 ? `(${[...s.confusions].map(([c, k]) => `${c}${k}`).join(' ')})` : ''}`;
      console.log(`  ${languages.map(cell).join('  ')}`);
      for (const miss of misses) console.log(miss);
    }
  }
}

await main();
