// lang_detector variant rows: single words drawn from the Hunspell spelling dictionaries on npm (wooorm's dictionary-*; not dependencies, read at training time only) as a vocabulary signal.
// Used by language-variants.ts with DICT=<words per language> (DICT_MODULES: the scratch node_modules holding dictionary-en, -es, … ; DICT_LANGS: which languages; DICT_FORMS=1: the suffix rules' forms too, not only the stems).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { seededRandom, shuffle } from '../../train/linear-trainer.js';
import type { LanguageRow } from '../../train/language-model.js';

/** Latin-script model languages with a dictionary package (Indonesian has none). */
export const DICTIONARY_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'tr', 'vi', 'sv', 'cs'];

/** The stems of one Hunspell .dic file: lower-case words of letters only (capitalised stems are names), NFKC. */
export function dictionaryStems(dic: string): string[] {
  const out = new Set<string>();
  for (const line of dic.split('\n').slice(1)) {
    const word = (line.split('/')[0] ?? '').trim().normalize('NFKC');
    if (word.length < 2 || word !== word.toLowerCase() || !/^\p{L}+$/u.test(word)) continue;
    out.add(word);
  }
  return [...out].sort();
}

/** `perLanguage` seeded random stems of each language's dictionary as one-word rows. */
export function dictionaryRows(modules: string, perLanguage: number, langs: string[] = DICTIONARY_LANGUAGES, seed = 7): LanguageRow[] {
  const rows: LanguageRow[] = [];
  for (const lang of langs) {
    const file = resolve(modules, `dictionary-${lang}`, 'index.dic');
    if (!existsSync(file)) throw new Error(`no ${file}: npm i dictionary-${lang} in the scratch folder`);
    const dic = readFileSync(file, 'utf8');
    const words = process.env.DICT_FORMS ? [...dictionaryForms(readFileSync(file.replace(/dic$/, 'aff'), 'utf8'), dic)].sort() : dictionaryStems(dic);
    const stems = shuffle(words, seededRandom(seed));
    stems.slice(0, perLanguage).forEach((text, i) => rows.push({ id: `dict_${lang}-${i}`, text, labels: { lang }, source: `npm:dictionary-${lang}` }));
  }
  return rows;
}

/** Splits a .dic flag field by the .aff's FLAG type (single characters by default, `long`: pairs, `num`: comma-separated numbers). */
function splitFlags(field: string, type: string): string[] {
  if (type === 'long') return field.match(/../gu) ?? [];
  if (type === 'num') return field.split(',');
  return [...field];
}

/**
 * Every lower-case form of one Hunspell dictionary: each stem and the forms its suffix rules (SFX) make; prefixes,
 * continuation classes and compounding are ignored (an experiment's approximation of the dictionary's words).
 */
export function dictionaryForms(aff: string, dic: string): Set<string> {
  const type = /^FLAG\s+(\S+)/m.exec(aff)?.[1] ?? 'char';
  const rules = new Map<string, Array<{ strip: string; add: string; condition: RegExp }>>();
  for (const line of aff.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] !== 'SFX' || parts.length < 5) continue;
    const [, flag, stripField, addField, condition] = parts as [string, string, string, string, string];
    const list = rules.get(flag) ?? [];
    rules.set(flag, list);
    const add = (addField.split('/')[0] ?? '').replace(/^0$/, '');
    let pattern: RegExp;
    try {
      pattern = new RegExp(`${condition === '.' ? '' : condition}$`, 'u');
    } catch {
      continue;
    }
    list.push({ strip: stripField === '0' ? '' : stripField, add, condition: pattern });
  }
  const out = new Set<string>();
  for (const line of dic.split('\n').slice(1)) {
    const slash = line.indexOf('/');
    const stem = (slash < 0 ? line : line.slice(0, slash)).trim().split(/\s/)[0]?.normalize('NFKC') ?? '';
    if (stem.length < 2 || stem !== stem.toLowerCase() || !/^\p{L}+$/u.test(stem)) continue;
    out.add(stem);
    if (slash < 0) continue;
    const field = line.slice(slash + 1).split(/\s/)[0] ?? '';
    for (const flag of splitFlags(field, type)) {
      for (const rule of rules.get(flag) ?? []) {
        if (!rule.condition.test(stem) || !stem.endsWith(rule.strip)) continue;
        const form = (stem.slice(0, stem.length - rule.strip.length) + rule.add).normalize('NFKC');
        if (/^\p{L}+$/u.test(form)) out.add(form);
      }
    }
  }
  return out;
}
