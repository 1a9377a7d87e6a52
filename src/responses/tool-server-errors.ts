// What a Responses caller learns of a tool server's failure: the status or a short cause, never the server's body, with secrets scrubbed.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OutboundUrlRefused, type GuardedFetch } from '../http/outbound-url-guard.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';

/** The longest JSON-RPC error message of a tool server passed on, in characters. */
export const MAX_TOOL_ERROR_CHARS = 300;

/**
 * Wraps a fetch so that an answer that is not 2xx reaches the MCP client with its status and headers
 * but an empty body: the SDK puts error bodies in its messages, and a tool server's body may echo
 * credentials or internal data.
 */
export function withoutErrorBodies(fetch: GuardedFetch): GuardedFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.ok) return response;
    await response.body?.cancel().catch(() => undefined);
    return new Response(null, { status: response.status, statusText: '', headers: response.headers });
  };
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let at: unknown = error; at !== undefined && at !== null && chain.length < 5; at = (at as { cause?: unknown }).cause) chain.push(at);
  return chain;
}

/**
 * A short message for a failure to list or call tools: the gateway's own refusals as they are, an HTTP
 * status, a JSON-RPC error (scrubbed, cut to {@link MAX_TOOL_ERROR_CHARS}), or a generic network cause.
 * @example
 * describeToolServerError(new StreamableHTTPError(401, '...'), [token]); // 'The MCP server answered HTTP 401.'
 */
export function describeToolServerError(error: unknown, secrets: readonly (string | undefined)[]): string {
  const chain = causes(error);
  const refused = chain.find((cause): cause is OutboundUrlRefused => cause instanceof OutboundUrlRefused);
  if (refused) return refused.message;
  const http = chain.find((cause): cause is StreamableHTTPError => cause instanceof StreamableHTTPError);
  if (http) {
    if (http.code !== undefined && http.code >= 300 && http.code < 400) return `The MCP server answered HTTP ${http.code} (a redirect, which is not followed).`;
    return http.code !== undefined && http.code > 0 ? `The MCP server answered HTTP ${http.code}.` : 'The MCP server sent an answer the gateway cannot read.';
  }
  const rpc = chain.find((cause): cause is McpError => cause instanceof McpError);
  if (rpc) {
    const text = scrubSecrets(rpc.message, secrets);
    return text.length > MAX_TOOL_ERROR_CHARS ? `${text.slice(0, MAX_TOOL_ERROR_CHARS)}…` : text;
  }
  const code = chain.map((cause) => (cause as { code?: unknown }).code).find((value) => typeof value === 'string' && /^E[A-Z_]+$/.test(value));
  if ((error as Error)?.name === 'AbortError' || (error as Error)?.name === 'TimeoutError') return 'The MCP server did not answer in time.';
  return `The MCP server could not be reached${code ? ` (${code as string})` : ''}.`;
}
