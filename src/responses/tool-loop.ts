// The Responses tool loop: lists MCP tools, lets the model call them through chat tool calls, runs them, and loops to a final answer.
import { asksLogprobs, asResponsesError, chatRequestOptions, type ChatTool } from './chat-request-options.js';
import type { ToolInvocation } from '../chronicles/chronicle-entry.js';
import { Errors } from '../errors/error-registry.js';
import { proxyModelRequest, type FallbackProxyDeps } from '../traffic/fallback-proxy.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { enforceRouteRate } from '../traffic/rate-limiter-router.js';
import { scrubSecrets, scrubSecretsDeep } from '../secrets/secret-scrubber.js';
import type { RouteRateLimits } from '../traffic/route-rate-limits.js';
import type { ApprovalIds } from './approval-ids.js';
import { readInput, type ApprovalResponse, type ChatMessage, type EchoedApprovalRequest, type EchoedMcpCall } from './input-items.js';
import { targetKey, type McpTarget } from './mcp-server-targets.js';
import type { SessionDeps, ToolSession } from './mcp-tool-sessions.js';
import { newId, type ChatUsage, type ResponseOutput } from './response-output.js';
import type { LoadedResponse, PendingApproval, ResponseStateStore } from './response-store.js';
import type { FunctionToolEntry, McpToolEntry, ResponsesRequest } from './responses-types.js';
import { ToolNameMap } from './tool-name-map.js';
import { ToolCallBudget } from './tool-call-budget.js';

/** What the loop needs. */
export interface ToolLoopDeps {
  proxy: FallbackProxyDeps;
  sessions: Omit<SessionDeps, 'sink' | 'application'>;
  store: ResponseStateStore;
  /** Model calls allowed per request before the response ends as incomplete. */
  maxRounds: number;
  /** Route rate limits: every model call of the loop takes a token. */
  limits: RouteRateLimits;
  /** Signs and checks approval request ids. */
  approvals: ApprovalIds;
}

interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}

/** An `mcp` tool of the request with where it leads. */
interface McpServer {
  entry: McpToolEntry;
  target: McpTarget;
}

/** An approval answered in `input` for a request echoed in the same input (no server-side state). */
interface EchoedApproval {
  request: EchoedApprovalRequest;
  answer: ApprovalResponse;
}

/** A request checked and ready to run: nothing has been called yet. */
export interface ResponsePlan {
  request: ResponsesRequest;
  previous?: LoadedResponse;
  inputMessages: ChatMessage[];
  /** Approvals of calls pending in the previous response, by approval id. */
  storedAnswers: Map<string, ApprovalResponse>;
  echoed: EchoedApproval[];
  /** `mcp_call` items of the input: earlier calls and their results, kept in the transcript where they were. */
  calls: EchoedMcpCall[];
  servers: McpServer[];
  functions: FunctionToolEntry[];
}

/**
 * The `incomplete_details.reason` of a final answer the model did not finish: `max_output_tokens` when it stopped at
 * the token limit (chat `length`), `content_filter` when the provider's filter stopped it; undefined when it finished.
 */
