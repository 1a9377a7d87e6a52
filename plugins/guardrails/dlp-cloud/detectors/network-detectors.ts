// Detects IP_ADDRESS (IPv4 and IPv6, validated by node:net) and MAC_ADDRESS.
import { isIPv6 } from 'node:net';
import { Likelihood, type PiiCandidate } from '../info-types.js';
import { hasContext, scanPattern, stepLikelihood } from './context-window.js';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
// A dotted quad not inside a longer dotted run (so 1.2.3.4.5 version strings are skipped).
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?![\\w]|\\.\\d)`, 'g');
// Hex groups and colons, optionally ending in a dotted quad or a zone id; node:net decides validity.
const IPV6_CANDIDATE = /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?:%[\w.]+)?(?![\w:])/g;
const IP_CONTEXT = /\b(?:ip|ipv4|ipv6|address|addr|host|server|client|gateway|dns|subnet|ping|connect(?:ed|ion)?)\b/i;
const VERSION_CONTEXT = /\b(?:v|ver|version|release)\.?\s*$/i;

// Four one-digit parts (3.2.2.5) read more often as a section number than as an address.
const SECTION_NUMBER = /^\d\.\d\.\d\.\d$/;

/**
 * Finds IPv4 addresses: LIKELY, VERY_LIKELY with a network word nearby; UNLIKELY after "version" or, without a
 * network word, when every part is one digit.
 */
export function detectIpv4(text: string): PiiCandidate[] {
  return scanPattern(text, IPV4, 'IP_ADDRESS', (match, start, end) => {
    if (VERSION_CONTEXT.test(text.slice(Math.max(0, start - 12), start))) return Likelihood.UNLIKELY;
    if (hasContext(text, start, end, IP_CONTEXT, 40)) return Likelihood.VERY_LIKELY;
    return SECTION_NUMBER.test(match[0]) ? Likelihood.UNLIKELY : Likelihood.LIKELY;
  });
}

/** Finds IPv6 addresses with at least two non-empty groups: LIKELY, VERY_LIKELY with a network word nearby. */
export function detectIpv6(text: string): PiiCandidate[] {
  if (!text.includes(':')) return [];
  return scanPattern(text, IPV6_CANDIDATE, 'IP_ADDRESS', (match, start, end) => {
    const address = match[0].replace(/%[\w.]+$/, '');
    const groups = address.split(':').filter((group) => group !== '').length;
    if (groups < 2 || !isIPv6(address)) return 0;
    return hasContext(text, start, end, IP_CONTEXT, 40) ? Likelihood.VERY_LIKELY : Likelihood.LIKELY;
  });
}

// 00:1A:2B:3C:4D:5E, 00-1A-2B-3C-4D-5E, or Cisco's 001a.2b3c.4d5e.
const MAC = /(?<![\w:.-])(?:[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:.-])/g;
const MAC_CONTEXT = /\b(?:mac|hardware|ethernet|wi-?fi|nic|device|bssid|adapter)\b/i;

/** Finds MAC addresses: LIKELY, VERY_LIKELY with a hardware word nearby; all-digit Cisco triples POSSIBLE. */
export function detectMacAddresses(text: string): PiiCandidate[] {
  return scanPattern(text, MAC, 'MAC_ADDRESS', (match, start, end) => {
    const base = /^[\d.]+$/.test(match[0]) ? Likelihood.POSSIBLE : Likelihood.LIKELY;
    return hasContext(text, start, end, MAC_CONTEXT, 40) ? stepLikelihood(base, 1) : base;
  });
}
