// The offline tool vulnerability scanner: reads every string of an MCP tool and reports poisoning, shadowing and risky surfaces.
import { parameterFindings } from './parameter-rules.js';
import { POISONING_RULES } from './poisoning-rules.js';
import { runWordingRules } from './scan-rule.js';
import { SEVERITIES, type ScanContext, type ScannableTool, type Severity, type ToolFinding, type ToolRisk, type ToolScanResult } from './scan-types.js';
import { shadowingFindings } from './shadowing-rules.js';
import { ToolNameMentions } from './tool-name-mentions.js';
import { toolStrings } from './tool-strings.js';
import { unicodeFindings } from './unicode-rules.js';

export { toolFingerprint, canonicalJson } from './tool-fingerprint.js';
export { ToolNameMentions } from './tool-name-mentions.js';
export type { ScanContext, ScannableTool, Severity, ToolFinding, ToolRisk, ToolScanResult } from './scan-types.js';

const rank = (severity: Severity): number => SEVERITIES.indexOf(severity);

/** Keeps one finding per rule and location (the most severe), ordered most severe first, then by location. */
function dedupe(findings: ToolFinding[]): ToolFinding[] {
  const kept = new Map<string, ToolFinding>();
  for (const finding of findings) {
    const key = `${finding.rule}\u0000${finding.location}`;
    const current = kept.get(key);
    if (!current || rank(finding.severity) > rank(current.severity)) kept.set(key, finding);
  }
  return [...kept.values()].sort((a, b) => rank(b.severity) - rank(a.severity) || a.location.localeCompare(b.location) || a.rule.localeCompare(b.rule));
}

/** The overall risk: the most severe finding, or `none`. */
function riskOf(findings: readonly ToolFinding[]): ToolRisk {
  return findings.reduce<ToolRisk>((worst, f) => (worst === 'none' || rank(f.severity) > rank(worst) ? f.severity : worst), 'none');
}

/**
 * Scans one tool, statically and offline. Reads the name, the description and every string of the input schema
 * (descriptions, titles, enums, defaults, examples, nested properties, items, anyOf…), parameter names and
 * annotations, and reports: hidden instructions and tool poisoning, exfiltration-shaped parameters, shadowing of
 * other tools, sensitive paths, invisible or look-alike characters, and command, SQL, file and URL surfaces.
 * `risk` is the most severe finding.
 * @example
 * scanTool({ name: 'get_weather', description: 'Current weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } })
 * // → { risk: 'none', findings: [], scanned_at: '2025-…' }
 */
export function scanTool(tool: ScannableTool, context: ScanContext = {}): ToolScanResult {
  const { strings, truncated } = toolStrings(tool);
  const unread: ToolFinding[] = truncated
    ? [{ rule: 'schema.unscanned', severity: 'medium', evidence: 'schema deeper or larger than the scanner reads; the rest is unchecked', location: truncated }]
    : [];
  const findings = dedupe([
    ...unread,
    ...runWordingRules(POISONING_RULES, strings),
    ...shadowingFindings(strings, context.toolNames ?? (context.otherToolNames ? new ToolNameMentions(context.otherToolNames) : undefined), tool.name),
    ...unicodeFindings(strings),
    ...parameterFindings(tool, strings),
  ]);
  return { risk: riskOf(findings), findings, scanned_at: (context.now?.() ?? new Date()).toISOString() };
}
