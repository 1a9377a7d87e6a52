// Credentials inside URLs (userinfo, and query parameters named like keys or tokens): masked for display, listed for scrubbing, found in text.

/** What stands in for a credential inside a URL. */
export const URL_CREDENTIAL_MASK = '***';

/** Query parameter names (lower case, `-` read as `_`) that hold a credential: `key`, `api_key`, `token`, `X-Amz-Signature`… */
const CREDENTIAL_PARAM = /(?:^|_)(?:api_?key|access_?key|key|token|secret|password|passwd|pwd|sig|signature|auth|authorization|credentials?)$/;

/** The part of a URL after `scheme://`, split: userinfo (without `@`, undefined when none), the host part, and the rest. */
interface UrlParts {
  userinfo: string | undefined;
  host: string;
  /** Path, query and fragment, as given. */
  rest: string;
}

function split(afterScheme: string): UrlParts {
  const end = afterScheme.search(/[/?#]/);
  const authority = end === -1 ? afterScheme : afterScheme.slice(0, end);
  const rest = end === -1 ? '' : afterScheme.slice(end);
  const at = authority.lastIndexOf('@');
  return at === -1 ? { userinfo: undefined, host: authority, rest } : { userinfo: authority.slice(0, at), host: authority.slice(at + 1), rest };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** True when a query parameter named `name` (as written in the URL) holds a credential. */
export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_PARAM.test(decode(name).toLowerCase().replace(/-/g, '_'));
}

/** Calls `visit(name, value)` for each `name=value` of the query in `rest` (before any `#`); answers `rest` with the values `visit` returned. */
function mapQuery(rest: string, visit: (name: string, value: string) => string): string {
  const question = rest.indexOf('?');
  if (question === -1) return rest;
  const hash = rest.indexOf('#', question);
  const query = hash === -1 ? rest.slice(question + 1) : rest.slice(question + 1, hash);
  const mapped = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : `${pair.slice(0, eq + 1)}${visit(pair.slice(0, eq), pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${rest.slice(0, question + 1)}${mapped}${hash === -1 ? '' : rest.slice(hash)}`;
}

/** The text after `://` with its userinfo and credential parameter values masked. */
function maskAfterScheme(afterScheme: string): string {
  const { userinfo, host, rest } = split(afterScheme);
  const shownRest = mapQuery(rest, (name, value) => (value !== '' && isCredentialParam(name) ? URL_CREDENTIAL_MASK : value));
  return `${userinfo === undefined ? '' : `${URL_CREDENTIAL_MASK}@`}${host}${shownRest}`;
}

/**
 * The URL as answers, logs and Chronicles show it: its userinfo (`user:pass@`) and the values of credential-named
 * query parameters replaced by `***`; everything else as given. The gateway keeps using the real URL upstream.
 * @example
 * maskUrlCredentials('https://bob:pw@tools.internal/mcp?api_key=abc&v=2'); // 'https://***@tools.internal/mcp?api_key=***&v=2'
 */
export function maskUrlCredentials(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme === -1) return url;
  return `${url.slice(0, scheme + 3)}${maskAfterScheme(url.slice(scheme + 3))}`;
}

/**
 * The credentials of a URL, raw and decoded, for scrubbing by value: the whole userinfo, its password (or its user name
 * when there is no password), and the values of credential-named query parameters.
 */
export function urlCredentials(url: string | undefined): string[] {
  if (typeof url !== 'string') return [];
  const scheme = url.indexOf('://');
  if (scheme === -1) return [];
  const { userinfo, rest } = split(url.slice(scheme + 3));
  const found: string[] = [];
  if (userinfo !== undefined && userinfo !== '') {
    // The whole userinfo, and the password; a user name alone (`https://TOKEN@host`) is the credential itself.
    const colon = userinfo.indexOf(':');
    const secret = colon === -1 ? userinfo : userinfo.slice(colon + 1);
    found.push(userinfo, decode(userinfo), secret, decode(secret));
  }
  mapQuery(rest, (name, value) => {
    if (value !== '' && isCredentialParam(name)) found.push(value, decode(value));
    return value;
  });
  return [...new Set(found.filter((value) => value !== ''))];
}

/** True when the URL still holds a mask where a credential goes (an answer's URL sent back with a change). */
export function holdsMaskedCredential(url: string): boolean {
  const scheme = url.indexOf('://');
  if (scheme === -1) return false;
  const { userinfo, rest } = split(url.slice(scheme + 3));
  let masked = userinfo !== undefined && decode(userinfo).includes(URL_CREDENTIAL_MASK);
  mapQuery(rest, (name, value) => {
    if (isCredentialParam(name) && decode(value) === URL_CREDENTIAL_MASK) masked = true;
    return value;
  });
  return masked;
}

/** A URL in text, from its `://` to the first space, quote, angle bracket or backslash (a JSON escape). */
const URL_IN_TEXT = /:\/\/[^\s"'<>\\]+/g;

/**
 * Masks, in free text (or serialized JSON), the userinfo and credential parameters of every URL, whatever its scheme
 * (`https://user:pass@…`, `postgres://…`, `…?token=…`). A linear scan: each match starts at a literal `://`.
 * @example
 * scrubUrlCredentials('fetch failed: https://bob:pw@host/x'); // 'fetch failed: https://***@host/x'
 */
export function scrubUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (match) => `://${maskAfterScheme(match.slice(3))}`);
}
