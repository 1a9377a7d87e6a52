// The lang_detector guardrail: names the language of a text with the eld n-gram detector and flags languages outside an allow-list.
import { eld } from 'eld';
import { defineGuardrail } from '../../../src/index.js';

/** Options of lang_detector. */
export interface LangDetectorOptions {
  /** ISO 639-1 codes that may pass; when absent the processor only reports and never flags. */
  allowed_languages?: string[];
}

/** Results of lang_detector, exactly as the spec names them. */
export interface LangDetectorResults {
  /** ISO 639-1 code of the detected language, or `und` when the text holds no language signal. */
  lang: string;
  /** Probability of `lang`, in [0, 1]. */
  prob: number;
}

/** The eld database loaded in `setup()`: 'medium' is eld's own default (about 60 MB of heap, 60 languages). */
const ELD_DATABASE = 'medium';

/**
 * Sharpness of the softmax that turns eld's per-language scores (each in [0, 1]) into probabilities. Close
 * relatives score close together (ru 0.836, bg 0.821, uk 0.819 on one Russian sentence), so the softmax must be
 * sharp: at 40 about 98% of correct detections get a probability above 0.5, while wrong ones sit near 0.5.
 */
const SOFTMAX_SHARPNESS = 40;

/**
 * Codes that eld cannot tell apart, treated as one language when checking `allowed_languages`.
 * eld has no Indonesian model and answers `ms` (the Malay macrolanguage, which ISO 639-3 defines as
 * including Indonesian), so `id` in the allow-list also admits `ms` and the other way round.
 */
const SAME_LANGUAGE: Record<string, string[]> = { id: ['ms'], ms: ['id'], nb: ['no'], nn: ['no'], no: ['nb', 'nn'] };

type Detector = ReturnType<typeof eld.newInstance>;
let detector: Detector | undefined;

/** Loads eld's database once; later calls reuse it. */
async function loadDetector(): Promise<Detector> {
  if (detector) return detector;
  // The root entry of eld is the dynamic one: a new instance starts empty and loads a database by name.
  const instance: Detector & { load?(size?: string): Promise<unknown> } = eld.newInstance();
  if (instance.load) await instance.load(ELD_DATABASE);
  detector = instance;
  return instance;
}

/** Detects the language of `text`: the top eld score and its softmax probability among all candidates. */
export function detectLanguage(text: string): LangDetectorResults {
  if (!detector) throw new Error('lang_detector: setup() has not run');
  const detection = detector.detect(text);
  const language = detection.language;
  const scores = Object.values(detection.getScores());
  if (!language || scores.length === 0) return { lang: 'und', prob: 0 };
  const top = Math.max(...scores);
  let total = 0;
  for (const score of scores) total += Math.exp(SOFTMAX_SHARPNESS * (score - top));
  return { lang: language, prob: Math.round((1 / total) * 10_000) / 10_000 };
}

/** True when `lang` is in the allow-list, counting codes eld cannot separate as equal. */
function isAllowed(lang: string, allowed: string[]): boolean {
  const wanted = new Set(allowed.map((code) => code.toLowerCase()));
  if (wanted.has(lang)) return true;
  return (SAME_LANGUAGE[lang] ?? []).some((alias) => wanted.has(alias));
}

/**
 * lang_detector: reports `{ lang, prob }`. With `allowed_languages` it flags a text whose detected
 * language is outside the list with a probability above the threshold; an unsure detection (or `und`) never flags.
 * @example
 * await engine.add(langDetector);
 * await engine.evaluate('lang_detector', 'Hola, ¿cómo estás?', { options: { allowed_languages: ['en'] } });
 * // → { results: { lang: 'es', prob: 0.98 }, flagged: true, triggered: ['es'] }
 */
const langDetector = defineGuardrail<LangDetectorOptions, LangDetectorResults>({
  name: 'lang_detector',
  description: 'Detects the language of a text (eld) and flags languages outside an allow-list.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    properties: {
      allowed_languages: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2,3}$' }, minItems: 1 },
    },
  },
  async setup() {
    await loadDetector();
  },
  evaluate: function evaluateLanguage(text, { options, threshold }) {
    const results = detectLanguage(text);
    const allowed = options.allowed_languages;
    const flagged = allowed !== undefined && results.lang !== 'und' && results.prob > threshold && !isAllowed(results.lang, allowed);
    return { results, flagged, triggered: flagged ? [results.lang] : [] };
  },
});

export default langDetector;
