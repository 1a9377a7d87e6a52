// Talks to a registry's tool server as an MCP client (the official SDK), with the registry's token: lists its tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Errors } from '../errors/error-registry.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { scrubUrlCredentials, urlCredentials } from '../secrets/url-credentials.js';

/** A tool as a tool server lists it. */
export interface UpstreamTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** How long listing may take before the tool server counts as unreachable, in ms. */
export const UPSTREAM_LIST_TIMEOUT_MS = 10_000;

/** Longest tool server error text kept in an error message (the rest is cut). */
const MAX_REASON_LENGTH = 1000;

/**
 * Lists every tool of a tool server (all pages). Throws `mcp_upstream_unreachable` (502) when it cannot; its message
 * and cause have the token and the URL's credentials scrubbed, since tool servers may echo the Authorization header
 * in their errors and fetch quotes the URL.
 */
export async function listUpstreamTools(registry: string, url: string, token: string | undefined, timeoutMs = UPSTREAM_LIST_TIMEOUT_MS): Promise<UpstreamTool[]> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'gateway-registry', version: '1.0.0' });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    await client.connect(transport, { signal, timeout: timeoutMs });
    const tools: UpstreamTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: timeoutMs });
      tools.push(...(page.tools as UpstreamTool[]));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } catch (error) {
    // The SDK's fetch quotes the URL (it refuses one with userinfo): its credentials are masked, as the token is.
    const reason = scrubUrlCredentials(scrubSecrets(String((error as Error).message), [token, ...urlCredentials(url)])).slice(0, MAX_REASON_LENGTH);
    throw Errors.mcpUpstreamUnreachable([registry, reason], { cause: new Error(reason) });
  } finally {
    await client.close().catch(() => undefined);
  }
}
