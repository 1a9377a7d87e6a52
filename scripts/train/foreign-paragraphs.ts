// Paragraphs of ordinary text in other languages from train/language.jsonl: negatives for the injection models, so "not English" never reads as "attack".

/** Sentences per paragraph. */
const FOREIGN_SENTENCES = 3;

/** One row of train/language.jsonl (sentences and short texts in the 25 languages). */
export interface LanguageRow {
  id: string;
  text: string;
  labels: { lang: string };
  source: string;
}

/**
 * Paragraphs of ordinary descriptive text in other languages (news, wiki and web sentences of the UD treebanks in
 * language.jsonl, FOREIGN_SENTENCES at a time, English left out): without them every non-English text the model saw
 * in training was an attack (the translated CyberSecEval rows), so any foreign text read as one.
 */
export function foreignParagraphs(rows: readonly LanguageRow[]): string[] {
  const byLanguage = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.id.startsWith('ud_') || row.labels.lang === 'en') continue;
    const list = byLanguage.get(row.labels.lang) ?? [];
    list.push(row.text.trim());
    byLanguage.set(row.labels.lang, list);
  }
  const out: string[] = [];
  for (const sentences of byLanguage.values()) {
    for (let i = 0; i + FOREIGN_SENTENCES <= sentences.length; i += FOREIGN_SENTENCES) out.push(sentences.slice(i, i + FOREIGN_SENTENCES).join(' '));
  }
  return out;
}
