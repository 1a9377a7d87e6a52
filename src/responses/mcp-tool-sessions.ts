// Opens the MCP servers named in a Responses request: the gateway's own registries in-process, any other server over HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { JsonRpcInterceptor, type InvocationSink } from '../mcp/jsonrpc-interceptor.js';
import type { UpstreamTool } from '../mcp/mcp-upstream.js';
import type { RegistryService } from '../mcp/registry-service.js';
import { InterceptingTransport } from './intercepting-transport.js';
import type { McpToolEntry } from './responses-types.js';

/** How long listing tools or one tool call may take, in ms. */
export const MCP_TIMEOUT_MS = 30_000;

/** An open MCP server: its usable tools and a way to call them. */
export interface ToolSession {
  label: string;
  tools: UpstreamTool[];
  /** Calls a tool; answers its text output, or the error. Never throws. */
  call(tool: string, args: Record<string, unknown>): Promise<{ output?: string; error?: string }>;
  close(): Promise<void>;
}

/** What opening sessions needs. */
export interface SessionDeps {
  registries: RegistryService;
  developerKeys: DeveloperKeyStore;
  engine: GuardrailEngine;
  recorder: ChroniclesRecorder;
  /** Origins at which this gateway is reached (configured base URL, the request's own origin). */
  ownOrigins: string[];
  /** Receives the tool invocations made through the gateway's registries. */
  sink: InvocationSink;
}

function allowedNames(entry: McpToolEntry): Set<string> | undefined {
  const allowed = entry.allowed_tools;
  if (allowed === undefined || allowed === null) return undefined;
  return new Set(Array.isArray(allowed) ? allowed : (allowed.tool_names ?? []));
}

function bearerOf(headers: Record<string, string> | undefined): string | undefined {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return value ? /^Bearer\s+(\S+)$/i.exec(value)?.[1] : undefined;
}

/** The transport to one server: in-process through the registry when the URL is one of ours, else plain Streamable HTTP. */
async function transportFor(entry: McpToolEntry, deps: SessionDeps): Promise<Transport> {
  const url = new URL(entry.server_url);
  const own = /^\/v1\/mcp\/([^/]+)\/?$/.exec(url.pathname);
  if (own && deps.ownOrigins.includes(url.origin)) {
    const registry = await deps.registries.registry(decodeURIComponent(own[1]!));
    const key = bearerOf(entry.headers) ?? entry.headers?.['x-gateway-apikey'];
    const owner = key ? await deps.developerKeys.identify(key) : undefined;
    if (!owner) throw new Error(`the registry ${registry.name} needs a valid developer key as Authorization: Bearer in the tool's headers`);
    const token = deps.registries.token(registry);
    const interceptor = new JsonRpcInterceptor(
      { service: deps.registries, engine: deps.engine, recorder: deps.recorder },
      registry.name,
      owner.application,
      url.pathname,
      [key!, ...(token ? [token] : [])],
      deps.sink,
    );
    const inner = new StreamableHTTPClientTransport(new URL(registry.url), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
    });
    return new InterceptingTransport(inner, interceptor);
  }
  return new StreamableHTTPClientTransport(url, { requestInit: { headers: entry.headers ?? {} } });
}

/** Connects to one server and lists its tools, filtered by `allowed_tools` (and, for registries, by their enabled state). */
export async function openToolSession(entry: McpToolEntry, deps: SessionDeps): Promise<ToolSession> {
  const client = new Client({ name: 'gateway-responses', version: '1.0.0' });
  const signal = AbortSignal.timeout(MCP_TIMEOUT_MS);
  await client.connect(await transportFor(entry, deps), { signal, timeout: MCP_TIMEOUT_MS });
  try {
    const allowed = allowedNames(entry);
    const tools: UpstreamTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: MCP_TIMEOUT_MS });
      tools.push(...(page.tools as UpstreamTool[]).filter((tool) => !allowed || allowed.has(tool.name)));
      cursor = page.nextCursor;
    } while (cursor);
    return {
      label: entry.server_label,
      tools,
      async call(tool, args) {
        try {
          const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: MCP_TIMEOUT_MS });
          const text = ((result.content ?? []) as Array<{ type: string; text?: string }>)
            .filter((part) => part.type === 'text')
            .map((part) => part.text ?? '')
            .join('\n');
          return result.isError ? { error: text || 'the tool reported an error' } : { output: text };
        } catch (error) {
          return { error: (error as Error).message };
        }
      },
      close: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}
