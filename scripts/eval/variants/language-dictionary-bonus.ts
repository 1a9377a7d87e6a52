// lang_detector variant check: a spelling-dictionary membership bonus at detection (each word found in some Latin languages' Hunspell stem lists adds beta / their number to each), on the dev set and both folds.
// Run: BETAS=0.5,1,2 npx tsx scripts/eval/variants/language-dictionary-bonus.ts   (needs the dictionary-* packages in /tmp/lang-scratch/node_modules, DICT_MODULES to change it,
//   and the cached fold models /tmp/lang/variant-base-{full,ud,tatoeba} that language-variants.ts CACHE=base writes; MAX_WORDS=4 limits the bonus to short texts; DICT_LANGS=es,pt the dictionaries read; FORMS=1 adds the forms of the suffix rules to the stems; SUFFIX=5 scores word endings instead of membership;
//   VOCAB=seen|unseen: only words in (or not in) the full model's training texts)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createLanguageModel, type LanguageModel, type LanguageModelMeta } from '../../../plugins/guardrails/lang-detector/language-model.js';
import { normaliseForLanguage } from '../../../plugins/guardrails/lang-detector/language-features.js';
import { TRAIN_DIR, type LanguageRow } from '../../train/language-model.js';
import { ownLanguageExamples } from '../../train/own-language-words.js';
import { readJsonl } from '../eval-data.js';
import { shortTexts } from '../short-texts.js';
import { DICTIONARY_LANGUAGES, dictionaryForms, dictionaryStems } from './language-dictionary-words.js';

const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');

function cached(name: string): LanguageModel {
  const meta = JSON.parse(readFileSync(`/tmp/lang/variant-base-${name}.json`, 'utf8')) as LanguageModelMeta;
  const bytes = readFileSync(`/tmp/lang/variant-base-${name}.bin`);
  return createLanguageModel({ meta, weights: new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) });
}

async function main(): Promise<void> {
  const modules = resolve(process.env.DICT_MODULES ?? '/tmp/lang-scratch/node_modules');
  const owners = new Map<string, string[]>();
  for (const lang of process.env.DICT_LANGS?.split(',') ?? DICTIONARY_LANGUAGES) {
    const dic = readFileSync(resolve(modules, `dictionary-${lang}`, 'index.dic'), 'utf8');
    const words = process.env.FORMS ? dictionaryForms(readFileSync(resolve(modules, `dictionary-${lang}`, 'index.aff'), 'utf8'), dic) : dictionaryStems(dic);
    for (const word of words) {
      const list = owners.get(word) ?? [];
      list.push(lang);
      owners.set(word, list);
    }
  }
  // SUFFIX=5: instead of membership, each word's longest ending of up to that many letters seen in at least 20 forms
  // gives each language its share of the forms with that ending (each language's count over its list's size).
  const suffixMax = Number(process.env.SUFFIX ?? 0);
  const suffixes = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  if (suffixMax > 0) {
    for (const [word, langs] of owners) {
      const padded = `${word} `;
      for (const lang of langs) sizes.set(lang, (sizes.get(lang) ?? 0) + 1);
      for (let k = 2; k <= suffixMax + 1 && k <= padded.length; k += 1) {
        const end = padded.slice(-k);
        const counts = suffixes.get(end) ?? new Map<string, number>();
        suffixes.set(end, counts);
        for (const lang of langs) counts.set(lang, (counts.get(lang) ?? 0) + 1);
      }
    }
  }
  const ending = (word: string): Map<string, number> | undefined => {
    const padded = `${word} `;
    for (let k = Math.min(suffixMax + 1, padded.length); k >= 2; k -= 1) {
      const counts = suffixes.get(padded.slice(-k));
      if (counts === undefined) continue;
      let total = 0;
      for (const n of counts.values()) total += n;
      if (total < 20) continue;
      const shares = new Map<string, number>();
      let sum = 0;
      for (const [lang, n] of counts) {
        const f = n / (sizes.get(lang) ?? 1);
        shares.set(lang, f);
        sum += f;
      }
      for (const [lang, f] of shares) shares.set(lang, f / sum);
      return shares;
    }
    return undefined;
  };
  const maxWords = Number(process.env.MAX_WORDS ?? Infinity);
  // VOCAB=seen (or unseen): the bonus only for words that are (or are not) in the full model's training texts.
  const vocab = new Set<string>();
  if (process.env.VOCAB) {
    const rows = [...((await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[]), ...ownLanguageExamples()];
    for (const row of rows) for (const word of normaliseForLanguage(row.text).split(' ')) vocab.add(word);
  }
  const wanted = (word: string): boolean => !process.env.VOCAB || vocab.has(word) === (process.env.VOCAB === 'seen');
  const decide = (model: LanguageModel, beta: number, text: string): string => {
    const scores = model.scores(text);
    if (scores.fixed) return scores.fixed.lang;
    const bonus = new Map<string, number>();
    const words = normaliseForLanguage(text).split(' ').filter(Boolean);
    if (beta > 0 && scores.probs.has('en') && words.length <= maxWords) {
      for (const word of words) {
        if (!wanted(word)) continue;
        if (suffixMax > 0) {
          for (const [lang, share] of ending(word) ?? []) bonus.set(lang, (bonus.get(lang) ?? 0) + beta * share);
          continue;
        }
        const langs = owners.get(word);
        if (langs === undefined) continue;
        for (const lang of langs) bonus.set(lang, (bonus.get(lang) ?? 0) + beta / langs.length);
      }
    }
    let best = '';
    let top = -Infinity;
    for (const [lang, p] of scores.probs) {
      const value = Math.log(p + 1e-9) + (bonus.get(lang) ?? 0);
      if (value > top) [top, best] = [value, lang];
    }
    return best;
  };
  const corpus = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR), 'language.jsonl')) as LanguageRow[];
  const dev = (await readJsonl<{ lang: string }>(resolve(TRAIN_DIR, '..'), 'language.jsonl')) as LanguageRow[];
  const sets: Array<[string, LanguageModel, LanguageRow[], number]> = [
    ['dev sentences', cached('full'), dev, 0.97],
    ['dev short', cached('full'), shortTexts(dev) as LanguageRow[], 0.9],
  ];
  for (const [name, leftOut] of [['ud', isTreebank], ['tatoeba', (row: LanguageRow) => !isTreebank(row)]] as const) {
    const held = corpus.filter(leftOut);
    sets.push([`${name} sentences`, cached(name), held.filter((row) => !isShort(row)), 0.97], [`${name} short`, cached(name), held.filter(isShort), 0.9]);
  }
  for (const beta of (process.env.BETAS ?? '0,0.5,1,2').split(',').map(Number)) {
    console.log(`== beta ${beta}`);
    for (const [label, model, rows, target] of sets) {
      const per = new Map<string, { n: number; ok: number }>();
      let ok = 0;
      for (const row of rows) {
        const stats = per.get(row.labels.lang) ?? { n: 0, ok: 0 };
        per.set(row.labels.lang, stats);
        stats.n += 1;
        if (decide(model, beta, row.text) === row.labels.lang) {
          stats.ok += 1;
          ok += 1;
        }
      }
      const under = [...per].filter(([, s]) => s.ok / s.n < target).sort(([a], [b]) => a.localeCompare(b));
      console.log(`  ${label.padEnd(18)} ${(ok / rows.length).toFixed(4)}  under: ${under.map(([lang, s]) => `${lang} ${(s.ok / s.n).toFixed(3)}`).join(', ') || 'none'}`);
    }
  }
}

await main();
