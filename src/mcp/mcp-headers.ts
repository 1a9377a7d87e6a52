// The HTTP headers the MCP proxy lets through, each way, on every method: an allow-list, so credentials never pass.

/** Client headers passed to the tool server; everything else (Authorization, x-api-key, cookies, proxy and forwarding headers) stays here. */
export const FORWARDED_HEADERS = ['accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;

/** Tool server headers passed back to the client. */
export const RETURNED_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'] as const;
