// The wording-rule shape the scanner's rule files share, its runner, and the evidence snippet helper.
import type { Severity, ToolFinding, ToolString, ToolStringKind } from './scan-types.js';

/** Longest evidence snippet, in characters. */
export const MAX_EVIDENCE = 120;

/** A rule over the folded text of tool strings. */
export interface WordingRule {
  id: string;
  severity: Severity;
  /** A global regex, read on `ToolString.folded` (NFKC, invisible characters out, lower case). */
  pattern: RegExp;
  /** The kinds of string the rule reads; text and object keys by default. */
  kinds?: readonly ToolStringKind[];
  /** Adjusts the severity of one match, or drops it (undefined). */
  refine?: (match: RegExpExecArray, string: ToolString) => Severity | undefined;
}

/** Makes invisible and control characters visible as `<U+XXXX>`, so evidence shows what is hidden. */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/gu, (char) =>
    char === '\n' ? ' ' : `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}

/** A snippet of `text` around `[start, end)`, at most {@link MAX_EVIDENCE} characters, with a little context. */
export function snippet(text: string, start: number, end: number): string {
  const context = Math.max(0, Math.floor((MAX_EVIDENCE - (end - start)) / 2) - 2);
  const from = Math.max(0, start - Math.min(context, 30));
  const to = Math.min(text.length, end + Math.min(context, 30));
  const body = visible(text.slice(from, to)).replace(/\s+/g, ' ').trim();
  const clipped = body.length > MAX_EVIDENCE ? `${body.slice(0, MAX_EVIDENCE - 1)}…` : body;
  return clipped;
}

/** Runs wording rules on tool strings; one finding per rule and location (the first match). */
export function runWordingRules(rules: readonly WordingRule[], strings: readonly ToolString[]): ToolFinding[] {
  const findings: ToolFinding[] = [];
  for (const rule of rules) {
    const kinds = rule.kinds ?? ['text', 'key'];
    for (const string of strings) {
      if (!kinds.includes(string.kind)) continue;
      rule.pattern.lastIndex = 0;
      for (let match = rule.pattern.exec(string.folded); match; match = rule.pattern.exec(string.folded)) {
        if (match[0] === '') {
          rule.pattern.lastIndex++;
          continue;
        }
        const severity = rule.refine ? rule.refine(match, string) : rule.severity;
        if (!severity) continue;
        findings.push({ rule: rule.id, severity, evidence: snippet(string.folded, match.index, match.index + match[0].length), location: string.location });
        break;
      }
    }
  }
  return findings;
}
