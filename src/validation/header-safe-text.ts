// The JSON Schema of a secret that goes into an HTTP header (a provider key, a registry token): bounded, and only characters a header can carry.

/** The longest secret accepted, in characters: far above any real provider key or bearer token, well inside a header's limits. */
export const MAX_SECRET_LENGTH = 8192;

/**
 * Characters a header value can carry that a pasted secret may hold: printable ASCII, space, and printable Latin-1.
 * Refused: C0 controls (NUL, tab, CR, LF, …), DEL, C1 controls, and anything beyond U+00FF, which no header can
 * carry (every call with it would fail before reaching the server). Ajv matches with the `u` flag.
 */
export const HEADER_SAFE_TEXT_PATTERN = '^[\\u0020-\\u007e\\u00a0-\\u00ff]*$';

/** What a 400 says about a value that fails {@link HEADER_SAFE_TEXT_PATTERN} (never the value itself). */
export const HEADER_SAFE_TEXT_WORDS =
  'must hold only printable characters up to U+00FF (no control characters such as NUL, tab, CR or LF, no DEL): it is sent in an HTTP header';

/** A secret sent in a header: a non-empty string of at most {@link MAX_SECRET_LENGTH} header-safe characters. */
export const headerSecretSchema = { type: 'string', minLength: 1, maxLength: MAX_SECRET_LENGTH, pattern: HEADER_SAFE_TEXT_PATTERN } as const;

/** The longest header or query parameter name accepted, in characters. */
export const MAX_PARAMETER_NAME_LENGTH = 256;
