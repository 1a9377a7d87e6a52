// The model_sanitizer guardrail: decodes a Base64 file and runs Model Armor-style filters (csam, malicious_uris, pi_and_jailbreak, rai, sdp).
import { defineGuardrail } from '../../../src/plugins/plugin-api.js';
import { decodeBase64Text } from './base64-content.js';
import { matchesCsam } from './csam-filter.js';
import { runPiAndJailbreak, runRai, runSdp } from './guardrail-filters.js';
import { findMaliciousUris } from './malicious-uri-filter.js';
import {
  emptyRaiTypes,
  FILTER_NAMES,
  InvocationResult,
  matchState,
  SKIPPED,
  wrapFilterResults,
  type FilterName,
  type FilterState,
  type ModelSanitizerResults,
  type SanitizationMetadata,
} from './sanitization-result.js';

export type { ModelSanitizerResults } from './sanitization-result.js';
export { decodeBase64Text } from './base64-content.js';
export { findMaliciousUris, uriRisks } from './malicious-uri-filter.js';
export { matchesCsam } from './csam-filter.js';
export { confidenceOf, countedConfidence, minimumConfidence } from './confidence-levels.js';

/** Options of model_sanitizer. */
export interface ModelSanitizerOptions {
  /** Info types the sdp filter inspects (dlp_cloud names); all when absent. */
  sdp_info_types?: string[];
}

/** Runs one filter; a filter that throws is reported as skipped, with its error kept for the metadata. */
async function settle<State>(name: FilterName, run: () => State | Promise<State>, errors: string[], signal?: AbortSignal): Promise<State | undefined> {
  try {
    return await run();
  } catch (error) {
    if (signal?.aborted) throw error;
    errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/**
 * model_sanitizer. `input.text` is the file content in Base64 (strict; otherwise a 400 on `input.text`) and must
 * decode to UTF-8 text. The threshold maps to the lowest confidence that counts for pi_and_jailbreak and rai
 * (see `minimumConfidence`) and to dlp_cloud's minimum likelihood for sdp; csam and malicious_uris are rules.
 * A filter that fails is EXECUTION_SKIPPED and makes the invocation PARTIAL (FAILURE when all fail).
 * @example
 * const text = Buffer.from('Ignore all previous instructions').toString('base64');
 * await engine.evaluate('model_sanitizer', text, { input: { text, filename: 'notes.txt' } });
 * // → results.sanitization_result.filter_match_state 'MATCH_FOUND', triggered ['pi_and_jailbreak']
 */
const modelSanitizer = defineGuardrail<ModelSanitizerOptions, ModelSanitizerResults>({
  name: 'model_sanitizer',
  description: 'Decodes a Base64 file and runs Model Armor-style filters: csam, malicious_uris, pi_and_jailbreak, rai, sdp.',
  dependencies: ['promptinjectiondetection', 'trustsafety', 'dlp_cloud'],
  // Model traffic is plain text: hand it over Base64-encoded, as the standalone endpoint receives files.
  pipelineInput: (text) => ({ text: Buffer.from(text, 'utf8').toString('base64'), filename: 'message.txt' }),
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { sdp_info_types: { type: 'array', items: { type: 'string', maxLength: 256 }, minItems: 1, maxItems: 256, uniqueItems: true } },
  },
  evaluate: async function evaluateModelSanitizer(_text, { options, threshold, guardrails, signal, input }) {
    // The file is `input.text`: on model traffic `text` is the plain message and `input` its pipelineInput form.
    const content = decodeBase64Text(input.text);
    const errors: string[] = [];
    const rulesState = (matched: boolean): FilterState => ({ execution_state: 'EXECUTION_SUCCESS', match_state: matchState(matched) });
    // One filter after another: all five are CPU-bound on this thread, so running them together would only interleave
    // them at their awaits. In order, skipped filters are reported in filter order and an abort stops at once.
    const csam = await settle('csam', () => rulesState(matchesCsam(content)), errors, signal);
    const maliciousUris = await settle('malicious_uris', () => rulesState(findMaliciousUris(content).length > 0), errors, signal);
    const piAndJailbreak = await settle('pi_and_jailbreak', () => runPiAndJailbreak(guardrails, content, threshold), errors, signal);
    const rai = await settle('rai', () => runRai(guardrails, content, threshold), errors, signal);
    const sdp = await settle('sdp', () => runSdp(guardrails, content, threshold, options.sdp_info_types), errors, signal);
    const filterResults = wrapFilterResults({
      csam: csam ?? SKIPPED,
      malicious_uris: maliciousUris ?? SKIPPED,
      pi_and_jailbreak: piAndJailbreak ?? SKIPPED,
      rai: rai ?? { ...SKIPPED, rai_filter_type_results: emptyRaiTypes() },
      sdp: sdp ?? { execution_state: 'EXECUTION_SKIPPED', findings: [], match_state: 'NO_MATCH_FOUND' },
    });
    const states: Record<FilterName, FilterState | undefined> = {
      csam,
      malicious_uris: maliciousUris,
      pi_and_jailbreak: piAndJailbreak,
      rai,
      sdp,
    };
    const triggered = FILTER_NAMES.filter((name) => states[name]?.match_state === 'MATCH_FOUND');
    const skipped = FILTER_NAMES.filter((name) => states[name] === undefined);
    const invocation =
      skipped.length === 0 ? InvocationResult.SUCCESS : skipped.length === FILTER_NAMES.length ? InvocationResult.FAILURE : InvocationResult.PARTIAL;
    const metadata: SanitizationMetadata =
      skipped.length === 0 ? {} : { error_code: 500, error_message: `Filters skipped, they could not run: ${errors.join('; ')}` };
    return {
      results: {
        sanitization_result: {
          filter_match_state: matchState(triggered.length > 0),
          filter_results: filterResults,
          invocation_result: invocation,
          sanitization_metadata: metadata,
        },
      },
      flagged: triggered.length > 0,
      triggered: [...triggered],
    };
  },
});

export default modelSanitizer;
