// Experiment helper (not shipped): trains the leave-one-source-out models and prints per-language accuracy, confusions and misses.
import { resolve } from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createLanguageModel, type LanguageModelData, type LanguageModelMeta } from '../../plugins/guardrails/lang-detector/language-model.js';
import { LANGUAGE_TRAIN_OPTIONS, SCRIPT_LANGUAGES, trainLanguageModel, TRAIN_DIR, type LanguageRow } from '../train/language-model.js';
import { ownLanguageExamples } from '../train/own-language-words.js';
import { readJsonl } from './eval-data.js';
import { forEachFeature, normaliseForLanguage } from '../../plugins/guardrails/lang-detector/language-features.js';
import { shortTexts } from './short-texts.js';

const corpus = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[];
const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');
const dev = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR, '..'), 'language.jsonl')) as LanguageRow[];
const languages = Object.values(SCRIPT_LANGUAGES).flat();
/** Overrides the detection-time cues from the environment (CAP_WEIGHT, NAMES_PRIOR) for experiments. */
function withWords(data: LanguageModelData, _rows: LanguageRow[]): LanguageModelData {
  const meta = { ...data.meta };
  if (process.env.CAP_WEIGHT) meta.capitalWeight = Number(process.env.CAP_WEIGHT);
  if (process.env.NAMES_PRIOR) meta.namesPrior = Number(process.env.NAMES_PRIOR);
  return { meta, weights: data.weights };
}
/** Multinomial naive Bayes over the hashed n-gram buckets (experiment): ln P(bucket | class) per class, from `rows`. */
function naiveBayes(rows: LanguageRow[], buckets: number): (text: string, langs: string[]) => Map<string, number> {
  const classes = languages.length;
  const counts = new Float32Array(buckets * classes);
  const totals = new Float64Array(classes);
  const alpha = Number(process.env.NB_ALPHA ?? 0.1);
  for (const row of rows) {
    const c = languages.indexOf(row.labels.lang);
    if (c < 0) continue;
    forEachFeature(normaliseForLanguage(row.text), buckets, (b) => { counts[b * classes + c] += 1; totals[c] += 1; }, 1);
  }
  const occupied = new Float64Array(classes);
  for (let b = 0; b < buckets; b += 1) for (let c = 0; c < classes; c += 1) if (counts[b * classes + c]! > 0) occupied[c] += 1;
  return (text, langs) => {
    const out = new Map<string, number>(langs.map((l) => [l, 0]));
    let n = 0;
    forEachFeature(normaliseForLanguage(text), buckets, (b) => {
      n += 1;
      for (const l of langs) { const c = languages.indexOf(l); out.set(l, out.get(l)! + Math.log((counts[b * classes + c]! + alpha) / (totals[c]! + alpha * buckets))); }
    }, 1);
    const power = Number(process.env.NB_POWER ?? 0);
    for (const l of langs) out.set(l, out.get(l)! / Math.pow(Math.max(n, 1), power));
    return out;
  };
}
const show = new Set((process.env.SHOW ?? '').split(',').filter(Boolean));
const folds = (process.env.FOLDS ?? 'ud,tatoeba').split(',');
for (const [name, leftOut] of [['ud', isTreebank], ['tatoeba', (row: LanguageRow) => !isTreebank(row)], ['dev', (_row: LanguageRow) => false]] as const) {
  if (!folds.includes(name)) continue;
  const cache = process.env.CACHE ? `/tmp/lang-exp/${process.env.CACHE}-${name}` : undefined;
  let data: LanguageModelData;
  if (cache && existsSync(`${cache}.json`)) {
    const b = readFileSync(`${cache}.bin`);
    data = { meta: JSON.parse(readFileSync(`${cache}.json`, 'utf8')) as LanguageModelMeta, weights: new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) };
  } else {
    data = trainLanguageModel([...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()], LANGUAGE_TRAIN_OPTIONS);
    if (cache) {
      writeFileSync(`${cache}.json`, JSON.stringify(data.meta));
      writeFileSync(`${cache}.bin`, Buffer.from(data.weights.buffer, data.weights.byteOffset, data.weights.byteLength));
    }
  }
  const model = createLanguageModel(withWords(data, [...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()]));
  const nbWeight = Number(process.env.NB ?? 0);
  const nb = nbWeight > 0 ? naiveBayes([...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()], 1 << 16) : undefined;
  const detect = (text: string): string => {
    if (nb === undefined) return model.detect(text).lang;
    const s = model.scores(text);
    if (s.fixed) return s.fixed.lang;
    const langs = [...s.probs.keys()];
    const extra = nb(text, langs);
    let best = ''; let top = -Infinity;
    for (const l of langs) { const v = (process.env.NB_ONLY ? 0 : Math.log(s.probs.get(l)! + 1e-12)) + nbWeight * extra.get(l)!; if (v > top) { top = v; best = l; } }
    return best;
  };
  const held = name === 'dev' ? [...dev, ...shortTexts(dev).map((row) => ({ ...row, source: 'dev' }))] : corpus.filter(leftOut);
  for (const [kind, rows] of [['sentences', held.filter((row) => !isShort(row))], ['short', held.filter(isShort)]] as const) {
    const per = new Map<string, { n: number; ok: number; conf: Map<string, number> }>();
    let ok = 0;
    const misses: string[] = [];
    for (const row of rows) {
      const got = detect(row.text);
      const s = per.get(row.labels.lang) ?? { n: 0, ok: 0, conf: new Map() };
      per.set(row.labels.lang, s);
      s.n += 1;
      if (got === row.labels.lang) { s.ok += 1; ok += 1; } else {
        s.conf.set(got, (s.conf.get(got) ?? 0) + 1);
        if (name !== 'dev' && show.has(row.labels.lang) || show.has('all')) misses.push(`  ${row.labels.lang}->${got}: ${row.text.slice(0, 140)}`);
      }
    }
    const langs = [...per].sort(([a], [b]) => a.localeCompare(b));
    const target = kind === 'short' ? 0.9 : 0.97;
    console.log(`${name} ${kind}: ${(ok / rows.length).toFixed(3)} min ${Math.min(...langs.map(([, s]) => s.ok / s.n)).toFixed(3)}`);
    console.log('  ' + langs.filter(([, s]) => !process.env.COMPACT || s.ok / s.n < target).map(([l, s]) => `${l} ${(s.ok / s.n).toFixed(3)}${s.ok / s.n < target ? '*' : ''}${s.conf.size ? '(' + [...s.conf].map(([c, k]) => c + k).join(' ') + ')' : ''}`).join('  '));
    for (const m of misses) console.log(m);
  }
}
