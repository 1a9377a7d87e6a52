// Cuts short texts (2 or 3 words from the middle) out of dev-set sentences, so lang_detector's short-text target can be measured on the dev set.

/** A row with a language label. */
export interface LanguageSample {
  id: string;
  text: string;
  labels: { lang: string };
}

/** Languages written without spaces between words: there 2 or 3 "words" are 4 or 6 letters. */
const NO_SPACES = new Set(['zh', 'ja', 'th']);

/**
 * One short text per sentence, alternately 2 and 3 words (letters-only words, digits and punctuation dropped), taken from
 * the middle; deterministic. Sentences with too few words give none.
 * @example
 * shortTexts([{ id: 'x', text: 'The cat sat on the mat.', labels: { lang: 'en' } }]) // → [{ text: 'sat on', ... }]
 */
export function shortTexts(rows: LanguageSample[]): LanguageSample[] {
  const out: LanguageSample[] = [];
  rows.forEach((row, i) => {
    const size = 2 + (i % 2);
    let text = '';
    if (NO_SPACES.has(row.labels.lang)) {
      const letters = [...row.text.replace(/[\s\p{P}\p{S}\p{N}]/gu, '')];
      const start = Math.max(0, Math.floor((letters.length - 2 * size) / 2));
      text = letters.slice(start, start + 2 * size).join('');
      if (letters.length < 2) return;
    } else {
      const words = row.text
        .split(/\s+/)
        .map((word) => word.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ''))
        .filter((word) => word !== '' && !/\p{N}/u.test(word) && /\p{L}/u.test(word));
      if (words.length < size) return;
      const start = Math.floor((words.length - size) / 2);
      text = words.slice(start, start + size).join(' ');
    }
    out.push({ id: `${row.id}-short`, text, labels: row.labels });
  });
  return out;
}
