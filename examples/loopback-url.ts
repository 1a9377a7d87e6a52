// The URL a process reaches its own listening server at: a wildcard address (0.0.0.0, ::) is reached through loopback.
import type { AddressInfo } from 'node:net';

/** `http://` URL of the server listening at `address`, for requests the server sends itself (seeding). */
export function loopbackUrl(address: AddressInfo): string {
  if (address.address === '0.0.0.0') return `http://127.0.0.1:${address.port}`;
  if (address.address === '::') return `http://[::1]:${address.port}`;
  return address.family === 'IPv6' ? `http://[${address.address}]:${address.port}` : `http://${address.address}:${address.port}`;
}
