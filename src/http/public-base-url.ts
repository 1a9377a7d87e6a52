// The gateway's public base URL for generated URLs (MCP registry request_url): configured, or trusted, never a client's Host.
import type { Request } from 'express';
import { Errors } from '../errors/error-registry.js';

type TrustFunction = (address: string | undefined, hop: number) => boolean;

/**
 * The public base URL, without a trailing slash:
 * 1. `configured` (`createGateway({ baseUrl })`, GATEWAY_BASE_URL in the example server) when set;
 * 2. else the request's protocol and host only when Express's `trust proxy` setting trusts the peer
 *    (a reverse proxy in front sets Host / X-Forwarded-Host and X-Forwarded-Proto);
 * 3. else the local address and port the request came in on (`http://127.0.0.1:8080`): the server's own
 *    socket, so a client's Host header never chooses the URL.
 * In cases 2 and 3 the path the host app mounted the gateway under (`app.use('/ai', gateway.router)`) follows;
 * `mountPath` is the path of the calling router inside the gateway (`/v1/admin` for admin routers).
 * @example
 * const base = publicBaseUrl(req, options.baseUrl); // 'https://gateway.example.com'
 */
export function publicBaseUrl(req: Request, configured: string | undefined, mountPath = ''): string {
  if (configured) return configured.replace(/\/+$/, '');
  const trust = req.app?.get('trust proxy fn') as TrustFunction | undefined;
  const prefix = mountPrefix(req, mountPath);
  if (trust?.(req.socket.remoteAddress, 0) && req.host) return `${req.protocol}://${req.host}${prefix}`;
  return `${req.protocol}://${hostPart(req.socket.localAddress)}:${req.socket.localPort ?? 80}${prefix}`;
}

/**
 * Checks a configured base URL (`createGateway({ baseUrl })`): an absolute `http` or `https` URL, a path allowed (a
 * gateway under a prefix), no query or fragment. Throws `config_invalid` otherwise, at start: a value such as
 * `gateway.example.com` would make every generated URL relative and every `/v1/responses` request fail.
 * @example
 * checkBaseUrl('https://gateway.example.com/ai'); // passes
 */
export function checkBaseUrl(value: string | undefined): void {
  if (value === undefined || value === '') return; // unset, as publicBaseUrl reads it
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || /[?#]/.test(value)) {
    throw Errors.configInvalid(['baseUrl must be an absolute http or https URL without a query, such as https://gateway.example.com']);
  }
}

/**
 * The path the host app mounted the gateway under (`/ai` for `app.use('/ai', gateway.router)`, `''` at the root), from
 * Express's `req.baseUrl`, less `mountPath`, the calling router's own path inside the gateway.
 */
export function mountPrefix(req: Pick<Request, 'baseUrl'>, mountPath = ''): string {
  const base = req.baseUrl ?? '';
  return (base.endsWith(mountPath) ? base.slice(0, base.length - mountPath.length) : base).replace(/\/+$/, '');
}

/** An address as the host part of a URL: IPv4-mapped IPv6 as IPv4, other IPv6 in brackets. */
function hostPart(address: string | undefined): string {
  if (!address) return 'localhost';
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  return address.includes(':') ? `[${address}]` : address;
}
