// The security_filters guardrail: command injection, path traversal, secrets leakage and SQL injection in MCP tool responses.
import { defineGuardrail } from '../../../src/plugins/plugin-api.js';
import { COMMAND_INJECTION_RULES } from './command-injection-rules.js';
import { combineScores, runRules, SECURITY_CATEGORIES, type PatternRule, type RuleHit, type SecurityCategory } from './filter-rule.js';
import { PATH_TRAVERSAL_RULES } from './path-traversal-rules.js';
import { decodePayload } from './payload-decoder.js';
import { SECRET_RULES } from './secret-rules.js';
import { SQL_INJECTION_RULES } from './sql-injection-rules.js';

export { decodePayload, type DecodedText } from './payload-decoder.js';
export { SECURITY_CATEGORIES, type SecurityCategory } from './filter-rule.js';

/** Options of security_filters (defaults filled by its schema). */
export interface SecurityFiltersOptions {
  /** The families to check; the others report false and 0. */
  categories: SecurityCategory[];
  /** The most characters read from one text; the rest is not scanned (keeps evaluation bounded). */
  scan_limit: number;
}

/** One finding: the family, the rule that matched and a short evidence snippet (secrets masked). */
export interface SecurityFinding {
  category: SecurityCategory;
  rule: string;
  evidence: string;
}

/** Results of security_filters. */
export interface SecurityFiltersResults {
  categories: Record<SecurityCategory, boolean>;
  category_scores: Record<SecurityCategory, number>;
  /** The rules behind every category above the threshold, strongest first (weak hits below 0.35 left out). */
  findings: SecurityFinding[];
}

/** Hits below this score (placeholder-looking tokens, for one) are left out of the findings of a triggered family. */
const MIN_FINDING_SCORE = 0.35;

const RULES: Record<SecurityCategory, readonly PatternRule[]> = {
  command_injection: COMMAND_INJECTION_RULES,
  path_traversal: PATH_TRAVERSAL_RULES,
  secrets_leakage: SECRET_RULES,
  sql_injection: SQL_INJECTION_RULES,
};

/** Keeps the best hit of each rule id (several patterns can share one id). */
function bestPerRule(hits: RuleHit[]): RuleHit[] {
  const best = new Map<string, RuleHit>();
  for (const hit of hits) {
    const kept = best.get(hit.rule);
    if (!kept || hit.score > kept.score) best.set(hit.rule, hit);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/**
 * Scores every checked family on one text. Injection families read the payload decoded (percent, double percent,
 * %u, overlong UTF-8, HTML entities, `\u` escapes, null bytes out); secrets read the text as sent.
 * @example
 * scanSecurityFilters("id=1' OR '1'='1' --") // → hits for sql_injection, among them sql.tautology
 */
export function scanSecurityFilters(text: string, categories: readonly SecurityCategory[] = SECURITY_CATEGORIES): Map<SecurityCategory, RuleHit[]> {
  const decoded = decodePayload(text);
  const hits = new Map<SecurityCategory, RuleHit[]>();
  for (const category of categories) hits.set(category, bestPerRule(runRules(RULES[category], decoded)));
  return hits;
}

/**
 * The registry-level "security filters" family for MCP tool responses: command injection, path traversal,
 * secrets leakage and SQL injection. Each family's rules give scores in [0, 1], combined per family; a family is
 * true (and flags the text) when its score is above the threshold.
 * @example
 * await engine.add(securityFilters);
 * const outcome = await engine.evaluate('security_filters', 'file=..%252f..%252f..%252fetc%252fpasswd');
 * // outcome.flagged === true, outcome.triggered → ['path_traversal']
 */
export const securityFilters = defineGuardrail<SecurityFiltersOptions, SecurityFiltersResults>({
  name: 'security_filters',
  description: 'Detects command injection, path traversal, secrets leakage and SQL injection in tool responses, through encodings.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      categories: { type: 'array', items: { type: 'string', enum: [...SECURITY_CATEGORIES] }, uniqueItems: true, default: [...SECURITY_CATEGORIES] },
      scan_limit: { type: 'integer', minimum: 1000, maximum: 1_000_000, default: 100_000 },
    },
  },
  evaluate: function evaluateSecurityFilters(text, { options, threshold }) {
    const bounded = text.length > options.scan_limit ? text.slice(0, options.scan_limit) : text;
    const hits = scanSecurityFilters(bounded, options.categories);
    const categories = {} as Record<SecurityCategory, boolean>;
    const scores = {} as Record<SecurityCategory, number>;
    const findings: SecurityFinding[] = [];
    for (const category of SECURITY_CATEGORIES) {
      const categoryHits = hits.get(category) ?? [];
      scores[category] = combineScores(categoryHits);
      categories[category] = scores[category] > threshold;
      if (!categories[category]) continue;
      for (const hit of categoryHits) if (hit.score >= MIN_FINDING_SCORE) findings.push({ category, rule: hit.rule, evidence: hit.evidence });
    }
    const triggered = SECURITY_CATEGORIES.filter((category) => categories[category]);
    return { results: { categories, category_scores: scores, findings }, flagged: triggered.length > 0, triggered };
  },
});

export default securityFilters;
