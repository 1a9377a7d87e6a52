// Watches the JSON-RPC traffic of one MCP request: blocks calls to disabled tools, filters tool lists, applies policies to results and to the tool server's own requests.
import type { Context } from '@opentelemetry/api';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { TextSlot } from '../guardrails/pipeline/message-text.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import { INTERNAL_ERROR, INVALID_REQUEST, REQUEST_REFUSED, TOOL_REFUSED, type JsonRpcMessage, type UpstreamReply } from './jsonrpc-messages.js';
import { McpCallLog, type CallLogDeps, type CallOutcome, type InvocationSink, type PendingCall } from './mcp-call-log.js';
import type { ExchangeOutcome } from './mcp-exchange-log.js';
import type { UpstreamTool } from './mcp-upstream.js';
import { applyRegistryPolicies, validateRegistryPolicies } from './registry-policies.js';
import type { RegistryService } from './registry-service.js';
import { screenedMethodVariant } from './screened-method-variants.js';
import { CONTENT_METHODS, errorSlots, methodOfResult, notificationSlots, requestSlots, resultSlots, SERVER_NOTIFICATION_METHODS, SERVER_REQUEST_METHODS } from './result-slots.js';

/** What the interceptor needs. */
export interface InterceptorDeps extends CallLogDeps {
  service: RegistryService;
  engine: GuardrailEngine;
}

/**
 * The call an answer matching no pending request stands for, read from the answer's shape (a replay on a resumed
 * stream, or an id answered twice): such an answer is filtered or checked like the method it answers, never passed on
 * unchecked. Undefined when the answer lists no tools and carries no content.
 */
function unmatchedCall(message: JsonRpcMessage): PendingCall | undefined {
  const result = message.result;
  const method = result !== null && typeof result === 'object' && !Array.isArray(result) ? methodOfResult(result) : undefined;
  return method === undefined ? undefined : { method, startedAt: Date.now(), unmatched: true };
}

/**
 * The key of a JSON-RPC id among the pending requests: a string, or a finite number (JSON-RPC's ids). Undefined for
 * any other id, so it never goes through an object's own `toString`, and a number too large for a double (`1e400`,
 * which JSON.parse reads as Infinity and JSON.stringify writes as null) is not an id either.
 */
function idKey(id: unknown): string | undefined {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? String(id) : undefined;
}

/** The JSON-RPC side of one proxied request to one registry, made by one application. */
export class JsonRpcInterceptor {
  private readonly pending = new Map<string, PendingCall>();

  private readonly log: McpCallLog;

  constructor(
    private readonly deps: InterceptorDeps,
    private readonly registry: string,
    application: string,
    endpoint: string,
    /** Credentials of this request (developer key, registry token): replaced wherever they appear in a log entry. */
    private readonly secrets: string[] = [],
    sink?: InvocationSink,
  ) {
    this.log = new McpCallLog(deps, { application, registry, endpoint, secrets }, sink);
  }

  /** The trace context of the MCP request, parent of the tool call spans (set by the proxy when a tracer is live). */
  traceParent?: Context;

  /** Answers a tool server's request that the policies withheld from the client; without it, the tool server's own timeout applies. */
  replyUpstream?: UpstreamReply;

