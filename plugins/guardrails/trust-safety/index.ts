// The trustsafety guardrail: scores violence, weapons, hate speech, crime, sexual content and profanity.
import { defineGuardrail } from '../../../src/plugins/plugin-api.js';
import { buildProfanityMatcher } from './profanity-check.js';
import { CATEGORIES, scoreTrustSafety, type CategoryScores } from './scoring.js';
import { loadUnsafeClassifier, type UnsafeClassifier } from './unsafe-model.js';

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

/** The shipped model (unsafe-model.json, unsafe-weights.bin 512 KB and unsafe-vectors.bin 1.1 MB; see MODEL.md), loaded once, never downloaded. */
let classifier: UnsafeClassifier | undefined;

/** Loads the model and builds the obscenity matcher once. */
function prepare(): UnsafeClassifier {
  buildProfanityMatcher();
  classifier ??= loadUnsafeClassifier();
  return classifier;
}

/**
 * Scores six trust-and-safety categories. Lexicons with context rules (intent such as "how do I make", people as
 * targets, fiction and factual-question damping) give each category a score; the obscenity package scores
 * profanity, extended with insult rules; and a hashed n-gram logistic-regression model trained on public data adds
 * its evidence to the category the rules point at. DLP mask runs ("*****") are removed first. A category is true
 * when its score is above the threshold.
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
