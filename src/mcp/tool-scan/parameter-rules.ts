// Parameter rules: exfiltration-shaped parameters, command execution, raw SQL and URL-fetch (SSRF) surfaces, annotations.
import { runWordingRules, type WordingRule } from './scan-rule.js';
import type { ScannableTool, Severity, ToolFinding, ToolString } from './scan-types.js';

/** A parameter of the tool: its name, where it is, and its folded description and title. */
interface Parameter {
  name: string;
  key: string;
  location: string;
  about: string;
}

/** Parameter names that ask for what a tool never needs, folded (lower case, no `_` or `-`). */
const EXFIL_NAMES: Array<[names: string[], severity: Severity]> = [
  [['conversationhistory', 'chathistory', 'messagehistory', 'fullconversation', 'conversation', 'systemprompt', 'systemmessage', 'systeminstructions', 'previousmessages', 'allmessages', 'priormessages', 'modelinstructions', 'assistantinstructions', 'chatlog'], 'high'],
  [['sidenote', 'sidechannel', 'hiddennote', 'secretnote', 'internalnotes', 'debuginfo'], 'medium'],
  [['context', 'notes', 'note', 'feedback', 'metadata', 'extra', 'extrainfo', 'additionalcontext', 'additionalinfo', 'memory', 'remarks'], 'low'],
];

/** Parameter names of a shell or code-execution surface. */
const COMMAND_NAMES = new Set(['command', 'cmd', 'shell', 'shellcommand', 'script', 'exec', 'bash', 'powershell', 'commandline', 'cmdline']);
const CODE_NAMES = new Set(['code', 'expression', 'expr', 'python', 'javascript', 'js', 'snippet']);
const SQL_NAMES = new Set(['sql', 'query', 'statement', 'sqlquery', 'rawsql', 'rawquery']);
const URL_NAMES = new Set(['url', 'uri', 'link', 'endpoint', 'href', 'webhook', 'webhookurl', 'callbackurl', 'targeturl', 'src', 'source_url', 'sourceurl']);
const PATH_NAMES = new Set(['path', 'file', 'filename', 'filepath', 'directory', 'dir', 'paths', 'folder']);

const fold = (name: string): string => name.toLowerCase().replace(/[_\-\s]/g, '');

/** The tool's parameters, at any depth, with their descriptions and titles. */
function parameters(strings: readonly ToolString[]): Parameter[] {
  const byLocation = new Map<string, string>();
  for (const s of strings) if (s.kind === 'text') byLocation.set(s.location, s.folded);
  return strings
    .filter((s) => s.kind === 'parameter')
    .map((s) => ({
      name: s.text,
      key: fold(s.text),
      location: s.location,
      about: [byLocation.get(`${s.location}.description`), byLocation.get(`${s.location}.title`)].filter(Boolean).join(' '),
    }));
}

