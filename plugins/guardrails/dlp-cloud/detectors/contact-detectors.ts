// Detects EMAIL_ADDRESS and PHONE_NUMBER; phone numbers are validated with libphonenumber-js (full metadata).
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { Likelihood, type PiiCandidate } from '../info-types.js';
import { countDigits, hasContext, scanPattern, stepLikelihood } from './context-window.js';

// Internationalised addresses (RFC 6531) too: letters and digits of any script.
const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}][\p{L}\p{N}._%+-]{0,63}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,24}(?![\p{L}\p{N}-])/gu;
const EMAIL_CONTEXT = /\b(?:e-?mail|mail|contact|reach|write)\b/i;
/** Every address holds its `@` within 64 code points (up to 128 UTF-16 units) of its start. */
const EMAIL_ANCHOR = { text: '@', reach: 128 };
// `user:pass@host` inside a URL is a credential, not an address.
const URL_USERINFO_BEFORE = /\/\/[^\s/@]*:$/;

/** Finds e-mail addresses; LIKELY, VERY_LIKELY with a mail word nearby. */
export function detectEmails(text: string): PiiCandidate[] {
  if (!text.includes('@')) return [];
  return scanPattern(text, EMAIL, 'EMAIL_ADDRESS', (_match, start, end) => {
    if (URL_USERINFO_BEFORE.test(text.slice(Math.max(0, start - 80), start))) return 0;
    return hasContext(text, start, end, EMAIL_CONTEXT, 30) ? Likelihood.VERY_LIKELY : Likelihood.LIKELY;
  }, 0, EMAIL_ANCHOR);
}

/**
 * Phone-shaped runs: an optional `+CC`/`00CC` prefix, an optional area code in parentheses, then digit groups
 * split by one space, dot or dash (never a newline), and an optional extension. Digits are counted later.
 */
const PHONE_CANDIDATE =
  /(?<![\w+.:/@-])(?:(?:\+|00)\d{1,3}[ \t.-]?)?(?:\(\d{1,5}\)[ \t.-]?)?\d{1,15}(?:[ \t.-]\d{1,8}){0,6}(?:[ \t]?(?:x|ext\.?|#)[ \t]?\d{1,5})?(?![\w@:]|[.-]\d)/g;
const PHONE_CONTEXT =
  /\b(?:phone|tel|telephone|mobile|cell|cellphone|fax|desk|office|call|calls|calling|text|sms|messages?|whatsapp|contact|reach|dial|landline|hotline|number|ph|mob)\b/i;
const PHONE_CONTEXT_AFTER = /^[ \t-]*\(?(?:office|fax|mobile|cell|home|work|tel|phone|direct)\b/i;
const EXTENSION = /[ \t]?(?:x|ext\.?|#)[ \t]?\d{1,5}$/;
// Shapes that are dates or dotted quads, not phone numbers.
const NOT_A_PHONE = [/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/, /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/, /^\d{1,3}(?:\.\d{1,3}){3}$/];
/** Countries tried, in order, for numbers written without an international prefix. */
const NATIONAL_COUNTRIES: CountryCode[] = ['US', 'GB', 'CA', 'AU', 'IN', 'DE', 'FR', 'IT', 'ES', 'NL', 'BE', 'CH', 'SE', 'BR', 'MX'];

/**
 * Most libphonenumber parses one text may cost (each takes some 10 to 60 µs). Text made of thousands of digit
 * groups would otherwise take seconds; past the budget, candidates count as not valid, so only context can still
 * report them.
 */
const PARSE_BUDGET = 1000;

/** How a phone candidate validates: as an international number, as a US/Canadian number, elsewhere, or not at all. */
function phoneValidity(candidate: string, budget: { parses: number }): 'international' | 'nanp' | 'national' | 'none' {
  const number = candidate.replace(EXTENSION, '');
  if (/^(?:\+|00)/.test(number)) {
    if (budget.parses-- <= 0) return 'none';
    const international = number.startsWith('00') ? `+${number.slice(2)}` : number;
    return parsePhoneNumberFromString(international)?.isValid() ? 'international' : 'none';
  }
  // North American numbers never start with 0 (area codes start with 2 to 9): a leading 0 skips the US and Canada parses.
  const leadingZero = number.charCodeAt(number.search(/\d/)) === 48;
  for (const country of NATIONAL_COUNTRIES) {
    if (leadingZero && (country === 'US' || country === 'CA')) continue;
    if (budget.parses-- <= 0) return 'none';
    if (parsePhoneNumberFromString(number, country)?.isValid()) return country === 'US' || country === 'CA' ? 'nanp' : 'national';
  }
  return 'none';
}

/**
 * Finds phone numbers. Likelihood: valid international or North American number LIKELY; valid in another
 * common country UNLIKELY; phone-shaped but not valid anywhere VERY_UNLIKELY. A phone word nearby
 * (phone, mobile, fax, call me, …) adds two steps, so context lifts any well-formed number to POSSIBLE or above.
 */
export function detectPhoneNumbers(text: string): PiiCandidate[] {
  const budget = { parses: PARSE_BUDGET };
  return scanPattern(text, PHONE_CANDIDATE, 'PHONE_NUMBER', (match, start, end) => {
    const value = match[0];
    const digits = countDigits(value.replace(EXTENSION, ''));
    if (digits < 7 || digits > 15 || NOT_A_PHONE.some((shape) => shape.test(value))) return 0;
    const validity = phoneValidity(value, budget);
    const base = {
      international: Likelihood.LIKELY,
      nanp: Likelihood.LIKELY,
      national: Likelihood.UNLIKELY,
      none: Likelihood.VERY_UNLIKELY,
    }[validity];
    const context = hasContext(text, start, end, PHONE_CONTEXT, 30) || PHONE_CONTEXT_AFTER.test(text.slice(end, end + 12));
    return context ? stepLikelihood(base, 2) : base;
  });
}
