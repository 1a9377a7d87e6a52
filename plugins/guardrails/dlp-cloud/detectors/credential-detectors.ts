// Detects credentials: ENCRYPTION_KEY, AWS_CREDENTIALS, GCP_API_KEY, JSON_WEB_TOKEN, AUTH_TOKEN, BASIC_AUTH_HEADER, PASSWORD.
import { Likelihood, type InfoType, type PiiCandidate } from '../info-types.js';
import { scanPattern } from './context-window.js';

/** One credential pattern: the regex, the info type it reports, how likely a hit is, and the capture group to report. */
interface CredentialRule {
  infoType: InfoType;
  pattern: RegExp;
  likelihood: number | ((match: RegExpExecArray) => number);
  group?: number;
  /** A cheap substring test; the regex runs only when the text contains one of these (lower-cased). */
  hints: string[];
}

/** Values that stand in for a secret rather than being one: `${VAR}`, `<password>`, `****`, `changeme`, … */
const PLACEHOLDER =
  /^(?:\$\{.*\}?|\$\(.*\)?|\$[A-Z_][A-Z0-9_]*|<[^>]*>?|\{.*\}?|%[A-Z_]+%?|[*x.•#_-]+|(?:your|my|some|enter|insert|replace)[_-]?\w*|\w*(?:example|dummy|placeholder|sample|redacted|changeme|replace_?with|fake|not_?a_?real)\w*|password|passwd|secret|null|none|undefined|true|false|test|string)$/i;

/** True when a secret value is a placeholder; such hits are reported VERY_UNLIKELY. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.replace(/^["'`]|["'`]$/g, ''));
}

/** Counts the character classes (lower, upper, digit, other) in a value. */
function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((cls) => cls.test(value)).length;
}

/** Likelihood of a generic `token = value` assignment: values of 20+ characters mixing digits with letters are LIKELY. */
function genericSecretLikelihood(value: string): number {
  if (isPlaceholder(value) || /^(.)\1+$/.test(value)) return Likelihood.VERY_UNLIKELY;
  if (value.length >= 20 && characterClasses(value) >= 2 && /\d/.test(value)) return Likelihood.LIKELY;
  return Likelihood.POSSIBLE;
}

/** Likelihood of a password value: placeholders VERY_UNLIKELY, anything else as given. */
function passwordLikelihood(value: string, base: number): number {
  return isPlaceholder(value) || value.length < 4 || /^(.)\1+$/.test(value) ? Likelihood.VERY_UNLIKELY : base;
}

// Private key blocks, in PEM and in JSON strings with `\n` escapes; END may be missing when the text is cut off.
const PRIVATE_KEY =
  /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----((?:[A-Za-z0-9+/=\s:,-]|\\[nr])*?)(-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|(?=[^A-Za-z0-9+/=\s:,\\-])|$)/g;

/** A key block with at least 64 Base64 characters of body is a key; shorter bodies are placeholders. */
function privateKeyLikelihood(match: RegExpExecArray): number {
  // Drop RFC 1421 header lines (Proc-Type, DEK-Info) first, then line breaks and escaped line breaks.
  const body = (match[2] ?? '').replace(/^[ \t]*[A-Za-z-]+:.*$/gm, '').replace(/\\[nr]|\s/g, '');
  if (body.length < 64) return Likelihood.VERY_UNLIKELY;
  return match[3] ? Likelihood.VERY_LIKELY : Likelihood.LIKELY;
}

// The name prefix is bounded so that long hyphenated runs cannot make the scan quadratic.
const SECRET_NAME =
  '[A-Za-z0-9_.-]{0,40}(?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authtoken|secret[_-]?key|client[_-]?secret|private[_-]?token|refresh[_-]?token|bot[_-]?token|user[_-]?token|token|secret)';

/**
 * Vendor tokens in the formats the vendors document, each with a lower-case hint that must occur in the text
 * before the combined regex runs.
 */
const VENDOR_TOKENS: Array<[hint: string, source: string]> = [
  ['gh', 'gh[pousr]_[A-Za-z0-9]{36,255}'], // GitHub
  ['github_pat_', 'github_pat_[A-Za-z0-9_]{50,255}'], // GitHub fine-grained
  ['glpat-', 'glpat-[A-Za-z0-9_-]{20,}'], // GitLab
  ['xox', 'xox[abposr]-[A-Za-z0-9-]{10,}'], // Slack
  ['xapp-', 'xapp-\\d-[A-Za-z0-9-]{20,}'], // Slack app-level
  ['_live_', '(?:sk|rk)_live_[A-Za-z0-9]{24,}'], // Stripe secret and restricted keys
  ['_test_', '(?:sk|rk)_test_[A-Za-z0-9]{24,}'],
  ['npm_', 'npm_[A-Za-z0-9]{36}'], // npm
  ['sg.', 'SG\\.[A-Za-z0-9_-]{20,24}\\.[A-Za-z0-9_-]{40,45}'], // SendGrid
  ['dapi', 'dapi[a-f0-9]{32}(?:-\\d)?'], // Databricks
  ['shp', 'shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32}'], // Shopify
  ['hf_', 'hf_[A-Za-z]{34}'], // Hugging Face
  ['ya29.', 'ya29\\.[A-Za-z0-9_-]{20,}'], // Google OAuth access token
  ['sk-ant-', 'sk-ant-(?:api|admin)\\d\\d-[A-Za-z0-9_-]{80,}'], // Anthropic
  ['t3blbkfj', 'sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}'], // OpenAI
  ['dckr_pat_', 'dckr_pat_[A-Za-z0-9_-]{24,}'], // Docker Hub
  ['tskey-', 'tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}'], // Tailscale
  ['glsa_', 'glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'], // Grafana service account
  ['glc_', 'glc_[A-Za-z0-9+/]{32,}={0,2}'], // Grafana Cloud
  ['hvs.', 'hv[sb]\\.[A-Za-z0-9_-]{24,}'], // HashiCorp Vault
  ['hvb.', 'hv[sb]\\.[A-Za-z0-9_-]{24,}'],
  ['gsk_', 'gsk_[A-Za-z0-9]{48,}'], // Groq
];

/** The credential rules, most specific first. Vendor prefixes are the formats the vendors document. */
const RULES: CredentialRule[] = [
  { infoType: 'ENCRYPTION_KEY', pattern: PRIVATE_KEY, likelihood: privateKeyLikelihood, hints: ['private key'] },
  {
    infoType: 'AWS_CREDENTIALS',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b/g,
    likelihood: Likelihood.VERY_LIKELY,
    hints: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'apka', 'asca'],
  },
  {
    infoType: 'AWS_CREDENTIALS',
    pattern: /\b(?:aws)?_?secret_?(?:access)?_?key(?:_id)?["']?\s*(?:[:=]|=>)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    likelihood: (m) => (isPlaceholder(m[1] ?? '') ? Likelihood.VERY_UNLIKELY : Likelihood.VERY_LIKELY),
    group: 1,
    hints: ['secret'],
  },
  { infoType: 'GCP_API_KEY', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![\w-])/g, likelihood: Likelihood.VERY_LIKELY, hints: ['aiza'] },
  {
    infoType: 'JSON_WEB_TOKEN',
    pattern: /(?<![A-Za-z0-9-])eyJ(?:[A-Za-z0-9-]|_(?!eyJ)){8,}\.eyJ[A-Za-z0-9_-]{8,}\.([A-Za-z0-9_-]*)/g,
    likelihood: (m) => ((m[1] ?? '').length >= 16 ? Likelihood.VERY_LIKELY : Likelihood.LIKELY),
    hints: ['eyj'],
  },
  {
    infoType: 'AUTH_TOKEN',
    pattern: new RegExp(`\\b(?:${VENDOR_TOKENS.map(([, source]) => source).join('|')})(?![\\w-])`, 'g'),
    likelihood: Likelihood.VERY_LIKELY,
    hints: VENDOR_TOKENS.map(([hint]) => hint),
  },
  {
    infoType: 'AUTH_TOKEN',
    pattern: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]{16,}/g,
    likelihood: Likelihood.VERY_LIKELY,
    hints: ['hooks.slack.com'],
  },
  // Other OpenAI-style `sk-` keys without the marker: long and mixed, so LIKELY.
  { infoType: 'AUTH_TOKEN', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}(?![\w-])/g, likelihood: Likelihood.LIKELY, hints: ['sk-'] },
  {
    infoType: 'BASIC_AUTH_HEADER',
    pattern: /\bAuthorization\s*:\s*Basic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dgi,
    likelihood: Likelihood.VERY_LIKELY,
    group: 1,
    hints: ['basic'],
  },
  {
    infoType: 'AUTH_TOKEN',
    pattern: /\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)(?![A-Za-z0-9\-._~+/=])/dg,
    likelihood: (m) => genericSecretLikelihood(m[1] ?? '') + 1,
    group: 1,
    hints: ['bearer'],
  },
  {
    infoType: 'AUTH_TOKEN',
    pattern: new RegExp(`\\b${SECRET_NAME}["']?\\s*(?:[:=]|=>)\\s*["']?([A-Za-z0-9\\-_./+=~]{16,})`, 'dgi'),
    likelihood: (m) => genericSecretLikelihood(m[1] ?? ''),
    group: 1,
    hints: ['key', 'token', 'secret'],
  },
  {
    infoType: 'PASSWORD',
    pattern: /\b(?:password|passwd|passphrase|pwd|pass|pw|db_pass(?:word)?)["']?\s*(?:[:=]|=>)\s*(["'`]?)([^\s"'`,;]{1,128})\1/dgi,
    likelihood: (m) => passwordLikelihood(m[2] ?? '', Likelihood.LIKELY),
    group: 2,
    hints: ['pass', 'pwd', 'pw'],
  },
  {
    infoType: 'PASSWORD',
    pattern: /\b(?:my|the|your)\s+password\s+(?:is|was)\s*:?\s*["'`]?([^\s"'`,;]{4,128}?)["'`]?(?=[\s,;]|[.!?](?:\s|$)|$)/dgi,
    likelihood: (m) => passwordLikelihood(m[1] ?? '', Likelihood.POSSIBLE),
    group: 1,
    hints: ['password'],
  },
  {
    // The password of credentials written into a URL: scheme://user:password@host.
    infoType: 'PASSWORD',
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@"'<>]+:([^\s/@"'<>]+)@[^\s/"'<>]/dg,
    likelihood: (m) => passwordLikelihood(m[1] ?? '', Likelihood.LIKELY),
    group: 1,
    hints: ['://'],
  },
];

/** Finds credentials with the rules above; each rule runs only when its hint occurs in the text. */
export function detectCredentials(text: string): PiiCandidate[] {
  const lower = text.toLowerCase();
  const found: PiiCandidate[] = [];
  for (const rule of RULES) {
    if (!rule.hints.some((hint) => lower.includes(hint))) continue;
    const score = typeof rule.likelihood === 'number' ? (() => rule.likelihood as number) : rule.likelihood;
    found.push(...scanPattern(text, rule.pattern, rule.infoType, score, rule.group ?? 0));
  }
  return found;
}