export function incompleteReason(finishReason: string | null | undefined): string | undefined {
  if (finishReason === 'length') return 'max_output_tokens';
  if (finishReason === 'content_filter') return 'content_filter';
  return undefined;
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

/**
 * Checks what the request refers to before anything runs: the previous response, and every
 * `mcp_approval_response`, which must answer a call pending in the previous response or an
 * `mcp_approval_request` in the same input whose id this gateway signed for exactly that call.
 * Throws 404 or 400.
 */
export async function planResponse(deps: ToolLoopDeps, request: ResponsesRequest, application: string, targets: McpTarget[]): Promise<ResponsePlan> {
  const previous = request.previous_response_id === undefined ? undefined : await deps.store.load(request.previous_response_id, application);
  if (request.previous_response_id !== undefined && !previous) {
    throw Errors.notFound(['response', request.previous_response_id], { param: 'previous_response_id' });
  }
  const { messages: inputMessages, approvals, requests, calls } = readInput(request.input);
  // An approval whose call is in the input too (an echoed `mcp_call`) was answered before: it is history, not run again.
  const answered = new Set(calls.map((call) => call.approval_request_id).filter((id) => id !== undefined));
  const tools = request.tools ?? [];
  const mcpEntries = tools.filter((tool): tool is McpToolEntry => tool.type === 'mcp');
  const servers = mcpEntries.map((entry, index) => ({ entry, target: targets[index]! }));
  const pendingIds = new Set((previous?.pending ?? []).map((pending) => pending.approval_request_id));
  const storedAnswers = new Map<string, ApprovalResponse>();
  const echoed: EchoedApproval[] = [];
  for (const answer of approvals) {
    const param = `${answer.param}.approval_request_id`;
    if (answered.has(answer.approval_request_id)) continue;
    if (pendingIds.has(answer.approval_request_id)) {
      storedAnswers.set(answer.approval_request_id, answer);
      continue;
    }
    const echo = requests.get(answer.approval_request_id);
    if (!echo) throw Errors.validation([`The approval ${answer.approval_request_id} answers no mcp_approval_request of the input or of the previous response.`], { param });
    const server = servers.find(({ entry }) => entry.server_label === echo.server_label);
    const subject = { application, target: server ? targetKey(server.target) : '', server_label: echo.server_label, name: echo.name, arguments: echo.arguments };
    if (!server || !deps.approvals.verify(echo.id, subject)) {
      throw Errors.validation([`The mcp_approval_request ${echo.id} was not issued by this gateway for this call to ${echo.server_label}, or it was changed.`], { param });
    }
    if (!echoed.some((item) => item.request.id === echo.id)) echoed.push({ request: echo, answer });
  }
  return { request, previous, inputMessages, storedAnswers, echoed, calls, servers, functions: tools.filter((tool): tool is FunctionToolEntry => tool.type === 'function') };
}

/** Opens every MCP server of the request, emitting an `mcp_list_tools` item for each (with `error` when it failed). */
async function openSessions(servers: McpServer[], deps: SessionDeps, output: ResponseOutput): Promise<Map<string, McpServer & { session: ToolSession }>> {
  const opened = await Promise.all(
    servers.map(async (server): Promise<McpServer & { session?: ToolSession; error?: string }> => {
      try {
        // The MCP SDK client is loaded with the first tool session, not at start.
        const { openToolSession } = await import('./mcp-tool-sessions.js');
        return { ...server, session: await openToolSession(server.entry, server.target, deps) };
      } catch (error) {
        return { ...server, error: (error as Error).message };
      }
    }),
  );
  const sessions = new Map<string, McpServer & { session: ToolSession }>();
  for (const result of opened) {
    const tools = result.session?.tools.map((tool) => ({ name: tool.name, description: tool.description ?? null, input_schema: tool.inputSchema ?? {}, annotations: tool.annotations ?? null })) ?? [];
    output.listTools({ type: 'mcp_list_tools', id: newId('mcpl'), server_label: result.entry.server_label, tools, ...(result.error ? { error: result.error } : {}) });
    if (result.session !== undefined) sessions.set(result.entry.server_label, { entry: result.entry, target: result.target, session: result.session });
  }
  return sessions;
}

/**
 * Runs a planned request to its end and answers the response object. Every model call takes a
 * rate-limit token of the route (the first was taken before the response started); a refused one
 * ends the response with 429. Throws a GatewayError when a model call fails for good (nothing has
 * been answered yet for JSON requests; streams report it as failed).
 */
export async function runToolLoop(
  deps: ToolLoopDeps,
  plan: ResponsePlan,
  base: ModelRequestContext,
  output: ResponseOutput,
  invocations: ToolInvocation[],
  responseId: string,
): Promise<Record<string, unknown>> {
  const { request, previous } = plan;
  const externalSink = (label: string) => (tool: string, args: unknown, started: number, outcome: { output?: string; error?: string }) =>
    invocations.push({ tool, registry: label, arguments: args, ...(outcome.output !== undefined ? { result: outcome.output } : {}), ...(outcome.error !== undefined ? { error: outcome.error } : {}), latency_ms: Date.now() - started, guardrail_checks: [] });
  const sessions = await openSessions(plan.servers, { ...deps.sessions, application: base.application, sink: (invocation) => invocations.push(invocation) }, output);
  try {
    const names = new ToolNameMap();
    const chatTools: ChatTool[] = [];
    for (const { session } of sessions.values()) {
      for (const tool of session.tools) {
        chatTools.push({ type: 'function', function: { name: names.add(session.label, tool.name), description: tool.description ?? '', parameters: tool.inputSchema ?? { type: 'object', properties: {} } } });
      }
    }
    // `strict` as the client set it (null and absent: the provider's default).
    for (const fn of plan.functions) chatTools.push({ type: 'function', function: { name: fn.name, description: fn.description ?? '', parameters: fn.parameters ?? { type: 'object', properties: {} }, ...(typeof fn.strict === 'boolean' ? { strict: fn.strict } : {}) } });

    const budget = new ToolCallBudget(request.max_tool_calls ?? undefined);
    const inherited = previous?.messages.length ?? 0;
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
      if (open.target.kind === 'external') {
        externalSink(label)(tool, args, started, outcome);
        // A registry's calls are observed by its interceptor; an external server's here (a span, no metric: it has no registry).
        const secrets = [...(deps.sessions.requestSecrets ?? []), ...Object.values(open.entry.headers ?? {})];
        deps.sessions.observer?.toolCalled({
          server: label,
          tool,
          known: true,
          outcome: outcome.error === undefined ? 'ok' : 'error',
          startedAt: started,
          latencyMs: Date.now() - started,
          parent: deps.sessions.traceParent,
          arguments: scrubSecretsDeep(args, secrets),
          result: scrubSecrets(outcome.error ?? outcome.output ?? '', secrets),
        });
      }
      return outcome;
    };
    /** Runs an approved call (or records a denied one) as an `mcp_call` item; answers the tool message for the model. */
    const answerApproval = async (call: { call_id: string; label: string; tool: string; arguments: string; approval_request_id: string }, answer: ApprovalResponse | undefined): Promise<ChatMessage> => {
      if (answer?.approve && !budget.take()) return { role: 'tool', tool_call_id: call.call_id, content: budget.ignored() };
      const index = output.startCall({ type: 'mcp_call', id: newId('mcp'), server_label: call.label, name: call.tool, arguments: call.arguments, approval_request_id: call.approval_request_id });
      const outcome = answer?.approve ? await run(call.label, call.tool, call.arguments) : { error: `The user did not approve this call${answer?.reason ? `: ${answer.reason}` : ''}.` };
      output.finishCall(index, outcome);
      return { role: 'tool', tool_call_id: call.call_id, content: outcome.error !== undefined ? `Error: ${outcome.error}` : (outcome.output ?? '') };
    };
    const execute = async (call: { call_id: string; label: string; tool: string; arguments: string }): Promise<void> => {
      const index = output.startCall({ type: 'mcp_call', id: newId('mcp'), server_label: call.label, name: call.tool, arguments: call.arguments });
      const outcome = await run(call.label, call.tool, call.arguments);
      output.finishCall(index, outcome);
      messages.push({ role: 'tool', tool_call_id: call.call_id, content: outcome.error !== undefined ? `Error: ${outcome.error}` : (outcome.output ?? '') });
    };

    for (const pending of previous?.pending ?? []) {
      const call = { call_id: pending.call_id, label: pending.server_label, tool: pending.tool, arguments: pending.arguments, approval_request_id: pending.approval_request_id };
      messages.push(await answerApproval(call, plan.storedAnswers.get(pending.approval_request_id)));
    }
    // Approvals of requests echoed in the input, and echoed mcp_call items: each call and its result go where its item was.
    const placed: Array<{ position: number; index: number; messages: ChatMessage[] }> = [];
    const callMessage = (id: string, label: string, tool: string, args: string): ChatMessage => ({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: names.nameOf(label, tool) ?? `${label}__${tool}`, arguments: args } }],
    });
    for (const { request: echo, answer } of plan.echoed) {
      const call = { call_id: echo.id, label: echo.server_label, tool: echo.name, arguments: echo.arguments, approval_request_id: echo.id };
      const assistant = callMessage(echo.id, echo.server_label, echo.name, echo.arguments);
      placed.push({ position: echo.position, index: echo.index, messages: [assistant, await answerApproval(call, answer)] });
    }
    for (const call of plan.calls) {
      placed.push({ position: call.position, index: call.index, messages: [callMessage(call.id, call.server_label, call.name, call.arguments), { role: 'tool', tool_call_id: call.id, content: call.result }] });
    }
    const inserts = new Map<number, ChatMessage[]>();
    for (const item of placed.sort((a, b) => a.index - b.index)) inserts.set(item.position, [...(inserts.get(item.position) ?? []), ...item.messages]);
    plan.inputMessages.forEach((message, at) => messages.push(...(inserts.get(at) ?? []), message));
    messages.push(...(inserts.get(plan.inputMessages.length) ?? []));

    const save = (pending: PendingApproval[]) =>
      deps.store.save(responseId, { application: base.application, ...(request.previous_response_id ? { parent: request.previous_response_id } : {}), messages: messages.slice(inherited), pending });
    for (let round = 0; round < deps.maxRounds; round++) {
      if (round > 0) await enforceRouteRate(deps.limits, base.routeName, base.route?.config.settings.rate_limit ?? 0);
      const offered = budget.round(request, chatTools, names);
      const body: Record<string, unknown> = {
        model: request.model,
        messages: [...(request.instructions ? [{ role: 'system', content: request.instructions }] : []), ...messages],
        ...chatRequestOptions(offered.request, offered.tools, names, round),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
        ...(request.max_output_tokens !== undefined ? { max_tokens: request.max_output_tokens } : {}),
      };
      // An error naming a chat field this loop set (a provider refusing response_format) names the client's field.
      const outcome = await proxyModelRequest(deps.proxy, { ...base, endpoint: 'chat', body, stream: false, relay: undefined }).catch((error: unknown) => {
        throw asResponsesError(error);
      });
      if (!outcome.ok) throw asResponsesError(outcome.error);
      const answer = outcome.relay.json as { choices?: Array<{ message?: { content?: string | null; refusal?: string | null; tool_calls?: ToolCall[]; thinking_blocks?: unknown[] }; finish_reason?: string | null; logprobs?: { content?: unknown } | null }>; usage?: ChatUsage };
      output.addUsage(answer.usage);
      const choice = answer.choices?.[0];
      const message = choice?.message ?? {};
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) {
        const text = message.content ?? '';
        const refusal = typeof message.refusal === 'string' && message.refusal !== '' && text === '' ? message.refusal : undefined;
        // The answer's token log probabilities, when asked for: the chat choice's, on the output_text part.
        const logprobs = asksLogprobs(request) ? (Array.isArray(choice?.logprobs?.content) ? choice.logprobs.content : []) : undefined;
        output.message(text, refusal, logprobs);
        messages.push({ role: 'assistant', content: refusal ?? text });
        await save([]);
        return output.finish(incompleteReason(choice?.finish_reason));
      }
      // Anthropic's thinking blocks stay with the calls they led to: with thinking on, it refuses a tool_use turn without them.
      const thinking = Array.isArray(message.thinking_blocks) && message.thinking_blocks.length > 0 ? { thinking_blocks: message.thinking_blocks } : {};
      messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: calls, ...thinking });
      const pending: PendingApproval[] = [];
      let clientCalls = false;
      for (const call of calls) {
        const target = names.resolve(call.function.name);
        const server = target ? sessions.get(target.server) : undefined;
        if (!target || !server) {
          clientCalls = true;
          output.whole({ type: 'function_call', id: newId('fc'), call_id: call.id, name: call.function.name, arguments: call.function.arguments, status: 'completed' });
        } else if (budget.spent) {
          messages.push({ role: 'tool', tool_call_id: call.id, content: budget.ignored() });
        } else if (needsApproval(server.entry, target.tool)) {
          const subject = { application: base.application, target: targetKey(server.target), server_label: target.server, name: target.tool, arguments: call.function.arguments };
          const approval = { approval_request_id: deps.approvals.issue(subject), call_id: call.id, server_label: target.server, tool: target.tool, arguments: call.function.arguments };
          pending.push(approval);
          output.whole({ type: 'mcp_approval_request', id: approval.approval_request_id, server_label: target.server, name: target.tool, arguments: approval.arguments });
        } else {
          budget.take();
          await execute({ call_id: call.id, label: target.server, tool: target.tool, arguments: call.function.arguments });
        }
      }
      if (pending.length > 0 || clientCalls) {
        await save(pending);
        return output.finish();
      }
    }
    await save([]);
    return output.finish('max_tool_rounds');
  } finally {
    await Promise.all([...sessions.values()].map(({ session }) => session.close().catch(() => undefined)));
  }
}
