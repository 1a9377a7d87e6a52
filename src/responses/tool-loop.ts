// The Responses tool loop: lists MCP tools, lets the model call them through chat tool calls, runs them, and loops to a final answer.
import type { ToolInvocation } from '../chronicles/chronicle-entry.js';
import { Errors } from '../errors/error-registry.js';
import { proxyModelRequest, type FallbackProxyDeps } from '../traffic/fallback-proxy.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { readInput, type ChatMessage } from './input-items.js';
import { openToolSession, type SessionDeps, type ToolSession } from './mcp-tool-sessions.js';
import { newId, type ResponseOutput } from './response-output.js';
import type { PendingApproval, ResponseStore } from './response-store.js';
import type { FunctionToolEntry, McpToolEntry, ResponsesRequest } from './responses-types.js';
import { ToolNameMap } from './tool-name-map.js';

/** What the loop needs. */
export interface ToolLoopDeps {
  proxy: FallbackProxyDeps;
  sessions: Omit<SessionDeps, 'sink'>;
  store: ResponseStore;
  /** Model calls allowed per request before the response ends as incomplete. */
  maxRounds: number;
}

interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}

/** Whether a tool needs the client's approval: `never` runs it, `always` stops; a filter object decides per tool name. */
export function needsApproval(entry: McpToolEntry, tool: string): boolean {
  const rule = entry.require_approval;
  if (rule === 'never') return false;
  if (rule === undefined || rule === 'always') return true;
  if (rule.never?.tool_names?.includes(tool)) return false;
  if (rule.always?.tool_names?.includes(tool)) return true;
  return rule.never !== undefined;
}

/** Opens every MCP server of the request, emitting an `mcp_list_tools` item for each (with `error` when it failed). */
async function openSessions(entries: McpToolEntry[], deps: SessionDeps, output: ResponseOutput): Promise<Map<string, { entry: McpToolEntry; session: ToolSession }>> {
  const opened = await Promise.all(
    entries.map(async (entry) => {
      try {
        return { entry, session: await openToolSession(entry, deps) };
      } catch (error) {
        return { entry, error: (error as Error).message };
      }
    }),
  );
  const sessions = new Map<string, { entry: McpToolEntry; session: ToolSession }>();
  for (const result of opened) {
    const tools = result.session?.tools.map((tool) => ({ name: tool.name, description: tool.description ?? null, input_schema: tool.inputSchema ?? {}, annotations: tool.annotations ?? null })) ?? [];
    output.listTools({ type: 'mcp_list_tools', id: newId('mcpl'), server_label: result.entry.server_label, tools, ...(result.error ? { error: result.error } : {}) });
    if (result.session) sessions.set(result.entry.server_label, { entry: result.entry, session: result.session });
  }
  return sessions;
}

/**
 * Runs the request to its end and answers the response object. Throws a GatewayError when a model
 * call fails for good (nothing has been answered yet for JSON requests; streams report it as failed).
 */
