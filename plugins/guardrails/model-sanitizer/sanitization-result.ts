// The shapes of model_sanitizer's results (Model Armor's SanitizationResult in snake case) and their builders.
import type { ConfidenceLevel } from './confidence-levels.js';

export type ExecutionState = 'EXECUTION_SUCCESS' | 'EXECUTION_SKIPPED';
export type MatchState = 'MATCH_FOUND' | 'NO_MATCH_FOUND';

/** Model Armor's InvocationResult: every filter ran, some did, or none did. */
export const InvocationResult = { SUCCESS: 1, PARTIAL: 2, FAILURE: 3 } as const;
export type InvocationResultValue = (typeof InvocationResult)[keyof typeof InvocationResult];

/** What every filter reports. */
export interface FilterState {
  execution_state: ExecutionState;
  match_state: MatchState;
}

export interface ConfidenceFilterState extends FilterState {
  confidence_level?: ConfidenceLevel;
}

/** One rai category: its match and, when matched, the confidence. */
export interface RaiTypeResult {
  match_state: MatchState;
  confidence_level?: ConfidenceLevel;
}

export type RaiType = 'dangerous' | 'harassment' | 'hate_speech' | 'sexually_explicit';

export interface RaiFilterState extends FilterState {
  rai_filter_type_results: Record<RaiType, RaiTypeResult>;
}

/** One sdp finding, as dlp_cloud reports it (without the quote). */
export interface SdpFinding {
  info_type: string;
  likelihood: number;
  location: { byte_range: { start: number; end: number }; codepoint_range: { start: number; end: number } };
}

export interface SdpInspectState extends FilterState {
  findings: SdpFinding[];
}

/** The five filters, each wrapped as Model Armor wraps them. */
export interface FilterResults {
  csam: { FilterResult: { CsamFilterFilterResult: FilterState } };
  malicious_uris: { FilterResult: { MaliciousUriFilterResult: FilterState } };
  pi_and_jailbreak: { FilterResult: { PiAndJailbreakFilterResult: ConfidenceFilterState } };
  rai: { FilterResult: { RaiFilterResult: RaiFilterState } };
  sdp: { FilterResult: { SdpFilterResult: { Result: { InspectResult: SdpInspectState } } } };
}

/** Model Armor's SanitizationMetadata: an error code and message when a filter could not run. */
export interface SanitizationMetadata {
  error_code?: number;
  error_message?: string;
}

/** Results of model_sanitizer. */
export interface ModelSanitizerResults {
  sanitization_result: {
    filter_match_state: MatchState;
    filter_results: FilterResults;
    invocation_result: InvocationResultValue;
    sanitization_metadata: SanitizationMetadata;
  };
}

/** The name of each filter, in the order results list them. */
export const FILTER_NAMES = ['csam', 'malicious_uris', 'pi_and_jailbreak', 'rai', 'sdp'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export const matchState = (matched: boolean): MatchState => (matched ? 'MATCH_FOUND' : 'NO_MATCH_FOUND');

/** The state of a filter that could not run. */
export const SKIPPED: FilterState = { execution_state: 'EXECUTION_SKIPPED', match_state: 'NO_MATCH_FOUND' };

/** The unmatched rai categories of a skipped rai filter. */
export function emptyRaiTypes(): Record<RaiType, RaiTypeResult> {
  return {
    dangerous: { match_state: 'NO_MATCH_FOUND' },
    harassment: { match_state: 'NO_MATCH_FOUND' },
    hate_speech: { match_state: 'NO_MATCH_FOUND' },
    sexually_explicit: { match_state: 'NO_MATCH_FOUND' },
  };
}

/** Wraps each filter's state in Model Armor's envelope. */
export function wrapFilterResults(states: {
  csam: FilterState;
  malicious_uris: FilterState;
  pi_and_jailbreak: ConfidenceFilterState;
  rai: RaiFilterState;
  sdp: SdpInspectState;
}): FilterResults {
  return {
    csam: { FilterResult: { CsamFilterFilterResult: states.csam } },
    malicious_uris: { FilterResult: { MaliciousUriFilterResult: states.malicious_uris } },
    pi_and_jailbreak: { FilterResult: { PiAndJailbreakFilterResult: states.pi_and_jailbreak } },
    rai: { FilterResult: { RaiFilterResult: states.rai } },
    sdp: { FilterResult: { SdpFilterResult: { Result: { InspectResult: states.sdp } } } },
  };
}
