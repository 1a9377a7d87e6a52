// Types of the offline tool vulnerability scan: the tool as scanned, findings, severities and the scan result.
import type { ToolNameMentions } from './tool-name-mentions.js';

/** Severities, lowest first. */
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

/** How bad one finding is. */
export type Severity = (typeof SEVERITIES)[number];

/** The overall risk of a tool: its worst finding, or `none`. */
export type ToolRisk = 'none' | Severity;

/** A tool as a tool server lists it (MCP `tools/list`). */
export interface ScannableTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** One finding of the scan. */
export interface ToolFinding {
  /** Rule id, e.g. `poisoning.hidden_tag`. */
  rule: string;
  severity: Severity;
  /** The text that matched, at most 120 characters, invisible characters shown as `<U+200B>`. */
  evidence: string;
  /** Where in the tool: `name`, `description`, `inputSchema.properties.path.description`, … */
  location: string;
}

/** The result of scanning one tool. */
export interface ToolScanResult {
  risk: ToolRisk;
  findings: ToolFinding[];
  /** When the scan ran, ISO 8601. */
  scanned_at: string;
}

/** What a string of the tool is: its name, a parameter name, an object key, or text (descriptions, enums, defaults…). */
export type ToolStringKind = 'name' | 'parameter' | 'key' | 'text';

/** One string read from a tool, with where it was found. */
export interface ToolString {
  kind: ToolStringKind;
  location: string;
  /** The string as the server sent it. */
  text: string;
  /** NFKC, invisible characters removed, lower case: what the wording rules read. */
  folded: string;
}

/** Context of a scan. */
export interface ScanContext {
  /** Names of the other tools on the same server (or registry), for shadowing checks. */
  otherToolNames?: string[];
  /**
   * The names of the whole list the tool is in, compiled once for every tool of it (the tool's own name is skipped):
   * what a caller scanning a whole list passes instead of `otherToolNames`, so the list costs linear time.
   */
  toolNames?: ToolNameMentions;
  /** Clock for `scanned_at`; tests pass a fixed one. */
  now?: () => Date;
}
