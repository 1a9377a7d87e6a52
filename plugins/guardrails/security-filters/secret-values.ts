// Tells real secret values from placeholders (entropy, repeated characters, template syntax) and masks them for evidence.
import { isPlaceholder as isDlpPlaceholder } from '../dlp-cloud/detectors/credential-detectors.js';

/** Shannon entropy of a value, in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Number of character classes (lower, upper, digit, other) in a value. */
export function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((cls) => cls.test(value)).length;
}

/** True when the letters and digits of a value are one character repeated (`AAAA…`, `0000-0000`). */
export function isUniform(value: string): boolean {
  const alnum = value.replace(/[^A-Za-z0-9]/g, '');
  return alnum.length > 0 && /^(.)\1*$/i.test(alnum);
}

/** Template and masking syntax: `${VAR}`, `{{var}}`, `<token>`, `$(VAR)`, `%VAR%`, runs of x or `*`. */
const TEMPLATE = /\$\{|\{\{|\$\(|^<.*>$|^%\w+%$|x{6,}|\*{3,}|\.{3,}|^\{.*\}$/i;

/** Words that mark a stand-in value anywhere in it: `your-api-key-here`, `REPLACE_WITH_PASSWORD`, `mypassword`. */
const STAND_IN_WORDS = /your|example|sample|dummy|placeholder|redacted|changeme|change[_-]me|replace|insert|fake|password|passwd|secret[_-]?here|token[_-]?here|key[_-]?here/i;

/** A code expression rather than a value: `process.env.DB_PASS`, `get_password()`, `config["token"]`. */
const CODE_EXPRESSION = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$|^[A-Za-z_$][\w$.]*\s*[([]/;

/** True when a value holds a run of 6 consecutive characters (`abcdef`, `123456`, `uvwxyz`): typed by hand for a document. */
export function hasSequentialRun(value: string, length = 6): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    const step = value.toLowerCase().charCodeAt(i) - value.toLowerCase().charCodeAt(i - 1);
    run = step === 1 && /[a-z0-9]/i.test(value[i] ?? '') ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

/**
 * True when a vendor token's body is a stand-in: one character repeated, a run of x, masking or template syntax.
 * Vendor prefixes already make a token specific, so words such as "Example" inside a full-length body do not count.
 */
export function isPlaceholderTokenBody(body: string): boolean {
  return isUniform(body) || TEMPLATE.test(body);
}

/**
 * True when an assigned value (a password, an API key, the password of a URL) is a stand-in rather than a secret:
 * the DLP placeholder list (`${VAR}`, `<password>`, `changeme`, …), stand-in words, template syntax, code
 * expressions, a value of one repeated character, or one with a typed run such as `abcdef` or `123456`.
 */
export function isPlaceholderValue(value: string): boolean {
  const bare = value.replace(/^["'`]|["'`]$/g, '');
  return (
    isDlpPlaceholder(bare) || STAND_IN_WORDS.test(bare) || TEMPLATE.test(bare) || CODE_EXPRESSION.test(bare) || isUniform(bare) || hasSequentialRun(bare)
  );
}

/** A password value counts when it is not a stand-in, has 6+ characters and mixes classes (or is long and varied). */
export function isRealPassword(value: string): boolean {
  if (value.length < 6 || isPlaceholderValue(value)) return false;
  return characterClasses(value) >= 2 || (value.length >= 12 && shannonEntropy(value) >= 3);
}

/** A key or token value counts when it is 16+ characters, not a stand-in, random-looking and holds a digit. */
export function isRealToken(value: string): boolean {
  if (value.length < 16 || isPlaceholderValue(value)) return false;
  return shannonEntropy(value) >= 3 && characterClasses(value) >= 2 && /\d/.test(value);
}

/** Masks a secret for evidence: the given visible prefix (a vendor prefix, never the secret body) and the length. */
export function maskValue(value: string, visiblePrefix = ''): string {
  return `${visiblePrefix}****(${value.length - visiblePrefix.length} chars)`;
}
