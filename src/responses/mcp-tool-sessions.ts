// Opens the MCP servers named in a Responses request: the gateway's own registries in-process, allowed external servers through the outbound guard.
import type { Context } from '@opentelemetry/api';
import type { ToolObserver } from '../observability/observer-types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { OutboundUrlGuard } from '../http/outbound-url-guard.js';
import { JsonRpcInterceptor } from '../mcp/jsonrpc-interceptor.js';
import type { InvocationSink } from '../mcp/mcp-call-log.js';
import type { UpstreamTool } from '../mcp/mcp-upstream.js';
import type { RegistryService } from '../mcp/registry-service.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { urlCredentials } from '../secrets/url-credentials.js';
import { withBoundedBodies } from './bounded-fetch.js';
import { InterceptingTransport } from './intercepting-transport.js';
import type { McpTarget } from './mcp-server-targets.js';
import type { McpToolEntry } from './responses-types.js';
import { describeToolServerError, withoutErrorBodies } from './tool-server-errors.js';

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
  engine: GuardrailEngine;
  recorder: ChroniclesRecorder;
  /** Origins at which this gateway is reached (configured base URL, the request's own origin). */
  ownOrigins: string[];
  /** Fetches external MCP servers the operator allows; absent when none is allowed. */
  guard?: OutboundUrlGuard;
  /** The application of the request: a developer key in a tool's headers was checked to be one of its own (`checkToolHeaderKeys`). */
  application: string;
  /** Receives the tool invocations made through the gateway's registries. */
  sink: InvocationSink;
  /** The largest answer read from a tool server, in bytes (the MCP proxy's `maxResponseBytes`). */
  maxResponseBytes: number;
  /** Metrics and spans of tool calls. */
  observer?: ToolObserver;
  /** The trace context of the Responses request: parent of each tool call's span, and sent to registries' tool servers. */
  traceParent?: Context;
  /** The request's own credentials (its developer key): scrubbed from what is recorded of a tool call. */
  requestSecrets?: string[];
}

function allowedNames(entry: McpToolEntry): Set<string> | undefined {
  const allowed = entry.allowed_tools;
  if (allowed === undefined || allowed === null) return undefined;
  return new Set(Array.isArray(allowed) ? allowed : (allowed.tool_names ?? []));
}

/** A transport and the secrets it carries (scrubbed from every message the caller sees). */
interface OpenedTransport {
  transport: Transport;
  secrets: string[];
}

/** The transport to one server: in-process through the registry's interceptor, or Streamable HTTP through the outbound guard. */
async function transportFor(entry: McpToolEntry, target: McpTarget, deps: SessionDeps): Promise<OpenedTransport> {
  const headerSecrets = Object.values(entry.headers ?? {});
  if (target.kind === 'registry') {
    const registry = await deps.registries.registry(target.registry);
    const token = deps.registries.token(registry);
    const secrets = [...headerSecrets, ...(token ? [token] : []), ...urlCredentials(registry.url)];
    const interceptor = new JsonRpcInterceptor(
      { service: deps.registries, engine: deps.engine, recorder: deps.recorder, observer: deps.observer },
      registry.name,
      deps.application,
      target.path,
      [...secrets, ...(deps.requestSecrets ?? [])],
      deps.sink,
    );
    interceptor.traceParent = deps.traceParent;
    // The registry's token, and the request's trace context (`traceparent`), as the MCP proxy sends them.
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    deps.observer?.injectTraceContext(headers, deps.traceParent);
    const inner = new StreamableHTTPClientTransport(new URL(registry.url), {
      fetch: withoutErrorBodies(withBoundedBodies((url, init) => fetch(url, init), deps.maxResponseBytes)),
      requestInit: Object.keys(headers).length > 0 ? { headers } : undefined,
    });
    return { transport: new InterceptingTransport(inner, interceptor), secrets };
  }
  if (!deps.guard) throw new Error('External MCP servers are not allowed.');
  const transport = new StreamableHTTPClientTransport(target.url, { fetch: withoutErrorBodies(withBoundedBodies(deps.guard.fetch, deps.maxResponseBytes)), requestInit: { headers: entry.headers ?? {} } });
  return { transport, secrets: headerSecrets };
}

/** Connects to one server and lists its tools (errors thrown carry a short, scrubbed message), filtered by `allowed_tools` (and, for registries, by their enabled state). */
export async function openToolSession(entry: McpToolEntry, target: McpTarget, deps: SessionDeps): Promise<ToolSession> {
  const client = new Client({ name: 'gateway-responses', version: '1.0.0' });
  const signal = AbortSignal.timeout(MCP_TIMEOUT_MS);
  const { transport, secrets } = await transportFor(entry, target, deps);
  const scrub = (text: string) => scrubSecrets(text, secrets);
  try {
    await client.connect(transport, { signal, timeout: MCP_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(describeToolServerError(error, secrets));
  }
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
          return result.isError ? { error: scrub(text) || 'the tool reported an error' } : { output: scrub(text) };
        } catch (error) {
          return { error: describeToolServerError(error, secrets) };
        }
      },
      close: () => client.close(),
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(describeToolServerError(error, secrets));
  }
}
