// Compares lang_detector's model with maintained detectors on the dev set: accuracy, resident memory and load time, each in a fresh process.
// Run: npx tsx scripts/eval/language-detectors.ts <node_modules folder holding eld, tinyld, franc and fasttext.wasm.js>
// The other detectors are not dependencies: install them in a scratch folder (npm i eld@2.1.0 tinyld@1.3.4 franc@6.2.0 fasttext.wasm.js@1.0.0).
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { loadLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';
import { readJsonl } from './eval-data.js';
import { shortTexts, type LanguageSample } from './short-texts.js';

/** The 25 dev-set languages, with the ISO 639-3 codes franc answers. */
const LANGUAGES: Record<string, string> = {
  en: 'eng', es: 'spa', fr: 'fra', de: 'deu', it: 'ita', pt: 'por', nl: 'nld', pl: 'pol', tr: 'tur', vi: 'vie', id: 'ind', sv: 'swe', cs: 'ces',
  ru: 'rus', uk: 'ukr', ar: 'arb', fa: 'pes', he: 'heb', hi: 'hin', bn: 'ben', zh: 'cmn', ja: 'jpn', ko: 'kor', th: 'tha', el: 'ell',
};
const ONLY = Object.keys(LANGUAGES);
const FROM_639_3 = new Map(Object.entries(LANGUAGES).map(([two, three]) => [three, two]));

/** Weight of tinyld's log-probability when added to the model's (picked on the dev set, see MODEL.md). */
const TINYLD_WEIGHT = 0.5;
/** Weight of fastText's log-probability when added to the model's (picked on the dev set, see MODEL.md). */
const FASTTEXT_WEIGHT = 0.25;

/** fastText's lid.176 (fasttext.wasm.js): every label's probability for one line of text. */
async function fastText(pkg: (path: string) => Promise<any>): Promise<(text: string) => Map<string, number>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const { getLIDModel } = await pkg('fasttext.wasm.js/dist/main/node.mjs');
  const model = await (await getLIDModel()).load();
  return (text) => {
    const vector = model.predict(text.replace(/\s+/g, ' '), -1, 0);
    const out = new Map<string, number>();
    for (let i = 0; i < vector.size(); i += 1) {
      const [p, label] = vector.get(i) as [number, string];
      out.set(label.replace('__label__', ''), p);
    }
    return out;
  };
}

type Detect = (text: string) => string;

