// The info types dlp_cloud detects (named as Google Cloud DLP names them), DLP likelihoods, finding shapes, and the threshold mapping.

/** Every info type dlp_cloud can report, in Google Cloud DLP's names. */
export const INFO_TYPES = [
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD_NUMBER',
  'IBAN_CODE',
  'US_SOCIAL_SECURITY_NUMBER',
  'IP_ADDRESS',
  'MAC_ADDRESS',
  'DATE_OF_BIRTH',
  'PASSPORT',
  'US_DRIVERS_LICENSE_NUMBER',
  'PERSON_NAME',
  'STREET_ADDRESS',
  'AUTH_TOKEN',
  'AWS_CREDENTIALS',
  'GCP_API_KEY',
  'JSON_WEB_TOKEN',
  'ENCRYPTION_KEY',
  'PASSWORD',
  'BASIC_AUTH_HEADER',
] as const;

/** One info type name. */
export type InfoType = (typeof INFO_TYPES)[number];

/** DLP's Likelihood enum as integers (LIKELIHOOD_UNSPECIFIED = 0 is never reported). */
export const Likelihood = {
  VERY_UNLIKELY: 1,
  UNLIKELY: 2,
  POSSIBLE: 3,
  LIKELY: 4,
  VERY_LIKELY: 5,
} as const;

/** A likelihood value, 1 to 5. */
export type LikelihoodValue = (typeof Likelihood)[keyof typeof Likelihood];

/** A detector's raw hit, in JavaScript string (UTF-16) indices, end exclusive. */
export interface PiiCandidate {
  infoType: InfoType;
  start: number;
  end: number;
  likelihood: LikelihoodValue;
}

/** A half-open range `[start, end)`. */
export interface OffsetRange {
  start: number;
  end: number;
}

/** One finding as dlp_cloud and model_sanitizer report it, DLP-style. */
export interface PiiFinding {
  info_type: InfoType;
  likelihood: LikelihoodValue;
  location: {
    /** UTF-8 byte offsets into the text, end exclusive. */
    byte_range: OffsetRange;
    /** Unicode code point offsets into the text, end exclusive. */
    codepoint_range: OffsetRange;
  };
  /** The matched text, only when asked for (`include_quote`), since it repeats the secret. */
  quote?: string;
}

/** A detector family: finds candidates of some info types in a text. */
export type PiiDetector = (text: string) => PiiCandidate[];

/**
 * Maps a threshold in [0, 1] to the lowest likelihood that counts: `1 + ceil(4 × threshold)`, so
 * 0 → VERY_UNLIKELY, (0, 0.25] → UNLIKELY, (0.25, 0.5] → POSSIBLE, (0.5, 0.75] → LIKELY, (0.75, 1] → VERY_LIKELY.
 * Read the other way, likelihood L scores (L − 1) / 4 and counts when that score is at least the threshold.
 */
export function minLikelihoodForThreshold(threshold: number): LikelihoodValue {
  const clamped = Math.min(1, Math.max(0, threshold));
  return (1 + Math.ceil(4 * clamped - 1e-9)) as LikelihoodValue;
}

/** True when `name` is a known info type. */
export function isInfoType(name: string): name is InfoType {
  return (INFO_TYPES as readonly string[]).includes(name);
}
