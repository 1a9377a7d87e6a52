// Tool poisoning rules: hidden instruction tags, concealment from the user, overrides, file reads and exfiltration orders.
import type { WordingRule } from './scan-rule.js';

/**
 * Files an attacker wants a model to read: SSH and cloud credentials, MCP client configs, package-registry tokens,
 * browser cookie and password stores, shell history, wallets.
 */
export const SENSITIVE_PATH = String.raw`(?:~?/?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|/etc/(?:passwd|shadow|sudoers)\b|\.aws/(?:credentials|config)\b|\.cursor/mcp\.json|\bmcp\.json\b|claude_desktop_config\.json|\.npmrc\b|\.pypirc\b|\.netrc\b|\.git-credentials\b|\.docker/config\.json|\.kube/config\b|\.gnupg\b|\.(?:bash|zsh)_history\b|\bwallet\.dat\b|\bcookies\.sqlite\b|\blogins\.json\b|\bkey4\.db\b|\blogin data\b|(?:chrome|chromium|edge|brave)\b[^\n]{0,40}\bcookies\b|library/keychains|\.config/gcloud\b|application_default_credentials\.json|(?:^|[\s/'"\x60(~])\.env(?:\.[a-z]+)?\b)`;

/** `.env` is named in ordinary setup text ("reads the key from .env"); every other path is a stronger sign. */
const ENV_FILE_ONLY = /^[\s/'"`(~]?\.env(?:\.[a-z]+)?$/;

const re = (source: string): RegExp => new RegExp(source, 'g');

export const POISONING_RULES: readonly WordingRule[] = [
  {
    id: 'poisoning.hidden_tag',
    severity: 'high',
    pattern:
      /<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|critical|system[_ -]?prompt|ai[_ -]?instructions?|note[_ -]?to[_ -]?(?:ai|assistant|model)|assistant[_ -]?only)\s*>|\[\s*(?:system|important|instructions?|hidden)\s*\]/g,
  },
  { id: 'poisoning.hidden_tag', severity: 'medium', pattern: /<!--[\s\S]{3,500}?-->/g },
  {
    id: 'poisoning.conceal_from_user',
    severity: 'critical',
    pattern: re(
      String.raw`\b(?:do not|don't|dont|never|must not|should not|shouldn't|without)\s+(?:ever\s+)?(?:tell|telling|mention|mentioning|inform|informing|reveal|revealing|notify|notifying|alert|alerting|show|showing|disclose|disclosing|let)\s+(?:this\s+|it\s+|that\s+|anything\s+)?(?:to\s+)?(?:the\s+)?users?\b|\bwithout\s+(?:the\s+)?user(?:'s)?\s+(?:knowing|knowledge|noticing|consent|being aware)|\b(?:keep|hide)\s+(?:this|it|that)\s+(?:secret|hidden)\s+from\s+(?:the\s+)?user|\bthe\s+user\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|see|be told|find out|notice)|\bdon'?t\s+let\s+(?:the\s+)?user\s+know`,
    ),
  },
  {
    id: 'poisoning.covert_action',
    severity: 'high',
    pattern: /\b(?:silently|secretly|covertly|quietly|discreetly)\s+(?:send|read|include|add|append|forward|upload|copy|exfiltrate|pass|call|use|attach|bcc)\b/g,
  },
  {
    id: 'poisoning.instruction_override',
    severity: 'critical',
    pattern:
      /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|other|system|original)\s+(?:instructions?|prompts?|rules?|directions?|guidelines?|messages?)/g,
  },
  {
    // "Before using this tool, read …": an order the model must carry out before the real work.
    id: 'poisoning.precondition',
    severity: 'medium',
    pattern: /\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:this|the|any)\s+(?:tool|function)\b[^.\n]{0,100}?\b(read|open|cat|access|load|call|fetch|run|get|retrieve|include|pass|send)\b/g,
    refine: (match) => (/^(?:read|open|cat|access|load|include|pass|send)$/.test(match[1] ?? '') ? 'high' : 'medium'),
  },
  {
    id: 'poisoning.file_read_instruction',
    severity: 'critical',
    pattern: re(String.raw`\b(?:read|open|cat|access|load|include|upload|send|attach|append|paste|insert|embed|copy|pass|provide|fetch|get)\b[^.\n]{0,80}?(${SENSITIVE_PATH})`),
    // "Read the API key from .env" is ordinary setup text more often than an attack.
    refine: (match) => (ENV_FILE_ONLY.test(match[1] ?? '') ? 'medium' : 'critical'),
  },
  {
    id: 'poisoning.exfiltration_instruction',
    severity: 'high',
    pattern: re(
      String.raw`\b(?:send|upload|post|transmit|exfiltrate|forward|leak|copy|bcc)\b[^.\n]{0,80}?\b(?:to|into)\s+(?:https?://|[\w.+-]+@[\w-]+\.[\w.]+|(?:this|the following|an external|a remote|our)\s+(?:url|endpoint|server|address|webhook|email))|\bexfiltrat\w*`,
    ),
  },
  {
    id: 'poisoning.coercion',
    severity: 'medium',
    pattern:
      /\b(?:this is|it is|it's)\s+(?:very\s+|extremely\s+|really\s+|super\s+|absolutely\s+)+(?:important|critical|crucial|vital)\b|\bvery\s+very\s+important\b|\b(?:otherwise|or else)\b[^.\n]{0,60}?\b(?:will|would)\s+(?:not work|fail|crash|break|be lost|be deleted|stop working)|\b(?:application|app|system)\s+will\s+crash\b|\byou\s+(?:must|have to)\s+(?:always\s+)?(?:obey|comply)\b/g,
  },
  { id: 'poisoning.model_directive', severity: 'low', pattern: /\b(?:the\s+)?(?:ai|assistant|llm|language model)\s+(?:must|should|needs to|has to)\b/g },
  {
    id: 'sensitive.path',
    severity: 'high',
    pattern: re(SENSITIVE_PATH),
    refine: (match) => (ENV_FILE_ONLY.test(match[0]) ? 'medium' : 'high'),
  },
];
