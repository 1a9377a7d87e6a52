// The dlp_cloud transformation strategies: mask, redact, replace, inspect and reject.
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
}

/** Rebuilds `text` with each hit (non-overlapping, in order) replaced by `replacement(hit)`. */
function rewrite(text: string, hits: readonly PiiCandidate[], replacement: (hit: PiiCandidate) => string): string {
  let out = '';
  let cursor = 0;
  for (const hit of hits) {
    out += text.slice(cursor, hit.start) + replacement(hit);
    cursor = hit.end;
  }
  return out + text.slice(cursor);
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
      return { content: rewrite(text, hits, (hit) => maskChar.repeat(codepointLength(text.slice(hit.start, hit.end)))) };
    case 'redact':
      return { content: rewrite(text, hits, () => '') };
    case 'replace':
      return { content: rewrite(text, hits, (hit) => `[${hit.infoType}]`) };
    case 'inspect':
      return hits.length > 0 ? { content: text, reject_prompt: rejectPrompt(typesOf(hits)) } : { content: text };
    case 'reject':
      return { content: text, reject_prompt: rejectPrompt(typesOf(hits)) };
  }
}