/** Loads one detector by name; `modules` is the folder holding the optional packages. */
async function load(name: string, modules: string): Promise<Detect> {
  const pkg = (path: string): Promise<any> => import(pathToFileURL(resolve(modules, path)).href); // eslint-disable-line @typescript-eslint/no-explicit-any
  const ours = (): Promise<ReturnType<typeof loadLanguageModel> extends Promise<infer M> ? M : never> =>
    loadLanguageModel(new URL('../../plugins/guardrails/lang-detector/', import.meta.url));
  switch (name) {
    case 'lang_detector': {
      const model = await ours();
      return (text) => model.detect(text).lang;
    }
    case 'lang_detector+tinyld': {
      const [model, tinyld] = await Promise.all([ours(), pkg('tinyld/dist/tinyld.normal.node.mjs')]);
      return (text) => {
        const scores = model.scores(text);
        if (scores.fixed) return scores.fixed.lang;
        const other = new Map<string, number>(tinyld.detectAll(text, { only: [...scores.probs.keys()] }).map((r: { lang: string; accuracy: number }) => [r.lang, r.accuracy]));
        const total = [...other.values()].reduce((a, b) => a + b, 0) || 1;
        let best = '';
        let top = -Infinity;
        for (const [lang, p] of scores.probs) {
          const value = Math.log(p + 1e-9) + TINYLD_WEIGHT * Math.log((other.get(lang) ?? 0) / total + 1e-3);
          if (value > top) [top, best] = [value, lang];
        }
        return best;
      };
    }
    case 'fastText lid.176, only the 25': {
      const ft = await fastText(pkg);
      return (text) => {
        let best = 'und';
        let top = 0;
        for (const [lang, p] of ft(text)) if (LANGUAGES[lang] !== undefined && p > top) [top, best] = [p, lang];
        return best;
      };
    }
    case 'lang_detector+fastText': {
      const [model, ft] = await Promise.all([ours(), fastText(pkg)]);
      return (text) => {
        const scores = model.scores(text);
        if (scores.fixed) return scores.fixed.lang;
        const other = ft(text);
        const total = [...scores.probs.keys()].reduce((sum, lang) => sum + (other.get(lang) ?? 0), 0) || 1;
        let best = '';
        let top = -Infinity;
        for (const [lang, p] of scores.probs) {
          const value = Math.log(p + 1e-9) + FASTTEXT_WEIGHT * Math.log((other.get(lang) ?? 0) / total + 1e-4);
          if (value > top) [top, best] = [value, lang];
        }
        return best;
      };
    }
    case 'eld medium': {
      const { eld } = await pkg('eld/src/entries/static.medium.js');
      return (text) => eld.detect(text).language || 'und';
    }
    case 'tinyld, only the 25':
    case 'tinyld heavy, only the 25':
    case 'tinyld light, only the 25': {
      const file = name.includes('heavy') ? 'heavy' : name.includes('light') ? 'light' : 'normal';
      const tinyld = await pkg(`tinyld/dist/tinyld.${file}.node.mjs`);
      return (text) => tinyld.detect(text, { only: ONLY }) || 'und';
    }
    case 'franc, only the 25': {
      const { franc } = await pkg('franc/index.js');
      const only = Object.values(LANGUAGES);
      return (text) => FROM_639_3.get(franc(text, { only, minLength: 1 })) ?? 'und';
    }
    default:
      throw new Error(`unknown detector ${name}`);
  }
}

/** Child: loads one detector, measures the RSS growth and load time, then scores the dev set. Prints JSON. */
async function child(name: string, modules: string): Promise<void> {
  const dev = await readJsonl<{ lang: string }>(resolve(process.cwd(), '../shared/data/guardrails'), 'language.jsonl');
  const short = shortTexts(dev);
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const detect = await load(name, modules);
  detect('The first detection finishes loading.');
  const loadMs = performance.now() - started;
  const rssMb = (process.memoryUsage().rss - before) / 2 ** 20;
  const accuracy = (rows: LanguageSample[]): number => rows.filter((row) => detect(row.text) === row.labels.lang).length / rows.length;
  process.stdout.write(JSON.stringify({ name, sentences: accuracy(dev), short: accuracy(short), rssMb, loadMs }));
}

const DETECTORS = ['lang_detector', 'lang_detector+tinyld', 'lang_detector+fastText', 'fastText lid.176, only the 25', 'eld medium', 'tinyld, only the 25', 'tinyld light, only the 25', 'tinyld heavy, only the 25', 'franc, only the 25'];

async function main(): Promise<void> {
  const [mode, name, modulesArg] = process.argv.slice(2);
  if (mode === '--child') return child(name as string, modulesArg as string);
  const modules = resolve(mode ?? 'node_modules');
  console.log('| detector | dev sentences | dev short | RSS after load | load |\n|---|---:|---:|---:|---:|');
  for (const detector of DETECTORS) {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--child', detector, modules], { maxBuffer: 1 << 20 });
      const r = JSON.parse(stdout) as { name: string; sentences: number; short: number; rssMb: number; loadMs: number };
      console.log(`| ${r.name} | ${r.sentences.toFixed(3)} | ${r.short.toFixed(3)} | ${r.rssMb.toFixed(0)} MB | ${r.loadMs.toFixed(0)} ms |`);
    } catch (error) {
      console.log(`| ${detector} | - | - | - | not run: ${(error as Error).message.split('\n')[0]} |`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
