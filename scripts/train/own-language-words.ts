// Hand-written common words per language (scripts/train/data/language-own-words.txt) as lang_detector training rows.
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
