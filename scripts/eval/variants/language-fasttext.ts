// lang_detector variant check: fastText's lid.176 (fasttext.wasm.js, not a dependency) as a second opinion added to the model's log-probabilities, on the dev set and both leave-one-source-out folds.
// Run: npx tsx scripts/eval/variants/language-fasttext.ts /tmp/lang-scratch/node_modules   (after `npm i fasttext.wasm.js@1.0.0` there;
//   env: FOLDS=full,ud,tatoeba; WEIGHTS=0.25,0.5,1 (inf: fastText alone among the script's languages); LOWER=1 lower-cases fastText's input; TINYLD=0.5 adds tinyld's log-probability at that weight; fold models are cached as /tmp/lang/variant-base-{ud,tatoeba}, as language-variants.ts CACHE=base writes them)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLanguageModel, loadLanguageModel, type LanguageModel, type LanguageModelMeta } from '../../../plugins/guardrails/lang-detector/language-model.js';
import { LANGUAGE_TRAIN_OPTIONS, quantise, trainLanguageModel, TRAIN_DIR, type LanguageRow } from '../../train/language-model.js';
import { ownLanguageExamples } from '../../train/own-language-words.js';
import { readJsonl } from '../eval-data.js';
import { shortTexts } from '../short-texts.js';

const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');
/** Probability floor for a language fastText gives (almost) nothing. */
const FLOOR = 1e-4;

/** A fold model trained with the shipped options (int16 as shipped), cached in /tmp/lang. */
function foldModel(name: string, rows: LanguageRow[]): LanguageModel {
  const cache = `/tmp/lang/variant-base-${name}`;
  mkdirSync('/tmp/lang', { recursive: true });
  if (!existsSync(`${cache}.json`)) {
    const quantised = quantise(trainLanguageModel(rows, LANGUAGE_TRAIN_OPTIONS));
    writeFileSync(`${cache}.json`, JSON.stringify(quantised.meta));
    writeFileSync(`${cache}.bin`, quantised.bytes);
  }
  const meta = JSON.parse(readFileSync(`${cache}.json`, 'utf8')) as LanguageModelMeta;
  const bytes = readFileSync(`${cache}.bin`);
  return createLanguageModel({ meta, weights: new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) });
}

/** fastText's probability for every label of `text` (one line: newlines become spaces). */
type FastText = (text: string) => Map<string, number>;

async function loadFastText(modules: string): Promise<FastText> {
  const { getLIDModel } = (await import(pathToFileURL(resolve(modules, 'fasttext.wasm.js/dist/main/node.mjs')).href)) as {
    getLIDModel: () => Promise<{ load(): Promise<{ predict(text: string, k: number, threshold: number): { size(): number; get(i: number): [number, string] } }> }>;
  };
  const model = await (await getLIDModel()).load();
  return (text) => {
    const line = text.replace(/\s+/g, ' ');
    const vector = model.predict(process.env.LOWER ? line.toLowerCase() : line, -1, 0);
    const out = new Map<string, number>();
    for (let i = 0; i < vector.size(); i += 1) {
      const [p, label] = vector.get(i);
      out.set(label.replace('__label__', ''), p);
    }
    return out;
  };
}

