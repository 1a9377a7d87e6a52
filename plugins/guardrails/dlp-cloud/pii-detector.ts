// The reusable PII detector: runs the detector families, settles overlapping hits, and reports DLP-style findings.
import { detectEmails, detectPhoneNumbers } from './detectors/contact-detectors.js';
import { detectCredentials } from './detectors/credential-detectors.js';
import { detectCreditCards, detectIbans } from './detectors/financial-detectors.js';
import { detectDatesOfBirth, detectDriversLicenses, detectPassports, detectSsns } from './detectors/identity-detectors.js';
import { detectPersonNames, detectStreetAddresses } from './detectors/name-address-detectors.js';
import { detectIpv4, detectIpv6, detectMacAddresses } from './detectors/network-detectors.js';
import { INFO_TYPES, Likelihood, type InfoType, type LikelihoodValue, type PiiCandidate, type PiiDetector, type PiiFinding } from './info-types.js';
import { createOffsetConverter } from './text-offsets.js';

/** A detector family and the info types it can report. */
interface DetectorFamily {
  detect: PiiDetector;
  infoTypes: readonly InfoType[];
}

const FAMILIES: DetectorFamily[] = [
  { detect: detectEmails, infoTypes: ['EMAIL_ADDRESS'] },
  { detect: detectCreditCards, infoTypes: ['CREDIT_CARD_NUMBER'] },
  { detect: detectIbans, infoTypes: ['IBAN_CODE'] },
  { detect: detectIpv4, infoTypes: ['IP_ADDRESS'] },
  { detect: detectIpv6, infoTypes: ['IP_ADDRESS'] },
  { detect: detectMacAddresses, infoTypes: ['MAC_ADDRESS'] },
  { detect: detectSsns, infoTypes: ['US_SOCIAL_SECURITY_NUMBER'] },
  { detect: detectPassports, infoTypes: ['PASSPORT'] },
  { detect: detectDriversLicenses, infoTypes: ['US_DRIVERS_LICENSE_NUMBER'] },
  { detect: detectDatesOfBirth, infoTypes: ['DATE_OF_BIRTH'] },
  { detect: detectPhoneNumbers, infoTypes: ['PHONE_NUMBER'] },
  { detect: detectPersonNames, infoTypes: ['PERSON_NAME'] },
  { detect: detectStreetAddresses, infoTypes: ['STREET_ADDRESS'] },
  {
    detect: detectCredentials,
    infoTypes: ['ENCRYPTION_KEY', 'AWS_CREDENTIALS', 'GCP_API_KEY', 'JSON_WEB_TOKEN', 'AUTH_TOKEN', 'BASIC_AUTH_HEADER', 'PASSWORD'],
  },
];

/**
 * Which hit wins when two overlap. Tier 0 (checksummed or unmistakable shapes) beats tier 1 (context-bound
 * identifiers), which beats tier 2 (phone numbers, addresses and names, the loosest shapes). Within a tier the
 * likelier hit wins, then the longer one, then the earlier type in INFO_TYPES.
 */
const TIER: Partial<Record<InfoType, number>> = {
  US_SOCIAL_SECURITY_NUMBER: 1,
  PASSPORT: 1,
  US_DRIVERS_LICENSE_NUMBER: 1,
  DATE_OF_BIRTH: 1,
  PHONE_NUMBER: 2,
  STREET_ADDRESS: 2,
  PERSON_NAME: 2,
};

/** Options of {@link detectPiiSpans} and {@link detectPii}. */
export interface DetectPiiOptions {
  /** Info types to look for; all of {@link INFO_TYPES} when absent. */
  infoTypes?: readonly InfoType[];
  /** Hits below this likelihood are dropped before overlaps are settled. Default POSSIBLE. */
  minLikelihood?: LikelihoodValue;
  /** Adds the matched text as `quote` to each finding. Default false, since it repeats the secret. */
  includeQuote?: boolean;
}

function compareHits(a: PiiCandidate, b: PiiCandidate): number {
  return (
    (TIER[a.infoType] ?? 0) - (TIER[b.infoType] ?? 0) ||
    b.likelihood - a.likelihood ||
    b.end - b.start - (a.end - a.start) ||
    INFO_TYPES.indexOf(a.infoType) - INFO_TYPES.indexOf(b.infoType)
  );
}

/** Keeps the winning hit of every overlapping group; answers the kept hits in text order. O(n log n) lookups. */
function settleOverlaps(hits: PiiCandidate[]): PiiCandidate[] {
  const kept: PiiCandidate[] = []; // sorted by start, never overlapping
  for (const hit of [...hits].sort(compareHits)) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((kept[middle] as PiiCandidate).start < hit.start) low = middle + 1;
      else high = middle;
    }
    const before = kept[low - 1];
    const after = kept[low];
    if ((before && before.end > hit.start) || (after && after.start < hit.end)) continue;
    kept.splice(low, 0, hit);
  }
  return kept;
}

/**
 * Finds PII and secrets in `text`, in JavaScript string indices, without overlaps, in text order.
 * @example
 * detectPiiSpans('mail me: ana@example.org') // → [{ infoType: 'EMAIL_ADDRESS', start: 9, end: 24, likelihood: 5 }]
 */
export function detectPiiSpans(text: string, options: DetectPiiOptions = {}): PiiCandidate[] {
  const wanted = new Set<InfoType>(options.infoTypes ?? INFO_TYPES);
  const minLikelihood = options.minLikelihood ?? Likelihood.POSSIBLE;
  const hits: PiiCandidate[] = [];
  for (const family of FAMILIES) {
    if (!family.infoTypes.some((type) => wanted.has(type))) continue;
    for (const hit of family.detect(text)) {
      if (wanted.has(hit.infoType) && hit.likelihood >= minLikelihood && hit.end > hit.start) hits.push(hit);
    }
  }
  return settleOverlaps(hits);
}

/** Turns hits into DLP findings with UTF-8 byte and code point ranges. */
export function toFindings(text: string, hits: readonly PiiCandidate[], includeQuote = false): PiiFinding[] {
  if (hits.length === 0) return [];
  const offsets = createOffsetConverter(text);
  return hits.map((hit) => {
    const finding: PiiFinding = { info_type: hit.infoType, likelihood: hit.likelihood, location: offsets.ranges(hit.start, hit.end) };
    if (includeQuote) finding.quote = text.slice(hit.start, hit.end);
    return finding;
  });
}

/**
 * Finds PII and secrets in `text` and reports them as Cloud DLP findings.
 * @example
 * detectPii('Card: 4111 1111 1111 1111', { infoTypes: ['CREDIT_CARD_NUMBER'] })
 * // → [{ info_type: 'CREDIT_CARD_NUMBER', likelihood: 5, location: { byte_range: { start: 6, end: 25 }, codepoint_range: { start: 6, end: 25 } } }]
 */
export function detectPii(text: string, options: DetectPiiOptions = {}): PiiFinding[] {
  return toFindings(text, detectPiiSpans(text, options), options.includeQuote);
}
