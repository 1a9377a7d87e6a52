// The rule shape every security filter family uses, the runner that applies rules to a decoded text, and score combining.
import { ENCODED_NEWLINE, type DecodedText } from './payload-decoder.js';

/** The four families of the registry-level "security filters" policy. */
export const SECURITY_CATEGORIES = ['command_injection', 'path_traversal', 'secrets_leakage', 'sql_injection'] as const;

/** One family. */
export type SecurityCategory = (typeof SECURITY_CATEGORIES)[number];

/** One rule that matched: its id, its score in [0, 1], and a short evidence snippet. */
export interface RuleHit {
  rule: string;
  score: number;
  evidence: string;
}

/** A regex rule. The pattern must be global; `score` answers 0 for a match that does not count. */
export interface PatternRule {
  id: string;
  pattern: RegExp;
  score: number | ((match: RegExpExecArray, text: DecodedText) => number);
  /** The text the rule reads: the decoded payload (default) or the text as sent (look-alikes folded). */
  on?: 'decoded' | 'raw';
  /** Lower-case substrings; the regex runs only when the text holds one of them (cheap pre-filter). */
  hints?: readonly string[];
  /** Builds the evidence from the match; the default is the matched text, shortened. */
  evidence?: (match: RegExpExecArray) => string;
}

/** Longest evidence snippet, in characters. */
const MAX_EVIDENCE = 80;
/** Matches read per rule: enough to find the best-scoring one without unbounded work on hostile input. */
const MAX_MATCHES_PER_RULE = 20;

/** Shortens a snippet and makes control characters visible, so evidence is one readable line. */
export function formatEvidence(snippet: string): string {
  const visible = snippet
    .split(ENCODED_NEWLINE)
    .join('%0a')
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, ' ');
  return visible.length > MAX_EVIDENCE ? `${visible.slice(0, MAX_EVIDENCE - 1)}…` : visible;
}

/** Applies `rules` to a decoded text; answers at most one hit (the best-scoring match) per rule. */
export function runRules(rules: readonly PatternRule[], text: DecodedText): RuleHit[] {
  const lower = { decoded: text.decoded.toLowerCase(), raw: text.raw === text.decoded ? '' : text.raw.toLowerCase() };
  const hits: RuleHit[] = [];
  for (const rule of rules) {
    const on = rule.on ?? 'decoded';
    const source = on === 'raw' ? text.raw : text.decoded;
    const lowered = on === 'raw' && lower.raw !== '' ? lower.raw : lower.decoded;
    if (rule.hints && !rule.hints.some((hint) => lowered.includes(hint))) continue;
    let best: RuleHit | undefined;
    rule.pattern.lastIndex = 0;
    let seen = 0;
    for (let match = rule.pattern.exec(source); match && seen < MAX_MATCHES_PER_RULE; match = rule.pattern.exec(source), seen++) {
      if (match[0] === '') rule.pattern.lastIndex++;
      const score = typeof rule.score === 'number' ? rule.score : rule.score(match, text);
      if (score > 0 && (!best || score > best.score)) {
        best = { rule: rule.id, score, evidence: formatEvidence(rule.evidence ? rule.evidence(match) : match[0].trim()) };
      }
    }
    if (best) hits.push(best);
  }
  return hits;
}

/**
 * Combines rule scores into one category score: independent evidence adds up (noisy-OR, 1 − Π(1 − s)), so two
 * weak signals can outweigh one, while a single strong rule decides alone. Rounded to three decimals.
 */
export function combineScores(hits: readonly RuleHit[]): number {
  const miss = hits.reduce((product, hit) => product * (1 - Math.min(1, Math.max(0, hit.score))), 1);
  return Math.round((1 - miss) * 1000) / 1000;
}
