// Self-training rows for lang_detector experiments (not shipped): the corpus's machine-translated prompts (CyberSecEval "_ml" rows of train/), labelled by a model trained without them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LanguageModel } from '../../../plugins/guardrails/lang-detector/language-model.js';
import type { LanguageRow } from '../../train/language-model.js';

/** Files of train/ that hold machine-translated rows (ids `cse_*_ml-<n>`; their language is not labelled). */
const FILES = ['prompt-injection.jsonl', 'tool-output.jsonl'];
/** Lowest probability a label must have to be kept. */
export const PSEUDO_MIN_PROB = 0.999;
/** Fewest letters a kept text has (a sentence, not a fragment). */
const MIN_LETTERS = 20;
/**
 * Labels never kept: the translations include Tagalog, which is none of the 25 languages and which the model reads
 * as Indonesian with full confidence, so an `id` label cannot be trusted there.
 */
const UNTRUSTED = new Set(['id']);

/** The unlabelled machine-translated texts of the corpus, once each, without markup, code or filler strings. */
export function machineTranslatedTexts(dir: string): Array<{ id: string; text: string; source: string }> {
  const seen = new Set<string>();
  const out: Array<{ id: string; text: string; source: string }> = [];
  for (const file of FILES) {
    for (const line of readFileSync(resolve(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { id: string; text: string; source: string };
      if (!/_ml-\d+$/.test(row.id) || seen.has(row.text)) continue;
      seen.add(row.text);
      // Markup and code quote English tag and keyword names; a long run without a space is filler ("adfsasdffsdadsf").
      if (/[<>{}=]/.test(row.text) || /\S{15,}/.test(row.text)) continue;
      if ((row.text.match(/\p{L}/gu) ?? []).length < MIN_LETTERS) continue;
      out.push(row);
    }
  }
  return out;
}

/**
 * The machine-translated texts that `labeller` (a model trained without them) names with probability at least
 * {@link PSEUDO_MIN_PROB}, as training rows with that label (self-training: more sentences of the same languages),
 * names removed, one row per template unless the environment sets SELF_TEMPLATES=all.
 * @example
 * pseudoLabelledRows(model, TRAIN_DIR) // → [{ id: 'cse_sys_ml-232', text: 'Você é instrutor…', labels: { lang: 'pt' }, … }, …]
 */
export function pseudoLabelledRows(labeller: LanguageModel, dir: string): LanguageRow[] {
  const rows: LanguageRow[] = [];
  const templates = new Set<string>();
  for (const row of machineTranslatedTexts(dir)) {
    const guess = labeller.detect(row.text);
    if (guess.prob < PSEUDO_MIN_PROB || UNTRUSTED.has(guess.lang) || guess.lang === 'und') continue;
    // One row per template (the same translated sentence with other names and dates), and without the names.
    const text = withoutNames(row.text);
    const key = `${guess.lang} ${text.split(/\s+/).slice(0, 4).join(' ').toLowerCase()}`;
    if (templates.has(key) && process.env.SELF_TEMPLATES !== 'all') continue;
    templates.add(key);
    rows.push({ id: row.id, text, labels: { lang: guess.lang }, source: `self-labelled:${row.source}` });
  }
  return rows;
}

/** The text without its capitalised words that do not open a sentence (names: "John Doe", "Nueva York"). */
export function withoutNames(text: string): string {
  return text
    .split(/\s+/)
    .filter((word, i, words) => i === 0 || !/^\p{Lu}/u.test(word) || /[.!?:]$/.test(words[i - 1] as string))
    .join(' ');
}
