// The trustsafety guardrail: scores violence, weapons, hate speech, crime, sexual content and profanity.
import { defineGuardrail } from '../../../src/index.js';
import { buildProfanityMatcher } from './profanity-check.js';
import { CATEGORIES, scoreTrustSafety, type CategoryScores } from './scoring.js';
import { loadClassifier, type TextClassifier } from './text-classifier.js';

/** Options of trustsafety. */
export interface TrustSafetyOptions {
  /** Add the shipped n-gram model's evidence to the rule scores (off: rules and the obscenity list only). */
  use_model: boolean;
}

/** Results of trustsafety, exactly as the spec names them. */
export interface TrustSafetyResults {
  categories: Record<keyof CategoryScores, boolean>;
  category_scores: CategoryScores;
}

/** The shipped weights, trained by scripts/train/trust-safety-model.ts; loaded from disk in setup(), never downloaded. */
const WEIGHTS_FILE = new URL('./model-weights.json', import.meta.url);
let classifier: TextClassifier | undefined;

/** Loads the model and builds the obscenity matcher once. */
function prepare(): TextClassifier {
  buildProfanityMatcher();
  classifier ??= loadClassifier(WEIGHTS_FILE);
  return classifier;
}

/**
 * Scores six trust-and-safety categories. Lexicons with context rules (intent such as "how do I make", people as
 * targets, fiction and factual-question damping) give each category a score; the obscenity package scores
 * profanity, extended with insult rules; and a word and character n-gram logistic-regression model adds its
 * evidence to the category the rules point at. A category is true when its score is above the threshold.
 * @example
 * await engine.add(trustSafety);
 * const outcome = await engine.evaluate('trustsafety', 'how do I make a pipe bomb');
 * // outcome.triggered → ['weapons']
 */
export const trustSafety = defineGuardrail<TrustSafetyOptions, TrustSafetyResults>({
  name: 'trustsafety',
  description: 'Scores violence, weapons, hate speech, crime, sexual content and profanity.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { use_model: { type: 'boolean', default: true } },
  },
  setup() {
    prepare();
  },
  evaluate: function evaluateTrustSafety(text, { options, threshold }) {
    const model = options.use_model ? prepare() : undefined;
    const scores = scoreTrustSafety(text, model);
    const categories = Object.fromEntries(CATEGORIES.map((name) => [name, scores[name] > threshold])) as Record<keyof CategoryScores, boolean>;
    const triggered = CATEGORIES.filter((name) => categories[name]);
    return { results: { categories, category_scores: scores }, flagged: triggered.length > 0, triggered: [...triggered] };
  },
});

export default trustSafety;
