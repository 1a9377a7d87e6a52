// Detects CREDIT_CARD_NUMBER (Luhn checksum and issuer prefix) and IBAN_CODE (ISO 13616 mod-97 checksum).
import { Likelihood, type PiiCandidate } from '../info-types.js';
import { hasContext, scanPattern, stepLikelihood } from './context-window.js';

/** True when the digit string passes the Luhn (mod 10) checksum. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Issuer prefixes of payment cards and the lengths each issues: Amex 34, 37 (15); Visa 4 (13, 16, 19);
 * Mastercard 51–55, 2221–2720 (16); Diners 30, 36, 38, 39 (14–19); JCB 35 (16–19) and 1800, 2131 (15);
 * Discover, UnionPay, RuPay and Maestro 50, 56–69 (12–19).
 */
const CARD_BRANDS: Array<{ prefix: RegExp; lengths: readonly number[] }> = [
  { prefix: /^3[47]/, lengths: [15] },
  { prefix: /^4/, lengths: [13, 16, 19] },
  { prefix: /^(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01]|720))/, lengths: [16] },
  { prefix: /^3[0689]/, lengths: [14, 15, 16, 17, 18, 19] },
  { prefix: /^35/, lengths: [16, 17, 18, 19] },
  { prefix: /^(?:1800|2131)/, lengths: [15] },
  { prefix: /^(?:50|5[6-9]|6)/, lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
];

/** True when the number starts with a known issuer prefix and has a length that issuer uses. */
function hasCardIssuer(digits: string): boolean {
  return CARD_BRANDS.some((brand) => brand.prefix.test(digits) && brand.lengths.includes(digits.length));
}

// 12 to 19 digits, optionally in groups split by single spaces or dashes.
const CARD_CANDIDATE = /(?<![\w.+-])\d(?:[ -]?\d){11,18}(?![\w]|[.-]\d)/g;
// How cards are printed: one run of digits, groups of four (the last shorter), or Amex's 4-6-5.
const CARD_LAYOUT = /^(?:\d+|\d{4}([ -])\d{4}\1\d{4}(?:\1\d{1,4}){0,2}|\d{4}([ -])\d{6}\2\d{4,5})$/;
const CARD_CONTEXT = /\b(?:card|credit|debit|visa|master ?card|amex|american express|discover|jcb|maestro|cc|ccn|pan|payment|billing|charge)\b/i;

/**
 * Finds card numbers: 12 to 19 digits that pass Luhn and start with an issuer prefix. LIKELY (16 digits or more)
 * or POSSIBLE (12 to 15 digits, where a random number passes more often); a card word nearby adds two steps.
 */
export function detectCreditCards(text: string): PiiCandidate[] {
  return scanPattern(text, CARD_CANDIDATE, 'CREDIT_CARD_NUMBER', (match, start, end) => {
    if (!CARD_LAYOUT.test(match[0])) return 0;
    const digits = match[0].replace(/[ -]/g, '');
    if (!hasCardIssuer(digits) || !passesLuhn(digits) || /^(\d)\1+$/.test(digits)) return 0;
    const base = digits.length >= 16 ? Likelihood.LIKELY : Likelihood.POSSIBLE;
    return hasContext(text, start, end, CARD_CONTEXT, 40) ? stepLikelihood(base, 2) : base;
  });
}

/** IBAN length per country (ISO 13616 registry), for the countries that issue IBANs. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
  GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27,
  MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33,
  SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20, YE: 30,
};

/** True when the compact IBAN (no spaces, any case) passes the ISO 7064 mod-97-10 check. */
export function passesIbanChecksum(iban: string): boolean {
  const value = iban.toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value)) return false;
  const rearranged = value.slice(4) + value.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const chunk = code >= 65 ? String(code - 55) : char;
    for (const digit of chunk) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

// Compact (GB29NWBK60161331926819) or printed in groups of four (GB29 NWBK 6016 1331 9268 19).
const IBAN_CANDIDATE = /(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?:[A-Za-z0-9]{11,30}|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,3})?)(?![A-Za-z0-9])/g;
const IBAN_CONTEXT = /\b(?:iban|bank|account|transfer|wire|sepa|swift|bic)\b/i;

/** Shortens a grouped candidate group by group until it validates; answers the valid length or 0. */
function validIbanLength(candidate: string): number {
  let value = candidate;
  while (value.length >= 15) {
    const compact = value.replace(/ /g, '');
    const expected = IBAN_LENGTHS[compact.slice(0, 2).toUpperCase()];
    if ((expected === undefined || expected === compact.length) && compact.length >= 15 && passesIbanChecksum(compact)) {
      return expected === undefined ? -value.length : value.length;
    }
    const lastSpace = value.lastIndexOf(' ');
    if (lastSpace < 0) return 0;
    value = value.slice(0, lastSpace);
  }
  return 0;
}

/**
 * Finds IBANs: the mod-97 checksum must hold. VERY_LIKELY when the length also matches the country's;
 * POSSIBLE for a country outside the length table, LIKELY with an IBAN word nearby.
 */
export function detectIbans(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  IBAN_CANDIDATE.lastIndex = 0;
  for (let match = IBAN_CANDIDATE.exec(text); match; match = IBAN_CANDIDATE.exec(text)) {
    const length = validIbanLength(match[0]);
    if (length === 0) continue;
    const start = match.index;
    const end = start + Math.abs(length);
    const likelihood =
      length > 0 ? Likelihood.VERY_LIKELY : stepLikelihood(Likelihood.POSSIBLE, hasContext(text, start, end, IBAN_CONTEXT, 60) ? 1 : 0);
    found.push({ infoType: 'IBAN_CODE', start, end, likelihood });
  }
  return found;
}
