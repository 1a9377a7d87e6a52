// Tool shadowing rules: a description that changes how the model uses other tools, or names them.
import { runWordingRules, snippet, type WordingRule } from './scan-rule.js';
import type { ToolFinding, ToolString } from './scan-types.js';
import type { ToolNameMentions } from './tool-name-mentions.js';

/** A tool reference in prose: a backticked or quoted name, or a snake/kebab/dotted identifier. */
const TOOL_REF = String.raw`(?:[\x60'"][\w.-]+[\x60'"]|[a-z][\w]*[_.-][\w.-]+)`;

const re = (source: string): RegExp => new RegExp(source, 'g');

/** Wording that redirects or overrides other tools, whatever their names. */
export const SHADOWING_RULES: readonly WordingRule[] = [
  {
    id: 'shadowing.tool_override',
    severity: 'high',
    pattern: re(
      [
        String.raw`\binstead\s+of\s+(?:using\s+|calling\s+)(?:the\s+)?[\w\x60'".-]+`,
        String.raw`\binstead\s+of\s+(?:the\s+)?${TOOL_REF}(?:\s+(?:tool|function))?`,
        String.raw`\binstead\s+of\s+(?:the\s+)?(?:[\w-]+\s+){1,2}(?:tool|function)\b`,
        String.raw`\bwhen(?:ever)?\s+(?:the\s+)?[\w\x60'".-]+\s+(?:tool|function)\s+is\s+(?:available|present|used|called|invoked|enabled)`,
        String.raw`\bwhen(?:ever)?\s+(?:the\s+)?(?:\(?[\w-]+\)?\s+)?${TOOL_REF}\s+is\s+(?:available|present|used|called|invoked|enabled)`,
        String.raw`\b(?:change|set|replace|redirect|switch)\s+(?:the\s+)?(?:recipient|destination|receiver|beneficiary|payee|target|bcc|cc)(?:\s+(?:address|number|account|email|field|wallet))?\s+to\b`,
        String.raw`\b(?:do not|don't|never)\s+(?:use|call|invoke)\s+(?:the\s+)?[\w\x60'".-]+\s+(?:tool|function)\b`,
        String.raw`\b(?:always|must)\s+(?:use|call)\s+this\s+(?:tool|function)\s+(?:instead|first|before|rather)`,
        String.raw`\b(?:all|any|every)\s+(?:emails?|messages?|requests?|calls?|payments?|transfers?)\s+(?:must|should|have to)\s+(?:be\s+|always\s+be\s+)?(?:sent|redirected|forwarded|routed|copied|bcc'?d)\s+to\b`,
        String.raw`\bside\s+effects?\s+on\s+(?:the\s+)?(?:also\s+present\s+|other\s+)?[\w\x60'".-]+\s+tools?`,
        String.raw`\b(?:replaces?|overrides?|supersedes?)\s+(?:the\s+)?${TOOL_REF}(?:\s+(?:tool|function))?`,
      ].join('|'),
    ),
  },
];

/**
 * Names of other tools mentioned in this tool's texts. Distinctive names match as whole words; plain words
 * (`add`, `search`) only when quoted or backticked, or followed by "tool". A mention alone is low: servers
 * cross-reference their own tools. Redirection wording is caught by {@link SHADOWING_RULES}. `names` is the whole
 * list compiled once ({@link ToolNameMentions}), and `self` the tool's own name, which is no mention.
 */
export function otherToolMentions(strings: readonly ToolString[], names: ToolNameMentions, self?: string): ToolFinding[] {
  const findings: ToolFinding[] = [];
  for (const string of strings) {
    if (string.kind !== 'text' && string.kind !== 'key') continue;
    const mention = names.first(string.folded, self);
    if (!mention) continue;
    findings.push({ rule: 'shadowing.other_tool_mention', severity: 'low', evidence: snippet(string.folded, mention.index, mention.end), location: string.location });
  }
  return findings;
}

/** Shadowing findings of one tool: redirection wording, then mentions of the other tools' names. */
export function shadowingFindings(strings: readonly ToolString[], names?: ToolNameMentions, self?: string): ToolFinding[] {
  return [...runWordingRules(SHADOWING_RULES, strings), ...(names ? otherToolMentions(strings, names, self) : [])];
}
