// Classifies IP addresses with ipaddr.js: only global unicast is public; an IPv4-mapped IPv6 address is judged as its IPv4 address.
import ipaddr from 'ipaddr.js';

/**
 * The address in canonical form (IPv4-mapped IPv6 turned into IPv4, brackets removed), or undefined
 * when the text is not an IP address.
 * @example
 * canonicalAddress('[::ffff:127.0.0.1]'); // '127.0.0.1'
 */
export function canonicalAddress(text: string): string | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare).toString();
}

/**
 * The ipaddr.js range of an address: `unicast` for a public one, else `loopback`, `private`, `linkLocal`,
 * `uniqueLocal`, `carrierGradeNat`, `unspecified`, `reserved`, `6to4`, … Undefined when not an IP address.
 */
export function addressRange(text: string): string | undefined {
  const canonical = canonicalAddress(text);
  return canonical === undefined ? undefined : ipaddr.parse(canonical).range();
}

/** True for a global unicast address; loopback, private, CGNAT, link-local (metadata), unique-local, unspecified, reserved and the rest are not public. */
export function isPublicAddress(text: string): boolean {
  return addressRange(text) === 'unicast';
}
