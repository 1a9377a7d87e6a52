// Helpers shared by the detector families: context words near a hit, likelihood steps, and regex scanning.
import type { InfoType, LikelihoodValue, PiiCandidate } from '../info-types.js';

/** True when `pattern` matches within `before` characters ahead of `start` or `after` characters past `end`. */
export function hasContext(text: string, start: number, end: number, pattern: RegExp, before = 40, after = 0): boolean {
  if (before > 0 && pattern.test(text.slice(Math.max(0, start - before), start))) return true;
  return after > 0 && pattern.test(text.slice(end, end + after));
}

/** Raises (or lowers) a likelihood by `steps`, kept within 1 to 5. */
export function stepLikelihood(likelihood: number, steps: number): LikelihoodValue {
  return Math.min(5, Math.max(1, likelihood + steps)) as LikelihoodValue;
}

/** Number of ASCII digits in `value`. */
export function countDigits(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  return count;
}

/**
 * A text every match of a pattern holds, at most `reach` UTF-16 units after the match's start (the `@` of an e-mail
 * address): the scan jumps to where a match could start before the next one, since none can start earlier.
 */
export interface PatternAnchor {
  text: string;
  reach: number;
}

/**
 * Runs a global regex over `text` and turns each match into a candidate, or none when `score` answers 0.
 * `group` picks a capture group as the span (its offset comes from the `d` flag's indices). With an `anchor`, the
 * regex only runs from `reach` units before each anchor on (the same matches: see {@link PatternAnchor}).
 */
export function scanPattern(
  text: string,
  pattern: RegExp,
  infoType: InfoType,
  score: (match: RegExpExecArray, start: number, end: number) => number,
  group = 0,
  anchor?: PatternAnchor,
): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  pattern.lastIndex = 0;
  for (;;) {
    if (anchor) {
      const next = text.indexOf(anchor.text, pattern.lastIndex);
      if (next < 0) break;
      pattern.lastIndex = Math.max(pattern.lastIndex, next - anchor.reach);
    }
    const match = pattern.exec(text);
    if (!match) break;
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    const span = group === 0 ? [match.index, match.index + match[0].length] : match.indices?.[group];
    if (!span) continue;
    const [start, end] = span;
    const likelihood = score(match, start, end);
    if (likelihood >= 1) found.push({ infoType, start, end, likelihood: Math.min(5, likelihood) as LikelihoodValue });
  }
  return found;
}