export async function runToolLoop(
  deps: ToolLoopDeps,
  request: ResponsesRequest,
  base: ModelRequestContext,
  output: ResponseOutput,
  invocations: ToolInvocation[],
  responseId: string,
): Promise<Record<string, unknown>> {
  const previous = request.previous_response_id === undefined ? undefined : deps.store.load(request.previous_response_id, base.application);
  if (request.previous_response_id !== undefined && !previous) {
    throw Errors.notFound(['response', request.previous_response_id], { param: 'previous_response_id' });
  }
  const { messages: inputMessages, approvals } = readInput(request.input);
  const tools = request.tools ?? [];
  const mcpEntries = tools.filter((tool): tool is McpToolEntry => tool.type === 'mcp');
  const functionEntries = tools.filter((tool): tool is FunctionToolEntry => tool.type === 'function');
  const externalSink = (label: string) => (tool: string, args: unknown, started: number, outcome: { output?: string; error?: string }) =>
    invocations.push({ tool, registry: label, arguments: args, ...(outcome.output !== undefined ? { result: outcome.output } : {}), ...(outcome.error !== undefined ? { error: outcome.error } : {}), latency_ms: Date.now() - started, guardrail_checks: [] });
  const sessions = await openSessions(mcpEntries, { ...deps.sessions, sink: (invocation) => invocations.push(invocation) }, output);
  try {
    const names = new ToolNameMap();
    const chatTools: Array<Record<string, unknown>> = [];
    for (const { session } of sessions.values()) {
      for (const tool of session.tools) {
        chatTools.push({ type: 'function', function: { name: names.add(session.label, tool.name), description: tool.description ?? '', parameters: tool.inputSchema ?? { type: 'object', properties: {} } } });
      }
    }
    for (const fn of functionEntries) chatTools.push({ type: 'function', function: { name: fn.name, description: fn.description ?? '', parameters: fn.parameters ?? { type: 'object', properties: {} } } });

    const messages: ChatMessage[] = [...(previous?.messages ?? [])];
    const run = async (label: string, tool: string, argsText: string): Promise<{ output?: string; error?: string }> => {
      const open = sessions.get(label);
      if (!open) return { error: `The MCP server ${label} is not available.` };
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(argsText || '{}') as Record<string, unknown>;
      } catch {
        return { error: 'The tool arguments are not valid JSON.' };
      }
      const started = Date.now();
      const outcome = await open.session.call(tool, args);
      if (!isRegistrySession(open.entry, deps.sessions.ownOrigins)) externalSink(label)(tool, args, started, outcome);
      return outcome;
    };
    const execute = async (call: { call_id: string; label: string; tool: string; arguments: string; approval_request_id?: string }): Promise<void> => {
      const index = output.startCall({ type: 'mcp_call', id: newId('mcp'), server_label: call.label, name: call.tool, arguments: call.arguments, ...(call.approval_request_id ? { approval_request_id: call.approval_request_id } : {}) });
      const outcome = await run(call.label, call.tool, call.arguments);
      output.finishCall(index, outcome);
      messages.push({ role: 'tool', tool_call_id: call.call_id, content: outcome.error !== undefined ? `Error: ${outcome.error}` : (outcome.output ?? '') });
    };

    for (const pending of previous?.pending ?? []) {
      const answer = approvals.find((approval) => approval.approval_request_id === pending.approval_request_id);
      if (answer?.approve) {
        await execute({ call_id: pending.call_id, label: pending.server_label, tool: pending.tool, arguments: pending.arguments, approval_request_id: pending.approval_request_id });
      } else {
        const index = output.startCall({ type: 'mcp_call', id: newId('mcp'), server_label: pending.server_label, name: pending.tool, arguments: pending.arguments, approval_request_id: pending.approval_request_id });
        const error = `The user did not approve this call${answer?.reason ? `: ${answer.reason}` : ''}.`;
        output.finishCall(index, { error });
        messages.push({ role: 'tool', tool_call_id: pending.call_id, content: `Error: ${error}` });
      }
    }
    messages.push(...inputMessages);

    for (let round = 0; round < deps.maxRounds; round++) {
      const body: Record<string, unknown> = {
        model: request.model,
        messages: [...(request.instructions ? [{ role: 'system', content: request.instructions }] : []), ...messages],
        ...(chatTools.length > 0 ? { tools: chatTools } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
        ...(request.max_output_tokens !== undefined ? { max_tokens: request.max_output_tokens } : {}),
      };
      const outcome = await proxyModelRequest(deps.proxy, { ...base, endpoint: 'chat', body, stream: false, relay: undefined });
      if (!outcome.ok) throw outcome.error;
      const answer = outcome.relay.json as { choices?: Array<{ message?: { content?: string | null; tool_calls?: ToolCall[] } }>; usage?: Record<string, number> };
      output.addUsage(answer.usage);
      const message = answer.choices?.[0]?.message ?? {};
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        const text = message.content ?? '';
        output.message(text);
        messages.push({ role: 'assistant', content: text });
        deps.store.save(responseId, { application: base.application, messages, pending: [] });
        return output.finish();
      }
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls });
      const pending: PendingApproval[] = [];
      let clientCalls = false;
      for (const call of calls) {
        const target = names.resolve(call.function.name);
        const entry = target ? sessions.get(target.server)?.entry : undefined;
        if (!target || !entry) {
          clientCalls = true;
          output.whole({ type: 'function_call', id: newId('fc'), call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: 'completed' });
        } else if (needsApproval(entry, target.tool)) {
          const approval = { approval_request_id: newId('mcpr'), call_id: call.id, server_label: target.server, tool: target.tool, arguments: call.function.arguments };
          pending.push(approval);
          output.whole({ type: 'mcp_approval_request', id: approval.approval_request_id, server_label: target.server, name: target.tool, arguments: approval.arguments });
        } else {
          await execute({ call_id: call.id, label: target.server, tool: target.tool, arguments: call.function.arguments });
        }
      }
      if (pending.length > 0 || clientCalls) {
        deps.store.save(responseId, { application: base.application, messages, pending });
        return output.finish();
      }
    }
    deps.store.save(responseId, { application: base.application, messages, pending: [] });
    return output.finish('max_tool_rounds');
  } finally {
    await Promise.all([...sessions.values()].map(({ session }) => session.close().catch(() => undefined)));
  }
}

/** True when an MCP entry points at one of this gateway's registries (its calls are recorded by the registry). */
function isRegistrySession(entry: McpToolEntry, ownOrigins: string[]): boolean {
  try {
    const url = new URL(entry.server_url);
    return ownOrigins.includes(url.origin) && /^\/v1\/mcp\/[^/]+\/?$/.test(url.pathname);
  } catch {
    return false;
  }
}
