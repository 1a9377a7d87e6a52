// The dlp_cloud guardrail: finds PII and secrets (Cloud DLP info types) and masks, redacts, replaces, inspects or rejects them.
import { defineGuardrail } from '../../../src/plugins/plugin-api.js';
import { applyStrategy, STRATEGIES, TRANSFORMING_STRATEGIES, type Strategy } from './dlp-strategies.js';
import { INFO_TYPES, minLikelihoodForThreshold, type InfoType, type PiiFinding } from './info-types.js';
import { detectPiiSpans, toFindings } from './pii-detector.js';

export { detectPii, detectPiiSpans, toFindings, type DetectPiiOptions } from './pii-detector.js';
export { INFO_TYPES, Likelihood, minLikelihoodForThreshold, type InfoType, type PiiFinding } from './info-types.js';

/** Options of dlp_cloud (defaults filled by its schema). */
export interface DlpCloudOptions {
  strategy: Strategy;
  info_types: InfoType[];
  mask_char: string;
  include_quote: boolean;
}

/** Results of dlp_cloud: the spec's `content`, `strategy` and `reject_prompt`, plus the `findings`. */
export interface DlpCloudResults {
  content: string;
  strategy: Strategy;
  reject_prompt?: string;
  findings: PiiFinding[];
}

/**
 * dlp_cloud. The threshold picks the lowest likelihood that counts (see {@link minLikelihoodForThreshold}):
 * the default 0.5 keeps POSSIBLE, LIKELY and VERY_LIKELY findings. Findings below it are neither reported nor
 * transformed, like Cloud DLP's `min_likelihood`. Only `reject` flags.
 * @example
 * await engine.evaluate('dlp_cloud', 'mail ana@example.org', { options: { strategy: 'replace' } });
 * // → results.content 'mail [EMAIL_ADDRESS]', flagged false, triggered ['EMAIL_ADDRESS']
 */
const dlpCloud = defineGuardrail<DlpCloudOptions, DlpCloudResults>({
  name: 'dlp_cloud',
  description: 'Finds PII and secrets (Cloud DLP info types) and masks, redacts, replaces, inspects or rejects them.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      strategy: { type: 'string', enum: [...STRATEGIES], default: 'mask' },
      info_types: { type: 'array', items: { type: 'string', enum: [...INFO_TYPES] }, uniqueItems: true, default: [...INFO_TYPES] },
      mask_char: { type: 'string', minLength: 1, maxLength: 1, default: '*' },
      include_quote: { type: 'boolean', default: false },
    },
  },
  transformsText: (options) => TRANSFORMING_STRATEGIES.has(options.strategy),
  evaluate: function evaluateDlp(text, { options, threshold }) {
    const hits = detectPiiSpans(text, { infoTypes: options.info_types, minLikelihood: minLikelihoodForThreshold(threshold) });
    const outcome = applyStrategy(options.strategy, text, hits, options.mask_char);
    const results: DlpCloudResults = {
      content: outcome.content,
      strategy: options.strategy,
      ...(outcome.reject_prompt === undefined ? {} : { reject_prompt: outcome.reject_prompt }),
      findings: toFindings(text, hits, options.include_quote),
    };
    const triggered = [...new Set(hits.map((hit) => hit.infoType))];
    const transforms = TRANSFORMING_STRATEGIES.has(options.strategy) && outcome.content !== text;
    return {
      results,
      flagged: options.strategy === 'reject' && hits.length > 0,
      triggered,
      ...(transforms ? { transformedText: outcome.content, replacements: outcome.replacements } : {}),
    };
  },
});

export default dlpCloud;
