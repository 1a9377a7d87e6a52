// The HTTP headers the MCP proxy lets through, each way, on every method: an allow-list, so credentials never pass; session ids are rewritten.

/** Client headers passed to the tool server; everything else (Authorization, x-api-key, cookies, proxy and forwarding headers) stays here. */
export const FORWARDED_HEADERS = ['accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;

/** Tool server headers passed back to the client. */
export const RETURNED_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'] as const;

/**
 * The allow-listed headers of a tool server's answer, its `Mcp-Session-Id` replaced by the id the client sees.
 * @example
 * returnedHeaders(upstream.headers, (id) => sessionIds.bind(application, registry, id));
 */
export function returnedHeaders(from: Record<string, string | string[] | undefined>, bindSession: (upstream: string) => string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RETURNED_HEADERS) {
    const value = from[name];
    if (typeof value === 'string') headers[name] = name === 'mcp-session-id' ? bindSession(value) : value;
  }
  return headers;
}