/** How a combination decides: `scope` says which texts get fastText's opinion. */
interface Combo {
  label: string;
  weight: number;
  scope: (text: string, script: string) => boolean;
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** tinyld's normal model (TINYLD=<weight> adds its log-probability too, as language-detectors.ts combines it). */
type Tinyld = { detectAll(text: string, options: { only: string[] }): Array<{ lang: string; accuracy: number }> };
let tinyld: Tinyld | undefined;
const TINYLD_WEIGHT = Number(process.env.TINYLD ?? 0);

function decide(ours: LanguageModel, ft: FastText, combo: Combo, text: string): string {
  const scores = ours.scores(text);
  if (scores.fixed) return scores.fixed.lang;
  const langs = [...scores.probs.keys()];
  const script = langs.includes('en') ? 'latin' : langs.includes('ru') ? 'cyrillic' : 'arabic';
  const use = combo.weight !== 0 && combo.scope(text, script);
  const other = use ? ft(text) : undefined;
  let total = 0;
  if (other) for (const lang of langs) total += other.get(lang) ?? 0;
  const third = tinyld !== undefined && TINYLD_WEIGHT > 0 ? new Map(tinyld.detectAll(text, { only: langs }).map((r) => [r.lang, r.accuracy])) : undefined;
  const thirdTotal = third ? [...third.values()].reduce((a, b) => a + b, 0) || 1 : 1;
  let best = '';
  let top = -Infinity;
  for (const [lang, p] of scores.probs) {
    const value =
      (combo.weight === Infinity ? (other?.get(lang) ?? 0) : Math.log(p + 1e-9) + (other ? combo.weight * Math.log((other.get(lang) ?? 0) / (total || 1) + FLOOR) : 0)) +
      (third ? TINYLD_WEIGHT * Math.log((third.get(lang) ?? 0) / thirdTotal + 1e-3) : 0);
    if (value > top) [top, best] = [value, lang];
  }
  return best;
}

function score(label: string, decideText: (text: string) => string, rows: LanguageRow[], target: number): string {
  const per = new Map<string, { n: number; ok: number }>();
  let ok = 0;
  for (const row of rows) {
    const stats = per.get(row.labels.lang) ?? { n: 0, ok: 0 };
    per.set(row.labels.lang, stats);
    stats.n += 1;
    if (decideText(row.text) === row.labels.lang) {
      stats.ok += 1;
      ok += 1;
    }
  }
  const under = [...per].filter(([, s]) => s.ok / s.n < target).sort(([a], [b]) => a.localeCompare(b));
  return `${label.padEnd(14)} ${(ok / rows.length).toFixed(4)}  under: ${under.map(([lang, s]) => `${lang} ${(s.ok / s.n).toFixed(3)}`).join(', ') || 'none'}`;
}

async function main(): Promise<void> {
  const modules = resolve(process.argv[2] ?? '/tmp/lang-scratch/node_modules');
  const folds = (process.env.FOLDS ?? 'full,ud,tatoeba').split(',');
  const weights = (process.env.WEIGHTS ?? '0,0.25,0.5,1,2,inf').split(',').map((w) => (w === 'inf' ? Infinity : Number(w)));
  const ft = await loadFastText(modules);
  if (TINYLD_WEIGHT > 0) tinyld = (await import(pathToFileURL(resolve(modules, 'tinyld/dist/tinyld.normal.node.mjs')).href)) as Tinyld;
  const combos: Combo[] = [];
  for (const weight of weights) {
    if (weight === 0) {
      combos.push({ label: 'model alone', weight, scope: () => false });
      continue;
    }
    const w = weight === Infinity ? 'fastText alone' : `w ${weight}`;
    combos.push({ label: `${w} all`, weight, scope: () => true });
    if (weight === Infinity) continue;
    combos.push({ label: `${w} latin`, weight, scope: (_text, script) => script === 'latin' });
    combos.push({ label: `${w} latin ≤4 words`, weight, scope: (text, script) => script === 'latin' && words(text) <= 4 });
  }
  const corpus = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[];
  const sets: Array<[string, LanguageModel, Array<[string, LanguageRow[], number]>]> = [];
  if (folds.includes('full')) {
    const dev = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR, '..'), 'language.jsonl')) as LanguageRow[];
    const shipped = await loadLanguageModel(new URL('../../../plugins/guardrails/lang-detector/', import.meta.url));
    sets.push(['dev', shipped, [['sentences', dev, 0.97], ['short', shortTexts(dev) as LanguageRow[], 0.9]]]);
  }
  for (const [name, leftOut] of [['ud', isTreebank], ['tatoeba', (row: LanguageRow) => !isTreebank(row)]] as const) {
    if (!folds.includes(name)) continue;
    const model = foldModel(name, [...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()]);
    const held = corpus.filter(leftOut);
    sets.push([name, model, [['sentences', held.filter((row) => !isShort(row)), 0.97], ['short', held.filter(isShort), 0.9]]]);
  }
  for (const combo of combos) {
    console.log(`== ${combo.label}`);
    for (const [name, model, parts] of sets) for (const [kind, rows, target] of parts) console.log('  ' + score(`${name} ${kind}`, (text) => decide(model, ft, combo, text), rows, target));
  }
}

await main();