/** Wording in descriptions (tool or parameter) that asks for conversation, prompts or file contents, or exposes execution. */
export const CAPABILITY_RULES: readonly WordingRule[] = [
  {
    id: 'exfil.parameter_instruction',
    severity: 'high',
    pattern:
      /\b(?:include|provide|pass|put|paste|insert|add|append|fill|send|enter|output|repeat|reveal|print|copy|dump|share)\b[^.\n]{0,60}?\b(?:(?:full|entire|whole|complete|previous|prior|your|last|recent)\s+(?:list\s+of\s+)?(?:(?:last|previous|recent|prior)\s+)?(?:conversation|chats?|message history|messages|context window|memory|history)|(?:the\s+|your\s+)?system\s+(?:prompt|instructions)|(?:all\s+)?(?:api keys|credentials|environment variables|private keys))\b|\b(?:pass|include|send|provide|put|attach|append)\s+(?:the\s+|its\s+|their\s+|this\s+|that\s+)?(?:full\s+|entire\s+)?contents?\s+(?:of|from|as|in|into)\b/g,
  },
  {
    id: 'capability.command_execution',
    severity: 'medium',
    pattern:
      /\b(?:runs?|executes?|evaluates?|evals?)\b[^.\n]{0,40}?\b(?:shell|terminal|bash|powershell|commands?|scripts?|code|subprocess)\b|\bsubprocess\b|\bos\.system\b|\bchild_process\b|\beval\s*\(|\bexec\s*\(/g,
    refine: (match, string) => (/\b(?:arbitrary|any)\s+(?:shell\s+)?(?:commands?|code|scripts?)\b/.test(string.folded) ? 'high' : 'medium'),
  },
  { id: 'capability.raw_sql', severity: 'medium', pattern: /\b(?:raw|arbitrary|any)\s+sql\b|\b(?:runs?|executes?)\b[^.\n]{0,30}?\bsql\b/g },
  {
    id: 'capability.url_fetch',
    severity: 'medium',
    pattern: /\b(?:any|arbitrary)\s+(?:urls?|hosts?|websites?|domains?|endpoints?)\b|\b169\.254\.169\.254\b|\b(?:internal|private)\s+(?:network|hosts?|ips?|services?)\b/g,
  },
];

/** Findings from parameter names, with their descriptions and the tool's own description for context. */
function parameterNameFindings(tool: ScannableTool, params: readonly Parameter[], description: string): ToolFinding[] {
  const findings: ToolFinding[] = [];
  const add = (rule: string, severity: Severity, param: Parameter, why: string): void => {
    findings.push({ rule, severity, evidence: `parameter "${param.name}"${why}`.slice(0, 120), location: param.location });
  };
  const toolText = `${fold(String(tool.name ?? ''))} ${description}`;
  for (const param of params) {
    const exfil = EXFIL_NAMES.find(([names]) => names.includes(param.key));
    if (exfil) add('exfil.parameter', exfil[1], param, ' collects data the tool does not need');
    const context = `${param.about} ${toolText}`;
    if (COMMAND_NAMES.has(param.key)) add('capability.command_execution', 'medium', param, ' takes a command to run');
    else if (CODE_NAMES.has(param.key) && /\b(?:run|execute|eval|evaluate)/.test(context)) add('capability.command_execution', 'medium', param, ' takes code to run');
    if (SQL_NAMES.has(param.key) && /\bsql\b|\bselect\b|\bstatement\b/.test(context)) add('capability.raw_sql', 'medium', param, ' takes a raw SQL statement');
    if (URL_NAMES.has(param.key) && /\b(?:fetch|request|download|get|retrieve|scrape|crawl|browse|navigate|visit|http|load|open)/.test(context)) {
      add('capability.url_fetch', 'low', param, ' is fetched by the server (SSRF surface)');
    }
    if (PATH_NAMES.has(param.key)) add('capability.file_access', /\b(?:any|arbitrary)\s+(?:file|path|directory)/.test(context) ? 'medium' : 'low', param, ' is a file system path');
  }
  return findings;
}

/** Annotation checks: a destructive tool (low), and a read-only hint that contradicts the tool's own wording (medium). */
function annotationFindings(tool: ScannableTool, description: string): ToolFinding[] {
  const annotations = tool.annotations;
  if (annotations === null || typeof annotations !== 'object') return [];
  const hints = annotations as Record<string, unknown>;
  const findings: ToolFinding[] = [];
  if (hints.destructiveHint === true) {
    findings.push({ rule: 'annotations.destructive', severity: 'low', evidence: 'destructiveHint: true', location: 'annotations.destructiveHint' });
  }
  const writes = /\b(?:delete|deletes|remove|removes|drop|drops|write|writes|overwrite|update|updates|send|sends|transfer|transfers|execute|executes)\b/;
  if (hints.readOnlyHint === true && (writes.test(description) || writes.test(String(tool.name ?? '').toLowerCase().replace(/[_-]/g, ' ')))) {
    findings.push({ rule: 'annotations.inconsistent', severity: 'medium', evidence: 'readOnlyHint: true, but the tool describes changes', location: 'annotations.readOnlyHint' });
  }
  return findings;
}

/** Tool names of an execution surface: `run_command`, `execute_shell`, `bash`, `eval`. */
function toolNameFindings(tool: ScannableTool): ToolFinding[] {
  const name = String(tool.name ?? '');
  const words = name.split(/[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])/).map((word) => word.toLowerCase());
  if (words.some((word) => ['shell', 'bash', 'exec', 'eval', 'terminal', 'powershell', 'cmd'].includes(word)) || /run_?command|execute_?command/i.test(name)) {
    return [{ rule: 'capability.command_execution', severity: 'medium', evidence: `tool name "${name}"`.slice(0, 120), location: 'name' }];
  }
  return [];
}

/** Every parameter, capability and annotation finding of one tool. */
export function parameterFindings(tool: ScannableTool, strings: readonly ToolString[]): ToolFinding[] {
  const description = strings.find((s) => s.location === 'description')?.folded ?? '';
  return [
    ...parameterNameFindings(tool, parameters(strings), description),
    ...runWordingRules(CAPABILITY_RULES, strings),
    ...toolNameFindings(tool),
    ...annotationFindings(tool, description),
  ];
}
