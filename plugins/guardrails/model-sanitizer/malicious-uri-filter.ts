// The malicious_uris filter: finds URLs in text and flags risky shapes (IP hosts, lookalike hosts, credentials, script schemes, executables).
import { isIPv4, isIPv6 } from 'node:net';

/** Why a URL was flagged. */
export type UriRisk = 'script_scheme' | 'credentials' | 'ip_host' | 'punycode_host' | 'lookalike_host' | 'executable_download';

/** One flagged URL. */
export interface UriFinding {
  uri: string;
  risks: UriRisk[];
}

// Scheme URLs, www. hosts, and the data:/javascript:/vbscript: pseudo-schemes.
const URL_IN_TEXT =
  /\b(?:(?:https?|ftps?|sftp|file|wss?):\/\/[^\s<>"'`]+|www\.[^\s<>"'`]+|(?:javascript|vbscript):[^\s<>"'`]+|data:[\w.+-]+\/[\w.+-]+[;,][^\s<>"'`]*)/giu;
/** Sentence punctuation and closing brackets: not part of a URL that ends in them. */
/** Every URL_IN_TEXT match holds a ":" (its scheme) or "www." in some case: a text with neither holds no URL. */
const WWW = /www\./i;
const TRAILING_PUNCTUATION = new Set('.,;:!?)]}');

/**
 * `uri` without its trailing punctuation, by one backward scan (`/[.,;:!?)\]}]+$/` retried the end check from every
 * character of a punctuation run inside the URL: quadratic in a URL holding a long run of ")" or "!").
 */
function trimTrailingPunctuation(uri: string): string {
  let end = uri.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(uri[end - 1] ?? '')) end -= 1;
  return uri.slice(0, end);
}
/** File types that run when opened: Windows executables and scripts, installers and mobile/desktop packages. */
const EXECUTABLE = /\.(?:exe|scr|bat|cmd|pif|ps1|psm1|vbs|vbe|jse|wsf|hta|msi|msp|dll|cpl|lnk|jar|apk|xapk|dmg|pkg|app|deb|rpm|iso|img)$/i;
/**
 * Letters of other scripts that look like Latin ones (Unicode confusables): Cyrillic а е о р с у х і ј ѕ һ ԁ ԛ ԝ ӏ,
 * Greek ο α ν ι κ ρ τ υ χ, Armenian օ ս ց, and others. A host label written only with these imitates a Latin name.
 */
const LATIN_LOOKALIKES = /^[аеорсухіјѕһԁԛԝӏвкмнтАВЕКМНОРСТУХІЈЅӀοανικρτυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖօսցհոɡɑ0-9-]+$/u;
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Hebrew', 'Arabic', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Devanagari'];
const SCRIPT_PATTERNS = SCRIPTS.map((script) => new RegExp(`\\p{Script=${script}}`, 'u'));

/** How many scripts have letters in `label`. */
function scriptsOf(label: string): number {
  return SCRIPT_PATTERNS.filter((pattern) => pattern.test(label)).length;
}

/** The risks of a host as written in the text (before punycode conversion). */
function hostRisks(rawHost: string): UriRisk[] {
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  const risks: UriRisk[] = [];
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIPv4(bare) || isIPv6(bare) || /^(?:0x[0-9a-f]+|\d{8,10})$/.test(bare)) risks.push('ip_host');
  const labels = host.split('.');
  if (labels.some((label) => label.startsWith('xn--'))) risks.push('punycode_host');
  const unicodeLabels = labels.filter((label) => /[^\x00-\x7f]/.test(label));
  if (unicodeLabels.some((label) => scriptsOf(label) > 1 || LATIN_LOOKALIKES.test(label))) risks.push('lookalike_host');
  return risks;
}

/** Splits a URL written in text into scheme, authority and path without normalising the host (so lookalikes stay visible). */
function splitUrl(uri: string): { scheme: string; authority: string; path: string } {
  const withScheme = /^www\./i.test(uri) ? `http://${uri}` : uri;
  const match = /^([a-z][a-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)/i.exec(withScheme);
  return { scheme: (match?.[1] ?? '').toLowerCase(), authority: match?.[2] ?? '', path: match?.[3] ?? '' };
}

/** The risks of one URL; an empty list means it looks harmless to these rules. */
export function uriRisks(uri: string): UriRisk[] {
  const { scheme, authority, path } = splitUrl(uri);
  if (scheme === 'javascript' || scheme === 'vbscript' || scheme === 'data') return ['script_scheme'];
  const risks: UriRisk[] = [];
  const at = authority.lastIndexOf('@');
  if (at >= 0) risks.push('credentials');
  const hostAndPort = authority.slice(at + 1);
  const host = hostAndPort.startsWith('[') ? hostAndPort.slice(0, hostAndPort.indexOf(']') + 1) : hostAndPort.replace(/:\d*$/, '');
  risks.push(...hostRisks(host));
  let lastSegment = path.split('/').pop() ?? '';
  try {
    lastSegment = decodeURIComponent(lastSegment);
  } catch {
    // A malformed escape: check the segment as written.
  }
  if (EXECUTABLE.test(lastSegment)) risks.push('executable_download');
  return risks;
}

/**
 * Finds risky URLs in text: data:/javascript:/vbscript: schemes; `user:pass@` (or any `@`) before the host; IP
 * literal hosts (dotted, bracketed IPv6, or integer/hex-encoded); punycode labels; labels mixing scripts or made
 * only of Latin lookalikes; and paths ending in an executable or installer type.
 * @example
 * findMaliciousUris('get http://198.51.100.7/setup.exe') // → [{ uri: 'http://198.51.100.7/setup.exe', risks: ['ip_host', 'executable_download'] }]
 */
export function findMaliciousUris(text: string): UriFinding[] {
  const findings: UriFinding[] = [];
  if (!text.includes(':') && !WWW.test(text)) return findings;
  URL_IN_TEXT.lastIndex = 0;
  for (let match = URL_IN_TEXT.exec(text); match; match = URL_IN_TEXT.exec(text)) {
    const uri = trimTrailingPunctuation(match[0]);
    const risks = uriRisks(uri);
    if (risks.length > 0) findings.push({ uri, risks });
  }
  return findings;
}
