// Scores lang_detector on language.jsonl: overall accuracy against the 95% target, and per-language recall.
import langDetector, { type LangDetectorResults } from '../../plugins/guardrails/lang-detector/index.js';
import { GuardrailEngine } from '../../src/index.js';
import { readJsonl } from './eval-data.js';
import type { EvalModule, EvalRow } from './eval-types.js';

const TARGET_ACCURACY = 0.95;
/** Codes eld answers for a language it has no model of (eld has no Indonesian; `ms` is the Malay macrolanguage). */
const MACROLANGUAGE: Record<string, string> = { id: 'ms' };

/** The language eval module: one accuracy row with the target, one looser macrolanguage row, and weak languages. */
const languageEval: EvalModule = {
  name: 'language',
  async run(dataDir) {
    const engine = new GuardrailEngine();
    await engine.add(langDetector);
    const rows = await readJsonl<{ lang: string }>(dataDir, 'language.jsonl');
    let correct = 0;
    let macroCorrect = 0;
    const perLanguage = new Map<string, { total: number; correct: number; confusions: Map<string, number> }>();
    for (const r of rows) {
      const outcome = await engine.evaluate('lang_detector', r.text);
      const { lang } = outcome.results as LangDetectorResults;
      const expected = r.labels.lang;
      const stats = perLanguage.get(expected) ?? { total: 0, correct: 0, confusions: new Map<string, number>() };
      perLanguage.set(expected, stats);
      stats.total++;
      if (lang === expected) {
        correct++;
        stats.correct++;
      } else {
        stats.confusions.set(lang, (stats.confusions.get(lang) ?? 0) + 1);
      }
      if (lang === expected || MACROLANGUAGE[expected] === lang) macroCorrect++;
    }
    const accuracy = correct / rows.length;
    const out: EvalRow[] = [
      { processor: 'lang_detector', label: 'accuracy', accuracy, support: rows.length, target: `acc >= ${TARGET_ACCURACY}`, met: accuracy >= TARGET_ACCURACY },
      {
        processor: 'lang_detector',
        label: 'accuracy (id ≡ ms)',
        accuracy: macroCorrect / rows.length,
        support: rows.length,
        note: 'counts ms for id: eld has no Indonesian model and answers the Malay macrolanguage',
      },
    ];
    for (const [lang, stats] of [...perLanguage].sort(([a], [b]) => a.localeCompare(b))) {
      const recall = stats.correct / stats.total;
      if (recall >= 0.97) continue;
      const confusions = [...stats.confusions].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code || 'und'}×${n}`);
      out.push({ processor: 'lang_detector', label: `lang=${lang}`, recall, support: stats.total, note: `misread as ${confusions.join(' ')}` });
    }
    return out;
  },
};

export default languageEval;
