// Hand-written common words and sentences per language (scripts/train/data/language-own-*.txt) as lang_detector training rows.
import { readFileSync } from 'node:fs';

/** One training row (the corpus's row format). */
export interface OwnLanguageRow {
  id: string;
  text: string;
  labels: { lang: string };
  source: string;
}

/** The word list shipped with the trainer. */
export const OWN_WORDS_FILE = new URL('./data/language-own-words.txt', import.meta.url);
/** The sentence list shipped with the trainer. */
export const OWN_PHRASES_FILE = new URL('./data/language-own-phrases.txt', import.meta.url);

/**
 * One row per distinct word of each language block ("## <code>" then words separated by spaces; "#" lines are
 * comments). A word listed under several languages gives a row for each: the model learns that it is ambiguous.
 * @example
 * ownLanguageRows('## cs\njsem že') // → [{ id: 'own_cs-0', text: 'jsem', labels: { lang: 'cs' }, ... }, { ... 'že' }]
 */
export function ownLanguageRows(text: string = readFileSync(OWN_WORDS_FILE, 'utf8')): OwnLanguageRow[] {
  const rows: OwnLanguageRow[] = [];
  let lang: string | undefined;
  const seenPer = new Map<string, Set<string>>();
  let seen = new Set<string>();
  for (const line of text.split('\n')) {
    const header = /^## (\w+)\s*$/.exec(line);
    if (header) {
      lang = header[1] as string;
      seen = seenPer.get(lang) ?? new Set();
      seenPer.set(lang, seen);
      continue;
    }
    if (line.startsWith('#') || lang === undefined) continue;
    for (const word of line.split(/\s+/)) {
      if (word === '' || seen.has(word)) continue;
      seen.add(word);
      rows.push({ id: `own_${lang}-${seen.size - 1}`, text: word, labels: { lang }, source: 'hand-written:scripts/train/data/language-own-words.txt' });
    }
  }
  return rows;
}

/**
 * One row per line of each language block of the sentence list (same block format as the word list: "## <code>",
 * "#" comments), ids `own_phrase_<code>-<n>`.
 * @example
 * ownPhraseRows('## pt\nNão sei.\n') // → [{ id: 'own_phrase_pt-0', text: 'Não sei.', labels: { lang: 'pt' }, ... }]
 */
export function ownPhraseRows(text: string = readFileSync(OWN_PHRASES_FILE, 'utf8')): OwnLanguageRow[] {
  const rows: OwnLanguageRow[] = [];
  const counts = new Map<string, number>();
  let lang: string | undefined;
  for (const line of text.split('\n')) {
    const header = /^## (\w+)\s*$/.exec(line);
    if (header) {
      lang = header[1] as string;
      continue;
    }
    const sentence = line.trim();
    if (sentence === '' || sentence.startsWith('#') || lang === undefined) continue;
    const n = counts.get(lang) ?? 0;
    counts.set(lang, n + 1);
    rows.push({ id: `own_phrase_${lang}-${n}`, text: sentence, labels: { lang }, source: 'hand-written:scripts/train/data/language-own-phrases.txt' });
  }
  return rows;
}

/** Every hand-written row: the common words, then the sentences. */
export function ownLanguageExamples(): OwnLanguageRow[] {
  return [...ownLanguageRows(), ...ownPhraseRows()];
}
