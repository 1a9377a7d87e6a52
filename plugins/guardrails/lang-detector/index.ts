// The lang_detector guardrail: names the language of a text (script step, then a trained n-gram model) and flags languages outside an allow-list.
import { defineGuardrail, type GuardrailPlugin } from '../../../src/plugins/plugin-api.js';
import { loadLanguageModel, type LanguageGuess, type LanguageModel } from './language-model.js';

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

/** Where the shipped weights live (trained by `npm run train:language`; see MODEL.md). */
const MODEL_FOLDER = new URL('./', import.meta.url);
let loading: Promise<LanguageModel> | undefined;
let model: LanguageModel | undefined;

/**
 * Loads the shipped model once (about 2 MB of weights); later calls share the same promise. Called on the first
 * evaluation, or at start with `preload`.
 */
export function preloadLanguageModel(): Promise<LanguageModel> {
  loading ??= loadLanguageModel(MODEL_FOLDER).then((loaded) => (model = loaded));
  return loading;
}

/** True once the model is in memory (for tests and start-up checks). */
export function languageModelLoaded(): boolean {
  return model !== undefined;
}

/** Detects the language of `text` with the shipped model (loading it on first use). */
export async function detectLanguage(text: string): Promise<LangDetectorResults> {
  const detector = model ?? (await preloadLanguageModel());
  const guess: LanguageGuess = detector.detect(text);
  return { lang: guess.lang, prob: guess.prob };
}

/** True when `lang` is in the allow-list (compared without regard to case). */
function isAllowed(lang: string, allowed: string[]): boolean {
  return allowed.some((code) => code.toLowerCase() === lang);
}

/** Construction options of {@link createLangDetector}. */
export interface LangDetectorPluginOptions {
  /** Load the model at registration instead of at the first evaluation. Default false. */
  preload?: boolean;
}

/**
 * lang_detector: reports `{ lang, prob }`. With `allowed_languages` it flags a text whose detected
 * language is outside the list with a probability above the threshold; an unsure detection (or `und`) never flags.
 * The model is loaded lazily, on first use, unless `preload` is set.
 * @example
 * await engine.add(createLangDetector({ preload: true }));
 * await engine.evaluate('lang_detector', 'Hola, ¿cómo estás?', { options: { allowed_languages: ['en'] } });
 * // → { results: { lang: 'es', prob: 0.98 }, flagged: true, triggered: ['es'] }
 */
export function createLangDetector(settings: LangDetectorPluginOptions = {}): GuardrailPlugin<LangDetectorOptions, LangDetectorResults> {
  return defineGuardrail<LangDetectorOptions, LangDetectorResults>({
    name: 'lang_detector',
    description: 'Detects the language of a text (script step and a trained n-gram model) and flags languages outside an allow-list.',
    defaultThreshold: 0.5,
    optionsSchema: {
      type: 'object',
      properties: {
        allowed_languages: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2,3}$' }, minItems: 1, maxItems: 256 },
      },
    },
    async setup() {
      if (settings.preload) await preloadLanguageModel();
    },
    evaluate: async function evaluateLanguage(text, { options, threshold }) {
      const results = await detectLanguage(text);
      const allowed = options.allowed_languages;
      const flagged = allowed !== undefined && results.lang !== 'und' && results.prob > threshold && !isAllowed(results.lang, allowed);
      return { results, flagged, triggered: flagged ? [results.lang] : [] };
    },
  });
}

/** The built-in lang_detector, loading its model on first use. */
const langDetector = createLangDetector();

export default langDetector;
