// The dlp_cloud transformation strategies: mask, redact, replace, inspect and reject.
import type { TextReplacement } from '../../../src/plugins/plugin-api.js';
import type { InfoType, PiiCandidate } from './info-types.js';
import { codepointLength } from './text-offsets.js';

/** The strategies the spec names. */
export const STRATEGIES = ['mask', 'redact', 'replace', 'inspect', 'reject'] as const;

/** One strategy. */
export type Strategy = (typeof STRATEGIES)[number];

/** What a strategy makes of the text. */
export interface StrategyOutcome {
  content: string;
  reject_prompt?: string;
  /** The spans of the text a transforming strategy replaced (mask, redact, replace), with what replaced each. */
  replacements?: TextReplacement[];
}

/** The strategies that rewrite the text. */
export const TRANSFORMING_STRATEGIES: ReadonlySet<Strategy> = new Set(['mask', 'redact', 'replace']);

/** Rebuilds `text` with each hit (non-overlapping, in order) replaced by `replacement(hit)`, and says what replaced what. */
function rewrite(text: string, hits: readonly PiiCandidate[], replacement: (hit: PiiCandidate) => string): StrategyOutcome {
  let content = '';
  let cursor = 0;
  const replacements: TextReplacement[] = [];
  for (const hit of hits) {
    const replaced = replacement(hit);
    content += text.slice(cursor, hit.start) + replaced;
    replacements.push({ start: hit.start, end: hit.end, replacement: replaced });
    cursor = hit.end;
  }
  return { content: content + text.slice(cursor), replacements };
}

/** The message returned with `reject` (and `inspect`): names the info types found, without quoting them. */
export function rejectPrompt(infoTypes: readonly InfoType[]): string {
  if (infoTypes.length === 0) return 'No sensitive data was found.';
  return `The content was rejected because it contains sensitive data: ${infoTypes.join(', ')}. Remove it and try again.`;
}

/** The distinct info types of the hits, in order of first appearance. */
function typesOf(hits: readonly PiiCandidate[]): InfoType[] {
  return [...new Set(hits.map((hit) => hit.infoType))];
}

/**
 * Applies `strategy` to `text` given the hits to act on.
 * mask: each hit's characters become `maskChar`, one per code point (the length a reader sees is kept);
 * redact: hits are removed; replace: each hit becomes `[INFO_TYPE]`;
 * reject: unchanged, always with a `reject_prompt` naming the info types found;
 * inspect: unchanged; it also carries the `reject_prompt` when something was found, as the spec's inspect example does.
 * @example
 * applyStrategy('mask', 'pin 1234', [{ infoType: 'PASSWORD', start: 4, end: 8, likelihood: 4 }], '*') // → { content: 'pin ****' }
 */
export function applyStrategy(strategy: Strategy, text: string, hits: readonly PiiCandidate[], maskChar: string): StrategyOutcome {
  switch (strategy) {
    case 'mask':
      return rewrite(text, hits, (hit) => maskChar.repeat(codepointLength(text.slice(hit.start, hit.end))));
    case 'redact':
      return rewrite(text, hits, () => '');
    case 'replace':
      return rewrite(text, hits, (hit) => `[${hit.infoType}]`);
    case 'inspect':
      return hits.length > 0 ? { content: text, reject_prompt: rejectPrompt(typesOf(hits)) } : { content: text };
    case 'reject':
      return { content: text, reject_prompt: rejectPrompt(typesOf(hits)) };
  }
}
