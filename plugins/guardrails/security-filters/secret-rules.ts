// Secrets leakage rules: vendor tokens in their documented formats, private keys, JWTs, credentials in URLs and assignments.
import type { PatternRule } from './filter-rule.js';
import { isPlaceholderTokenBody, isPlaceholderValue, isRealPassword, isRealToken, maskValue, shannonEntropy } from './secret-values.js';

/**
 * A vendor token: its rule id, its prefix (a regex source), the body that follows in the vendor's documented format,
 * and a lower-case hint when the prefix has no literal start.
 */
type VendorToken = [id: string, prefix: string, body: string, hint?: string];

const VENDOR_TOKENS: VendorToken[] = [
  ['secret.github_token', 'gh[pousr]_', '[A-Za-z0-9]{36,255}'],
  ['secret.github_token', 'github_pat_', '[A-Za-z0-9_]{50,255}'],
  ['secret.gitlab_token', 'gl(?:pat|dt|ptt|rt|soat|cbt)-', '[A-Za-z0-9_-]{20,}'],
  ['secret.slack_token', 'xox[abposr]-', '\\d{8,}-[A-Za-z0-9-]{8,}'],
  ['secret.slack_token', 'xapp-', '\\d-[A-Za-z0-9-]{20,}'],
  ['secret.slack_webhook', 'https://hooks\\.slack\\.com/services/', 'T[A-Za-z0-9]{6,}/B[A-Za-z0-9]{6,}/[A-Za-z0-9]{16,}'],
  ['secret.discord_webhook', 'https://discord(?:app)?\\.com/api/webhooks/', '\\d{10,}/[A-Za-z0-9_-]{50,}'],
  ['secret.stripe_key', '(?:sk|rk)_(?:live|test)_', '[A-Za-z0-9]{24,99}', 'k_'],
  ['secret.stripe_key', 'whsec_', '[A-Za-z0-9]{32,}'],
  ['secret.npm_token', 'npm_', '[A-Za-z0-9]{36}'],
  ['secret.openai_key', 'sk-(?:proj-|svcacct-|admin-)?', '[A-Za-z0-9_-]{16,200}T3BlbkFJ[A-Za-z0-9_-]{16,200}'],
  ['secret.anthropic_key', 'sk-ant-(?:api|admin)\\d{2}-', '[A-Za-z0-9_-]{80,}'],
  ['secret.google_api_key', 'AIza', '[0-9A-Za-z_-]{35}'],
  ['secret.google_oauth_token', 'ya29\\.', '[A-Za-z0-9_-]{20,}'],
  ['secret.sendgrid_key', 'SG\\.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'],
  ['secret.databricks_token', 'dapi', '[a-fA-F0-9]{32}(?:-\\d)?'],
  ['secret.shopify_token', 'shp(?:at|ca|pa|ss)_', '[A-Za-z0-9]{32,}'],
  ['secret.huggingface_token', 'hf_', '[A-Za-z]{34}'],
  ['secret.docker_token', 'dckr_pat_', '[A-Za-z0-9_-]{24,}'],
  ['secret.tailscale_key', 'tskey-[a-z]+-', '[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}'],
  ['secret.grafana_token', 'glsa_', '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'],
  ['secret.grafana_token', 'glc_', '[A-Za-z0-9+/]{32,}={0,2}'],
  ['secret.vault_token', 'hv[sbr]\\.', '[A-Za-z0-9_-]{24,}'],
  ['secret.groq_key', 'gsk_', '[A-Za-z0-9]{52}'],
  ['secret.cloudflare_token', 'cf(?:at|ut|k)_', '[A-Za-z0-9]{48}'],
  ['secret.figma_token', 'figd_', '[A-Za-z0-9_-]{40,}'],
  ['secret.linear_key', 'lin_api_', '[A-Za-z0-9]{40,}'],
  ['secret.notion_token', 'ntn_', '\\d{11}[A-Za-z0-9]{35}'],
  ['secret.vercel_token', 'vc[pikar]_', '[A-Za-z0-9]{24,}'],
  ['secret.onepassword_token', 'ops_', 'eyJ[A-Za-z0-9+/_=-]{100,}'],
  ['secret.pypi_token', 'pypi-', 'AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}'],
  ['secret.digitalocean_token', 'do[opr]_v1_', '[a-f0-9]{64}'],
  ['secret.age_key', 'AGE-SECRET-KEY-1', '[0-9A-Z]{58}'],
  ['secret.atlassian_token', 'ATATT3', '[A-Za-z0-9_=-]{100,}'],
  ['secret.azure_storage_key', 'AccountKey=', '[A-Za-z0-9+/]{86}=='],
  ['secret.square_token', 'sq0(?:atp|csp)-', '[A-Za-z0-9_-]{22,}'],
  ['secret.planetscale_token', 'pscale_(?:tkn|pw|oauth)_', '[A-Za-z0-9_.-]{32,}'],
  ['secret.postman_key', 'PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}'],
  ['secret.sentry_token', 'sntry[su]_', '[A-Za-z0-9+/=_-]{40,}'],
  ['secret.supabase_token', 'sbp_', '[a-f0-9]{40}'],
  ['secret.doppler_token', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.', '[A-Za-z0-9]{40,}'],
  ['secret.pulumi_token', 'pul-', '[a-f0-9]{40}'],
  ['secret.terraform_token', '[A-Za-z0-9]{14}\\.atlasv1\\.', '[A-Za-z0-9_=-]{60,}', '.atlasv1.'],
  ['secret.mailgun_key', 'key-', '[a-f0-9]{32}'],
  ['secret.newrelic_key', 'NRAK-', '[A-Z0-9]{27}'],
  ['secret.dynatrace_token', 'dt0c01\\.', '[A-Z0-9]{24}\\.[A-Z0-9]{64}'],
  ['secret.telegram_bot_token', '\\d{8,10}:AA', '[A-Za-z0-9_-]{33}', ':aa'],
];

/** Lower-case literal start of a prefix, used as the rule's cheap pre-filter. */
function hintOf(prefix: string): string {
  return prefix.replace(/\\\./g, '.').replace(/[([?].*$/, '').toLowerCase();
}

/**
 * A vendor token scores 0.95; a body that is a stand-in (one repeated character, a run of x, template syntax)
 * scores 0.3, below any sensible threshold. AWS marks its documentation keys with EXAMPLE.
 */
function vendorRule([id, prefix, body, hint]: VendorToken): PatternRule {
  return {
    id,
    // Not glued to a preceding letter (`xghp_…` is not a token); nothing alphanumeric may follow the body.
    pattern: new RegExp(`(?<![A-Za-z])(${prefix})(${body})(?![A-Za-z0-9])`, 'g'),
    score: (match) => (isPlaceholderTokenBody(match[2] ?? '') ? 0.3 : 0.95),
    hints: [hint ?? hintOf(prefix)],
    evidence: (match) => maskValue(match[0], match[1]),
  };
}

/** The body of a PEM private key block after its header: Base64 lines (or `\n`-escaped ones, inside JSON). */
function pemBody(input: string, from: number): string {
  const rest = input.slice(from, from + 8000);
  const end = rest.search(/-----END|[^A-Za-z0-9+/=\s:,\\-]/);
  return (end < 0 ? rest : rest.slice(0, end))
    .replace(/^[ \t]*[A-Za-z-]+:.*$/gm, '') // RFC 1421 headers (Proc-Type, DEK-Info)
    .replace(/\\[nr]|\s|-/g, '');
}

/** A key with 64+ Base64 characters of varied body is a key; short, repetitive or worded bodies are placeholders. */
function privateKeyScore(match: RegExpExecArray): number {
  const body = pemBody(match.input, match.index + match[0].length);
  if (body.length < 64 || /placeholder|example|dummy|redacted|your/i.test(body) || shannonEntropy(body) < 4) return 0.2;
  return 0.95;
}

/** A JWT whose header decodes to JSON naming an algorithm is certain; other `eyJ…` triples are likely. */
function jwtScore(match: RegExpExecArray): number {
  const header = Buffer.from(match[0].slice(0, match[0].indexOf('.')), 'base64url').toString('utf8');
  return /"(?:alg|typ)"\s*:/.test(header) ? 0.9 : 0.6;
}

/** Loopback hosts: credentials for a local development database are not a leak of a live system. */
const LOOPBACK = /^(?:localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0)(?![\w.-])/i;

/** `scheme://user:password@host`: a real password, or a token as the user with GitHub's `x-oauth-basic`. */
function urlCredentialScore(match: RegExpExecArray): number {
  const [, , user = '', password = '', host = ''] = match;
  if (password === 'x-oauth-basic' || password === 'x-oauth') return user.length >= 20 ? 0.9 : 0;
  if (password.length < 4 || isPlaceholderValue(password) || isPlaceholderValue(user)) return 0;
  return LOOPBACK.test(host) ? 0.4 : 0.85;
}

/** Generic assignments (`password=…`, `api_key: …`); names holding `aws` are left to the exact AWS rule. */
function assignmentScore(match: RegExpExecArray): number {
  const [, name = '', operator = '', quote = '', value = ''] = match;
  // An unquoted bare word after a spaced operator is a variable in code (`password = userPassword`); env files
  // write `DB_PASSWORD=Hunter` without spaces.
  if (quote === '' && /^[A-Za-z_$]+$/.test(value) && /\s/.test(operator)) return 0;
  const before = match.input.slice(Math.max(0, match.index - 24), match.index).toLowerCase();
  // An ARN names a secret (`…:secret:db-password-AbC123`); it does not hold one.
  if (/aws[\w.-]*$/.test(before) || before.endsWith(':') || /^-----/.test(value)) return 0;
  // Pagination cursors, CSRF tokens and request ids are tokens by name only.
  if (/(?:page|next|continuation|cursor|sync|resume|csrf|xsrf|idempotency|request|trace|correlation|nonce)[_-]?$/.test(before)) return 0;
  if (/^(?:pass|pwd|passwd|password|passphrase|db_pass)/i.test(name)) {
    // `PWD=/home/me` is the working directory, not a password.
    return isRealPassword(value) && !/^(?:~?\/|[A-Za-z]:\\)/.test(value) ? 0.7 : 0;
  }
  return isRealToken(value) ? 0.75 : 0;
}

const SECRET_NAMES =
  'passphrase|password|passwd|pwd|pass|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|client[_-]?secret|auth[_-]?token|authtoken|access[_-]?token|refresh[_-]?token|private[_-]?token|bot[_-]?token|secret|token';

/** The secrets leakage rules, read on the text as sent (look-alikes folded, nothing decoded). */
export const SECRET_RULES: readonly PatternRule[] = [
  ...VENDOR_TOKENS.map(vendorRule).map((rule): PatternRule => ({ ...rule, on: 'raw' })),
  {
    id: 'secret.aws_access_key',
    pattern: /(?<![A-Za-z0-9])(AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)([A-Z0-9]{16})(?![A-Za-z0-9])/g,
    score: (match) => (/EXAMPLE/.test(match[2] ?? '') || isPlaceholderTokenBody(match[2] ?? '') ? 0.3 : 0.95),
    on: 'raw',
    hints: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'apka', 'asca'],
    evidence: (match) => maskValue(match[0], match[1]),
  },
  {
    id: 'secret.aws_secret_key',
    pattern: /\b(?:aws)?_?secret_?(?:access)?_?key(?:_id)?["']?\s*(?:[:=]|=>)\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    score: (match) => (/EXAMPLE/.test(match[1] ?? '') || isPlaceholderValue(match[1] ?? '') || shannonEntropy(match[1] ?? '') < 3.5 ? 0.3 : 0.9),
    on: 'raw',
    hints: ['secret'],
    evidence: (match) => `${match[0].slice(0, match[0].length - (match[1] ?? '').length)}${maskValue(match[1] ?? '')}`,
  },
  {
    id: 'secret.private_key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g,
    score: privateKeyScore,
    on: 'raw',
    hints: ['private key'],
    evidence: (match) => `${match[0]} [key body masked]`,
  },
  {
    id: 'secret.jwt',
    pattern: /(?<![A-Za-z0-9-])eyJ(?:[A-Za-z0-9-]|_(?!eyJ)){10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g,
    score: jwtScore,
    on: 'raw',
    hints: ['eyj'],
    evidence: (match) => maskValue(match[0], 'eyJ'),
  },
  {
    id: 'secret.url_credentials',
    pattern: /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:/@"'<>]{1,128}):([^\s@"'<>/]{1,128})@([^\s/"'<>?#]+)/gi,
    score: urlCredentialScore,
    on: 'raw',
    hints: ['://'],
    evidence: (match) => `${match[1]}://${match[3] === 'x-oauth-basic' ? maskValue(match[2] ?? '') : match[2]}:****@${match[4]}`,
  },
  {
    id: 'secret.auth_header',
    pattern: /\bAuthorization["']?\s*[:=]\s*["']?(Basic|Bearer|Token|Bot)\s+([A-Za-z0-9._~+/=-]{16,})/gi,
    score: (match) => (isRealToken(match[2] ?? '') || /^Basic$/i.test(match[1] ?? '') ? 0.85 : 0),
    on: 'raw',
    hints: ['authorization'],
    evidence: (match) => `Authorization: ${match[1]} ${maskValue(match[2] ?? '')}`,
  },
  {
    id: 'secret.npmrc_token',
    pattern: /:_auth(?:Token)?\s*=\s*["']?([^\s"']{16,})/g,
    score: (match) => (isPlaceholderValue(match[1] ?? '') ? 0 : 0.85),
    on: 'raw',
    hints: [':_auth'],
    evidence: (match) => `:_authToken=${maskValue(match[1] ?? '')}`,
  },
  {
    id: 'secret.generic_assignment',
    pattern: new RegExp(`(?<![A-Za-z])(${SECRET_NAMES})["']?([ \\t]*(?:=|:|=>|:=)[ \\t]*)(["'\`]?)([^\\s"'\`,;()\\[\\]<>{}]{6,200})\\3`, 'gi'),
    score: assignmentScore,
    on: 'raw',
    hints: ['pass', 'pwd', 'key', 'token', 'secret'],
    evidence: (match) => `${match[1]}=${maskValue(match[4] ?? '')}`,
  },
];
