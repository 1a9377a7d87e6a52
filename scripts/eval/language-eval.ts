// Scores lang_detector: the shipped model on the dev set's sentences and on short texts cut from them, and leave-one-source-out on the corpus.
import { resolve } from 'node:path';
import langDetector, { type LangDetectorResults } from '../../plugins/guardrails/lang-detector/index.js';
import { createLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';
import { LANGUAGE_TRAIN_OPTIONS, trainLanguageModel, type LanguageRow } from '../train/language-model.js';
import { ownLanguageExamples } from '../train/own-language-words.js';
import { GuardrailEngine } from '../../src/index.js';
import { readJsonl } from './eval-data.js';
import type { EvalModule, EvalRow } from './eval-types.js';
import { shortTexts, type LanguageSample } from './short-texts.js';

const SENTENCE_TARGET = 0.97;
const SHORT_TARGET = 0.9;
const PROCESSOR = 'lang_detector';

/** Accuracy overall and per language of `detect` on `rows`. */
async function accuracy(rows: LanguageSample[], detect: (text: string) => Promise<string> | string) {
  const per = new Map<string, { total: number; correct: number; confusions: Map<string, number> }>();
  let correct = 0;
  for (const row of rows) {
    const lang = await detect(row.text);
    const expected = row.labels.lang;
    const stats = per.get(expected) ?? { total: 0, correct: 0, confusions: new Map<string, number>() };
    per.set(expected, stats);
    stats.total += 1;
    if (lang === expected) {
      correct += 1;
      stats.correct += 1;
    } else stats.confusions.set(lang, (stats.confusions.get(lang) ?? 0) + 1);
  }
  return { accuracy: rows.length === 0 ? 0 : correct / rows.length, per };
}

/** Rows for one set: overall (with the target), then each language under the target with its confusions. */
function report(label: string, rows: LanguageSample[], result: Awaited<ReturnType<typeof accuracy>>, target: number, note: string): EvalRow[] {
  const perLanguage = [...result.per].sort(([a], [b]) => a.localeCompare(b));
  const lowest = Math.min(...perLanguage.map(([, s]) => s.correct / s.total));
  const under = perLanguage.filter(([, s]) => s.correct / s.total < target);
  const out: EvalRow[] = [
    {
      processor: PROCESSOR,
      label,
      accuracy: result.accuracy,
      support: rows.length,
      target: `acc >= ${target}, every language`,
      met: result.accuracy >= target && under.length === 0,
      note: `${note}; lowest language ${lowest.toFixed(3)}; ${under.length} of ${perLanguage.length} languages under target`,
    },
  ];
  for (const [lang, stats] of under) {
    const confusions = [...stats.confusions].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code}×${n}`);
    out.push({ processor: PROCESSOR, label: `  ${label}: ${lang}`, accuracy: stats.correct / stats.total, support: stats.total, note: `misread as ${confusions.join(' ')}` });
  }
  return out;
}

/** True for rows of the Universal Dependencies treebanks (one repository per language); the rest are Tatoeba (LASER). */
const isTreebank = (row: LanguageRow): boolean => row.source.startsWith('UniversalDependencies/');
const isShort = (row: LanguageRow): boolean => row.id.includes('short');

/**
 * The language eval. Dev set: the shipped model through the processor, on the 2,500 sentences and on 2,497 short texts
 * (2 or 3 words from the middle of each sentence). Leave-one-source-out: the corpus has two source families, the 25 UD
 * treebank repositories and Tatoeba (facebookresearch/LASER); a model trained on one family (plus the hand-written
 * common words and sentences, which are in every training run) is tested on the other.
 */
const languageEval: EvalModule = {
  name: 'language',
  async run(dataDir) {
    const engine = new GuardrailEngine();
    await engine.add(langDetector);
    const detect = async (text: string): Promise<string> => ((await engine.evaluate('lang_detector', text)).results as LangDetectorResults).lang;
    const dev = await readJsonl<{ lang: string }>(dataDir, 'language.jsonl');
    const short = shortTexts(dev);
    const out: EvalRow[] = [
      ...report('dev sentences', dev, await accuracy(dev, detect), SENTENCE_TARGET, 'source pemistahl/lingua-py (Leipzig sentences), shipped model'),
      ...report('dev short (2-3 words)', short, await accuracy(short, detect), SHORT_TARGET, 'cut from the dev sentences by scripts/eval/short-texts.ts'),
    ];
    const corpus = await readJsonl<{ lang: string }>(resolve(dataDir, 'train'), 'language.jsonl');
    for (const [name, leftOut] of [['UD treebanks (25 repos)', isTreebank], ['Tatoeba (facebookresearch/LASER)', (row: LanguageRow) => !isTreebank(row)]] as const) {
      const model = createLanguageModel(trainLanguageModel([...corpus.filter((row) => !leftOut(row)), ...ownLanguageExamples()], LANGUAGE_TRAIN_OPTIONS));
      const held = corpus.filter(leftOut);
      for (const [kind, rows, target] of [['sentences', held.filter((row) => !isShort(row)), SENTENCE_TARGET], ['short', held.filter(isShort), SHORT_TARGET]] as const) {
        const result = await accuracy(rows, (text) => model.detect(text).lang);
        out.push(...report(`LOSO ${name} ${kind}`, rows, result, target, 'model trained on the other source family and the hand-written words and sentences'));
      }
    }
    return out;
  },
};

export default languageEval;