  /**
   * Looks at the client's messages before they are forwarded. A request whose `method` is not a string cannot be
   * screened, and is answered here with a JSON-RPC invalid-request error. Every `tools/call` is screened, whatever its
   * id, and answered here with a JSON-RPC error when it must not reach the tool server: no usable id (null, missing: a
   * notification cannot be a call; neither can an object, or a number too large to keep), no tool name, an unknown or
   * a disabled tool. A `resources/read` or `prompts/get` without a usable id is refused the same way, so every read
   * whose answer is checked is recorded too.
   */
  async screen(messages: JsonRpcMessage[]): Promise<JsonRpcMessage[]> {
    const refusals: JsonRpcMessage[] = [];
    for (const message of messages) {
      if (message === null || typeof message !== 'object' || message.method === undefined) continue;
      const key = idKey(message.id);
      const hasId = key !== undefined;
      if (typeof message.method !== 'string') {
        refusals.push({ jsonrpc: '2.0', id: hasId ? message.id : null, error: { code: INVALID_REQUEST, message: 'The method of a JSON-RPC request must be a string.' } });
        continue;
      }
      const variant = screenedMethodVariant(message.method);
      if (variant) {
        refusals.push({ jsonrpc: '2.0', id: hasId ? message.id : null, error: { code: INVALID_REQUEST, message: `Unknown method; the method is spelled ${variant}.` } });
        continue;
      }
      const call: PendingCall = { method: message.method, startedAt: Date.now() };
      if (message.method === 'tools/call') {
        const params = message.params !== null && typeof message.params === 'object' && !Array.isArray(message.params) ? message.params : undefined;
        call.tool = typeof params?.name === 'string' ? params.name : '';
        call.arguments = params?.arguments;
        let refusal: { code: number; reason: string } | undefined;
        if (!hasId) refusal = { code: INVALID_REQUEST, reason: 'A tools/call request needs an id that is a string or a number.' };
        else if (call.tool === '') refusal = { code: TOOL_REFUSED, reason: 'A tools/call request needs params.name, the name of the tool.' };
        else {
          const reason = await this.refusal(call);
          if (reason) refusal = { code: TOOL_REFUSED, reason };
        }
        if (refusal) {
          refusals.push({ jsonrpc: '2.0', id: hasId ? message.id : null, error: { code: refusal.code, message: refusal.reason } });
          this.record(call, { error: refusal.reason, blocked: true }, 200);
          continue;
        }
      } else if (CONTENT_METHODS.has(call.method)) {
        call.arguments = message.params;
        // A read whose answer could not be matched to it would be checked by its shape but recorded nowhere.
        if (!hasId) {
          const reason = `A ${call.method} request needs an id that is a string or a number.`;
          refusals.push({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message: reason } });
          this.record(call, { error: reason, blocked: true }, 200);
          continue;
        }
      }
      if (hasId) this.pending.set(key, { ...call, id: message.id as string | number });
    }
    return refusals;
  }

  /**
   * Transforms one message from the tool server before it reaches the client: a `tools/list` loses disabled tools, and
   * the registry policies run on every text of a tool result, a resource read or a prompt (see {@link resultSlots}),
   * and of a sampling or elicitation request (see {@link requestSlots}).
   * @returns the message to relay, or undefined when it is withheld (a blocked request, answered upstream instead).
   */
  async transform(message: JsonRpcMessage): Promise<JsonRpcMessage | undefined> {
    if (message === null || typeof message !== 'object') return message;
    if (typeof message.method === 'string' && SERVER_REQUEST_METHODS.has(message.method)) return this.checkServerRequest(message);
    if (typeof message.method === 'string' && SERVER_NOTIFICATION_METHODS.has(message.method)) return this.checkNotification(message);
    if (message.method !== undefined) return message;
    // An answer whose id is no request's (null, missing, an object) is judged by its shape, as a replay is.
    const key = idKey(message.id);
    const call = (key === undefined ? undefined : this.pending.get(key)) ?? unmatchedCall(message);
    if (!call) return message;
    if (key !== undefined) this.pending.delete(key);
    // An answer to a method whose result the gateway does not read (tasks/result, which hands over a tool call run as
    // a task; a tool server's own method) is judged by its shape: content or a tool list is checked whatever it answers.
    if (call.method !== 'tools/list' && !CONTENT_METHODS.has(call.method)) {
      const result = message.result;
      const shape = result !== null && typeof result === 'object' && !Array.isArray(result) ? methodOfResult(result) : undefined;
      if (shape === undefined) return message;
      call.judgedAs = shape;
    }
    const method = call.judgedAs ?? call.method;
    if (method === 'tools/list' && Array.isArray(message.result?.tools)) {
      const tools = message.result.tools as UpstreamTool[];
      // Judged entry by entry: a listing that names a tool twice (a pinned description, then a changed or poisoned
      // one) loses every entry of that name when any of them is disabled, so none rides on the other's state.
      const views = await this.deps.service.tools.reconcile(this.registry, tools);
      const disabled = new Set(tools.filter((_tool, i) => views[i]?.enabled !== true).map((tool) => tool.name));
      return { ...message, result: { ...message.result, tools: tools.filter((tool) => !disabled.has(tool.name)) } };
    }
    if (!CONTENT_METHODS.has(method)) return message;
    if (message.error) return this.checkError(call, message);
    return this.checkResult(call, message);
  }

  /**
   * Why a call must not be forwarded, or undefined. A tool this process has not seen listed (unknown, or pinned before
   * this process started), or last saw listed longer ago than `mcp.toolListMaxAgeMs`, refreshes the tool list first,
   * so a tool changed since its pin is caught even when the client calls it without listing again; when that list
   * cannot be read, the call is refused rather than let through unchecked.
   */
  private async refusal(call: PendingCall): Promise<string | undefined> {
    const tool = call.tool ?? '';
    const tools = this.deps.service.tools;
    let state = await tools.state(this.registry, tool);
    if (!state || !tools.isFresh(this.registry, tool)) {
      try {
        await this.deps.service.refreshTools(this.registry);
      } catch {
        return state
          ? `The tool ${tool} could not be checked against the tool server's tool list, which could not be read.`
          : `The tool ${tool} is unknown and the tool server's tool list could not be read.`;
      }
      state = await tools.state(this.registry, tool);
    }
    if (!state) return `The registry ${this.registry} has no tool named ${tool}.`;
    call.known = true;
    if (!state.enabled) {
      return state.disabled_reason === 'rug_pull'
        ? `The tool ${tool} changed since it was approved and is disabled until an admin enables it again.`
        : `The tool ${tool} is disabled on this gateway.`;
    }
    return undefined;
  }

  /** Runs the registry policies on a content method's result; a blocked tool result becomes an error result, any other a JSON-RPC error. */
  private async checkResult(call: PendingCall, message: JsonRpcMessage): Promise<JsonRpcMessage> {
    const result = message.result !== null && typeof message.result === 'object' ? message.result : {};
    const method = call.judgedAs ?? call.method;
    const slots: TextSlot[] = resultSlots(method, result);
    const stored = await this.deps.service.storedPolicies(this.registry);
    const verdict = await applyRegistryPolicies(this.deps.engine, stored ?? validateRegistryPolicies({}), slots, stored !== undefined);
    // The text as the client gets it: DLP redaction rewrote the result in place, not the slots' own copies.
    const handed = (): string => resultSlots(method, result).map((slot) => slot.text).join('\n');
    if (verdict.blocked) {
      const text = `Blocked by the registry policy ${verdict.blocked.family} (${verdict.blocked.processor}: ${verdict.blocked.categories.join(', ')}).`;
      this.record(call, { blocked: true, result: text, checks: verdict.checks }, 200);
      if (method !== 'tools/call') return { jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: text } };
      return { ...message, result: { content: [{ type: 'text', text }], isError: true } };
    }
    this.record(call, { result: handed(), checks: verdict.checks }, 200);
    return message;
  }

  /**
   * Runs the registry policies on a tool server's JSON-RPC error to a content method: its message and data reach the
   * client, and often its model as the call's outcome, as a result's text does. DLP masks them; a blocked one becomes
   * the gateway's own error.
   */
  private async checkError(call: PendingCall, message: JsonRpcMessage): Promise<JsonRpcMessage> {
    const error: Record<string, unknown> = message.error !== null && typeof message.error === 'object' ? { ...message.error } : { message: String(message.error) };
    const stored = await this.deps.service.storedPolicies(this.registry);
    const verdict = await applyRegistryPolicies(this.deps.engine, stored ?? validateRegistryPolicies({}), errorSlots(error), stored !== undefined);
    if (verdict.blocked) {
      const text = `Blocked by the registry policy ${verdict.blocked.family} (${verdict.blocked.processor}: ${verdict.blocked.categories.join(', ')}).`;
      this.record(call, { blocked: true, error: text, checks: verdict.checks }, 200);
      return { jsonrpc: '2.0', id: message.id, error: { code: INTERNAL_ERROR, message: text } };
    }
    this.record(call, { error: String(error.message), checks: verdict.checks }, 200);
    return { ...message, error: error as JsonRpcMessage['error'] };
  }

  /**
   * Runs the registry policies on what a tool server's sampling or elicitation request asks the client's model or user
   * to read. Masked in place when DLP redacts; when blocked, withheld from the client, and the tool server gets a
   * JSON-RPC error for it at once (rather than waiting out its own timeout for an answer that cannot come). A request
   * the policies could not be read for is withheld too: its id is the tool server's, so it never becomes an error
   * answer to the client, whose own request ids it could match.
   */
  private async checkServerRequest(message: JsonRpcMessage): Promise<JsonRpcMessage | undefined> {
    const params = message.params !== null && typeof message.params === 'object' && !Array.isArray(message.params) ? message.params : {};
    const method = String(message.method);
    const startedAt = Date.now();
    const { checks, refusal } = await this.judge(requestSlots(method, params), 'The registry could not check this request, so it is withheld.');
    if (refusal === undefined) {
      this.recordExchange(method, params, startedAt, 200, { checks });
      return message;
    }
    this.recordExchange(method, params, startedAt, 200, { blocked: true, error: refusal, checks });
    if (typeof message.id === 'string' || typeof message.id === 'number') await this.replyUpstream?.({ jsonrpc: '2.0', id: message.id, error: { code: REQUEST_REFUSED, message: refusal } });
    return undefined;
  }

  /**
   * Runs the registry policies on the text of a tool server's log or progress notification, which a client shows its
   * user (or hands its model) as it does a tool result. Masked in place when DLP redacts; withheld when blocked, or
   * when the policies could not be read (a notification needs no answer). Only a withheld one is recorded: a tool
   * server may send many, and recording each would push the application's requests out of its log.
   */
  private async checkNotification(message: JsonRpcMessage): Promise<JsonRpcMessage | undefined> {
    const params = message.params !== null && typeof message.params === 'object' && !Array.isArray(message.params) ? message.params : {};
    const method = String(message.method);
    const startedAt = Date.now();
    const { checks, refusal } = await this.judge(notificationSlots(method, params), 'The registry could not check this notification, so it is withheld.');
    if (refusal === undefined) return message;
    this.recordExchange(method, params, startedAt, 200, { blocked: true, error: refusal, checks });
    return undefined;
  }

  /**
   * Runs the registry policies on `slots` (DLP masks them in place): the checks, with the refusal text when they block;
   * only `unreadable` as the refusal when the policies could not be read.
   */
  private async judge(slots: TextSlot[], unreadable: string): Promise<{ checks?: ExchangeOutcome['checks']; refusal?: string }> {
    try {
      const stored = await this.deps.service.storedPolicies(this.registry);
      const verdict = await applyRegistryPolicies(this.deps.engine, stored ?? validateRegistryPolicies({}), slots, stored !== undefined);
      if (!verdict.blocked) return { checks: verdict.checks };
      return { checks: verdict.checks, refusal: `Blocked by the registry policy ${verdict.blocked.family} (${verdict.blocked.processor}: ${verdict.blocked.categories.join(', ')}).` };
    } catch {
      return { refusal: unreadable };
    }
  }

  /** Records a call once it ended, its span under this request's trace. */
  private record(call: PendingCall, outcome: CallOutcome, status: number): void {
    this.log.record(call, outcome, status, this.traceParent);
  }

  /** Records an exchange other than a tool call (kind `mcp`). */
  private recordExchange(method: string, params: unknown, startedAt: number, status: number, outcome: ExchangeOutcome): void {
    this.log.exchange(method, params, startedAt, status, outcome);
  }

  /**
   * Records calls whose answers never came (the tool server failed or the client left).
   * @returns one JSON-RPC error response per abandoned request, for a client still listening on a stream.
   */
  abandon(reason: string, status: number): JsonRpcMessage[] {
    const answers: JsonRpcMessage[] = [];
    for (const call of this.pending.values()) {
      this.record(call, { error: reason }, status);
      if (call.id !== undefined) answers.push({ jsonrpc: '2.0', id: call.id, error: { code: INTERNAL_ERROR, message: scrubSecrets(reason, this.secrets) } });
    }
    this.pending.clear();
    return answers;
  }
}
