// Detects government and personal identifiers: US_SOCIAL_SECURITY_NUMBER, PASSPORT, US_DRIVERS_LICENSE_NUMBER, DATE_OF_BIRTH.
import { Likelihood, type PiiCandidate } from '../info-types.js';
import { hasContext, scanPattern, stepLikelihood } from './context-window.js';

// Area 001–899 except 666, group 01–99, serial 0001–9999; the same separator (dash, space or none) twice.
const SSN = /(?<![\w-])(?!000|666|9\d\d)(\d{3})([- ]?)(?!00)(\d{2})\2(?!0000)(\d{4})(?![\w]|-\d)/g;
const SSN_CONTEXT = /\b(?:ssn|ss#|ssns|social security|social sec|soc sec|tax ?id|tin)\b/i;

/**
 * Finds US social security numbers. Dashed 123-45-6789: LIKELY; spaced: POSSIBLE; nine bare digits: VERY_UNLIKELY.
 * An SSN word nearby adds two steps.
 */
export function detectSsns(text: string): PiiCandidate[] {
  return scanPattern(text, SSN, 'US_SOCIAL_SECURITY_NUMBER', (match, start, end) => {
    const separator = match[2];
    const base = separator === '-' ? Likelihood.LIKELY : separator === ' ' ? Likelihood.POSSIBLE : Likelihood.VERY_UNLIKELY;
    return hasContext(text, start, end, SSN_CONTEXT, 40) ? stepLikelihood(base, 2) : base;
  });
}

// "passport", "passport no.", "passport number is", "passport #:" followed by 6–9 letters and digits.
const PASSPORT = /\bpassport(?:\s+(?:no\.?|nr\.?|number|num|#|id))?(?:\s+is)?\s*[:#]?\s*([A-Z0-9]{6,9})(?![\w-])/dgi;

/** Finds passport numbers written after the word "passport" (with at least one digit): LIKELY. */
export function detectPassports(text: string): PiiCandidate[] {
  return scanPattern(text, PASSPORT, 'PASSPORT', (match) => (/\d/.test(match[1] ?? '') ? Likelihood.LIKELY : 0), 1);
}

// "driver's license (number) (is)", "driving licence no.", "DL#" followed by a licence number of a US state format.
const DRIVERS_LICENSE =
  /\b(?:driver'?s?|driving)\s+licen[cs]e(?:\s+(?:no\.?|nr\.?|number|num|#|id))?(?:\s+is)?\s*[:#]?\s*([A-Z]{0,2}\d[\d-]{3,16}\d|[A-Z]\d{4,14}|[A-Z]{1,2}\d{2,}[A-Z\d]{2,})(?![\w-])|\bDL\s*(?:#|no\.?|number)\s*[:#]?\s*([A-Z]{0,2}\d[\d-]{3,16}\d)(?![\w-])/dgi;

/** Finds US driver's licence numbers after a licence phrase: LIKELY. */
export function detectDriversLicenses(text: string): PiiCandidate[] {
  const found = scanPattern(text, DRIVERS_LICENSE, 'US_DRIVERS_LICENSE_NUMBER', () => Likelihood.LIKELY, 1);
  return found.concat(scanPattern(text, DRIVERS_LICENSE, 'US_DRIVERS_LICENSE_NUMBER', (m) => (m[2] ? Likelihood.LIKELY : 0), 2));
}

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = new RegExp(
  [
    '\\b(?:19|20)\\d\\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\\d|3[01])\\b',
    '\\b(?:0?[1-9]|[12]\\d|3[01])[-/.](?:0?[1-9]|[12]\\d|3[01])[-/.](?:19|20)?\\d\\d\\b',
    `\\b(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?(?:\\s+of)?\\s+${MONTH},?\\s+(?:19|20)\\d\\d\\b`,
    `\\b${MONTH}\\s+(?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?,?\\s+(?:19|20)\\d\\d\\b`,
  ].join('|'),
  'gi',
);
const BIRTH_CONTEXT = /\b(?:born|birth|birthdate|birthday|dob|d\.o\.b|date of birth|geboren|nacido|nacida)\b/i;
const BORN_IN_YEAR = /\bborn\s+(?:in|on)\s+((?:19|20)\d\d)\b/dgi;

/**
 * Finds dates of birth: a full date with a birth word (born, DOB, date of birth, birthday) up to 40 characters
 * before it is LIKELY; "born in 1977" (a year alone) is POSSIBLE. Dates without birth context are not reported.
 */
export function detectDatesOfBirth(text: string): PiiCandidate[] {
  const dates = scanPattern(text, DATE, 'DATE_OF_BIRTH', (_match, start, end) =>
    hasContext(text, start, end, BIRTH_CONTEXT, 40) ? Likelihood.LIKELY : 0,
  );
  return dates.concat(scanPattern(text, BORN_IN_YEAR, 'DATE_OF_BIRTH', () => Likelihood.POSSIBLE, 1));
}
