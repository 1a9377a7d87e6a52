// The filters of model_sanitizer that reuse other guardrails: pi_and_jailbreak, rai and sdp.
import type { GuardrailLookup } from '../../../src/plugins/plugin-api.js';
import { countedConfidence } from './confidence-levels.js';
import {
  matchState,
  type ConfidenceFilterState,
  type RaiFilterState,
  type RaiType,
  type RaiTypeResult,
  type SdpFinding,
  type SdpInspectState,
} from './sanitization-result.js';

/** The `results` shape shared by promptinjectiondetection and trustsafety. */
interface CategoryResults {
  category_scores?: Record<string, unknown>;
}

/** A score from a results object; a missing or non-numeric score counts as 0. */
function scoreOf(results: unknown, category: string): number {
  const value = (results as CategoryResults | undefined)?.category_scores?.[category];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A confidence filter state from a score: matched with its level when the level counts for the threshold. */
function confidenceState(score: number, threshold: number): RaiTypeResult {
  const level = countedConfidence(score, threshold);
  return level ? { match_state: 'MATCH_FOUND', confidence_level: level } : { match_state: 'NO_MATCH_FOUND' };
}

/** pi_and_jailbreak from promptinjectiondetection: the higher of the prompt_injection and jailbreak scores. */
export async function runPiAndJailbreak(lookup: GuardrailLookup, text: string, threshold: number): Promise<ConfidenceFilterState> {
  const outcome = await lookup.evaluate('promptinjectiondetection', text, { threshold });
  const score = Math.max(scoreOf(outcome.results, 'prompt_injection'), scoreOf(outcome.results, 'jailbreak'));
  const state = confidenceState(score, threshold);
  return {
    ...(state.confidence_level ? { confidence_level: state.confidence_level } : {}),
    execution_state: 'EXECUTION_SUCCESS',
    match_state: state.match_state,
  };
}

/** Which trustsafety categories feed each rai category; the rai score is the highest of them. */
const RAI_SOURCES: Record<RaiType, string[]> = {
  dangerous: ['violence', 'weapons', 'crime'],
  harassment: ['profanity', 'hate_speech'],
  hate_speech: ['hate_speech'],
  sexually_explicit: ['sexual'],
};

/** rai from trustsafety, category by category. */
export async function runRai(lookup: GuardrailLookup, text: string, threshold: number): Promise<RaiFilterState> {
  const outcome = await lookup.evaluate('trustsafety', text, { threshold });
  const types = {} as Record<RaiType, RaiTypeResult>;
  for (const [type, sources] of Object.entries(RAI_SOURCES) as Array<[RaiType, string[]]>) {
    types[type] = confidenceState(Math.max(...sources.map((source) => scoreOf(outcome.results, source))), threshold);
  }
  const matched = Object.values(types).some((result) => result.match_state === 'MATCH_FOUND');
  return { execution_state: 'EXECUTION_SUCCESS', match_state: matchState(matched), rai_filter_type_results: types };
}

/** sdp from dlp_cloud in inspect mode; the threshold maps to dlp_cloud's minimum likelihood. */
export async function runSdp(lookup: GuardrailLookup, text: string, threshold: number, infoTypes?: string[]): Promise<SdpInspectState> {
  const options: Record<string, unknown> = { strategy: 'inspect' };
  if (infoTypes) options.info_types = infoTypes;
  const outcome = await lookup.evaluate('dlp_cloud', text, { options, threshold });
  const raw = (outcome.results as { findings?: SdpFinding[] } | undefined)?.findings ?? [];
  const findings = raw.map(({ info_type, likelihood, location }) => ({
    info_type,
    likelihood,
    location: { byte_range: location.byte_range, codepoint_range: location.codepoint_range },
  }));
  return { execution_state: 'EXECUTION_SUCCESS', findings, match_state: matchState(findings.length > 0) };
}
