// The HTTP headers the MCP proxy lets through, each way, on every method: an allow-list, so credentials never pass; session ids are rewritten.
import { scrubSecrets } from '../secrets/secret-scrubber.js';

/** Client headers passed to the tool server; everything else (Authorization, x-api-key, cookies, proxy and forwarding headers) stays here. */
export const FORWARDED_HEADERS = ['accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;

/** Tool server headers passed back to the client. */
export const RETURNED_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'] as const;

/**
 * The allow-listed headers of a tool server's answer, its `Mcp-Session-Id` replaced by the id the client sees. Every
 * value has `secrets` (the registry token, the caller's key) scrubbed in any form, as the body has: a tool server
 * echoing its Authorization in a header shows `[REDACTED]` (a session id holding one no longer works, as it should not).
 * @example
 * returnedHeaders(upstream.headers, (id) => sessionIds.bind(application, registry, id), target.secrets);
 */
export function returnedHeaders(from: Record<string, string | string[] | undefined>, bindSession: (upstream: string) => string, secrets: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RETURNED_HEADERS) {
    const value = from[name];
    if (typeof value !== 'string') continue;
    const clean = scrubSecrets(value, secrets);
    headers[name] = name === 'mcp-session-id' ? bindSession(clean) : clean;
  }
  return headers;
}
