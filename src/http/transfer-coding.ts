// Refuses a request body framed with a transfer coding other than chunked, which Node's parser does not decode: its bytes would be read as if plain.
import { Errors, type GatewayError } from '../errors/error-registry.js';

/**
 * The error for a request whose `Transfer-Encoding` names any coding but `chunked` (`gzip, chunked`), or undefined.
 * Node's HTTP parser removes the chunked framing only, and passes the rest through as the body, so `gzip, chunked`
 * would reach a JSON or form reader as compressed bytes read as if they were not. HTTP/1.1 answers a transfer coding
 * the server does not understand with 501 (RFC 9112, section 6.1). The answer says `x-should-retry: false`, since
 * the official clients retry a 5xx, and closes the connection rather than read the rest of a body it cannot decode.
 * Body readers call it after authentication and before reading a byte.
 * @example
 * transferCodingError({ 'transfer-encoding': 'gzip, chunked' })?.statusCode; // 501
 */
export function transferCodingError(headers: Record<string, string | string[] | undefined>): GatewayError | undefined {
  const header = headers['transfer-encoding'];
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(', ') : header;
  const codings = value.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '');
  if (codings.every((coding) => coding === 'chunked')) return undefined;
  return Errors.transferCodingNotImplemented([JSON.stringify(value.slice(0, 100))], {
    expected: true,
    headers: { connection: 'close', 'x-should-retry': 'false' },
  });
}
