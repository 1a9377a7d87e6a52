// The spans a transforming processor says it replaced: checked against its transformed text, merged, and applied to part of a text.
import type { GuardrailOutcome, TextReplacement } from '../../plugins/plugin-types.js';

/**
 * The spans of an outcome, when they can be trusted: in order, not overlapping, inside the text, and giving exactly its
 * `transformedText`. `[]` when the text is unchanged; undefined when it changed without sound spans.
 */
export function outcomeReplacements(text: string, outcome: Pick<GuardrailOutcome, 'transformedText' | 'replacements'>): TextReplacement[] | undefined {
  if (outcome.transformedText === undefined || outcome.transformedText === text) return [];
  const spans = outcome.replacements;
  if (!Array.isArray(spans)) return undefined;
  let cursor = 0;
  for (const span of spans) {
    const sound =
      span !== null && typeof span === 'object' && Number.isSafeInteger(span.start) && Number.isSafeInteger(span.end) &&
      typeof span.replacement === 'string' && span.start >= cursor && span.end >= span.start && span.end <= text.length;
    if (!sound) return undefined;
    cursor = span.end;
  }
  return applyReplacements(text, spans, 0, text.length) === outcome.transformedText ? spans : undefined;
}

/** The spans of several processors on one text, in order; undefined when spans of two overlap (they cannot both apply). */
export function mergeReplacements(lists: ReadonlyArray<readonly TextReplacement[]>): TextReplacement[] | undefined {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return [...(nonEmpty[0] ?? [])];
  const merged = nonEmpty.flat().sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < merged.length; i++) if (merged[i]!.start < merged[i - 1]!.end || (merged[i]!.start === merged[i - 1]!.start && merged[i]!.end === merged[i - 1]!.end)) return undefined;
  return merged;
}

/**
 * `text.slice(from, to)` with its spans replaced: a span starting in `[from, to)` (an empty one at `from` included) gives
 * its replacement and the text up to its end is skipped; a span that began before `from` and reaches past it gives its
 * whole replacement in place of its rest (its start was sent before it was known to be one).
 */
export function applyReplacements(text: string, spans: readonly TextReplacement[], from: number, to: number): string {
  let out = '';
  let cursor = from;
  for (const span of spans) {
    // An empty span (an insertion) at the very end of the text belongs to the last part.
    const inside = span.start >= from && (span.start < to || (span.start === to && span.end === to && to === text.length));
    const straddling = span.start < from && span.end > from;
    if (!inside && !straddling) continue;
    out += text.slice(cursor, Math.max(span.start, cursor)) + span.replacement;
    cursor = Math.max(cursor, span.end);
  }
  return cursor < to ? out + text.slice(cursor, to) : out;
}
