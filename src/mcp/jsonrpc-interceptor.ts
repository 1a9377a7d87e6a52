// Watches the JSON-RPC traffic of one MCP request: blocks calls to disabled tools, filters tool lists, applies policies to results.
import { randomUUID } from 'node:crypto';
import { buildToolEntry, type ToolInvocation } from '../chronicles/chronicle-entry.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { TextSlot } from '../guardrails/pipeline/message-text.js';
import { applyRegistryPolicies } from './registry-policies.js';
import type { RegistryService } from './registry-service.js';
import type { UpstreamTool } from './mcp-upstream.js';

/** A JSON-RPC message, loosely typed. */
export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown; [key: string]: unknown };
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** JSON-RPC error code for calls the gateway refuses (invalid params: unknown or disabled tool). */
export const TOOL_REFUSED = -32602;

interface PendingCall {
  method: string;
  tool?: string;
  arguments?: unknown;
  startedAt: number;
}

/** What the interceptor needs. */
export interface InterceptorDeps {
  service: RegistryService;
  engine: GuardrailEngine;
  recorder: ChroniclesRecorder;
}

/**
 * Where tool invocations go: by default one Chronicles entry each (the HTTP proxy); the Responses
 * tool loop collects them into its own single entry instead.
 */
export type InvocationSink = (invocation: ToolInvocation, status: number, error?: { code: string; message: string; type: string }) => void;

/** The JSON-RPC side of one proxied request to one registry, made by one application. */
export class JsonRpcInterceptor {
  private readonly pending = new Map<string, PendingCall>();

  constructor(
    private readonly deps: InterceptorDeps,
    private readonly registry: string,
    private readonly application: string,
    private readonly endpoint: string,
    /** Credentials of this request (developer key, registry token): replaced wherever they appear in a log entry. */
    private readonly secrets: string[] = [],
    sink?: InvocationSink,
  ) {
    this.sink = sink ?? ((invocation, status, error) => this.recordEntry(invocation, status, error));
  }

  private readonly sink: InvocationSink;

  /**
   * Looks at the client's messages before they are forwarded. Answers the error responses for
   * `tools/call` requests that must not reach the tool server (unknown or disabled tools).
   */
  async screen(messages: JsonRpcMessage[]): Promise<JsonRpcMessage[]> {
    const refusals: JsonRpcMessage[] = [];
    for (const message of messages) {
      if (message.method === undefined || message.id === undefined || message.id === null) continue;
      const call: PendingCall = { method: message.method, startedAt: Date.now() };
      if (message.method === 'tools/call') {
        call.tool = String(message.params?.name ?? '');
        call.arguments = message.params?.arguments;
        const reason = await this.refusal(call.tool);
        if (reason) {
          refusals.push({ jsonrpc: '2.0', id: message.id, error: { code: TOOL_REFUSED, message: reason } });
          this.record(call, { error: reason, blocked: true }, 200);
          continue;
        }
      }
      this.pending.set(String(message.id), call);
    }
    return refusals;
  }

  /** Transforms one message from the tool server before it reaches the client. */
  async transform(message: JsonRpcMessage): Promise<JsonRpcMessage> {
    if (message.id === undefined || message.id === null || message.method !== undefined) return message;
    const call = this.pending.get(String(message.id));
    if (!call) return message;
    this.pending.delete(String(message.id));
    if (call.method === 'tools/list' && Array.isArray(message.result?.tools)) {
      const tools = message.result.tools as UpstreamTool[];
      const views = await this.deps.service.tools.reconcile(this.registry, tools);
      const enabled = new Set(views.filter((view) => view.enabled).map((view) => view.name));
      return { ...message, result: { ...message.result, tools: tools.filter((tool) => enabled.has(tool.name)) } };
    }
    if (call.method !== 'tools/call') return message;
    if (message.error) {
      this.record(call, { error: message.error.message }, 200);
      return message;
    }
    return this.checkResult(call, message);
  }

  /** Why a call must not be forwarded, or undefined. An unknown tool refreshes the tool list once. */
  private async refusal(tool: string): Promise<string | undefined> {
    let state = await this.deps.service.tools.state(this.registry, tool);
    if (!state) {
      try {
        await this.deps.service.listTools(this.registry);
      } catch {
        return `The tool ${tool} is unknown and the tool server's tool list could not be read.`;
      }
      state = await this.deps.service.tools.state(this.registry, tool);
    }
    if (!state) return `The registry ${this.registry} has no tool named ${tool}.`;
    if (!state.enabled) {
      return state.disabled_reason === 'rug_pull'
        ? `The tool ${tool} changed since it was approved and is disabled until an admin enables it again.`
        : `The tool ${tool} is disabled on this gateway.`;
    }
    return undefined;
  }

  private async checkResult(call: PendingCall, message: JsonRpcMessage): Promise<JsonRpcMessage> {
    const result = message.result ?? {};
    const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
    const slots: TextSlot[] = content
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => ({ text: part.text as string, replace: (next: string) => void (part.text = next) }));
    const policies = await this.deps.service.policies(this.registry);
    const verdict = await applyRegistryPolicies(this.deps.engine, policies, slots);
    if (verdict.blocked) {
      const text = `Blocked by the registry policy ${verdict.blocked.family} (${verdict.blocked.processor}: ${verdict.blocked.categories.join(', ')}).`;
      this.record(call, { blocked: true, result: text, checks: verdict.checks }, 200);
      return { ...message, result: { content: [{ type: 'text', text }], isError: true } };
    }
    this.record(call, { result: slots.map((slot) => slot.text).join('\n'), checks: verdict.checks }, 200);
    return message;
  }

  private record(call: PendingCall, outcome: { result?: unknown; error?: string; blocked?: boolean; checks?: ToolInvocation['guardrail_checks'] }, status: number): void {
    if (call.method !== 'tools/call') return;
    const invocation: ToolInvocation = {
      tool: call.tool ?? '',
      registry: this.registry,
      arguments: call.arguments ?? null,
      ...(outcome.result === undefined ? {} : { result: outcome.result }),
      ...(outcome.blocked ? { blocked: true } : {}),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      latency_ms: Date.now() - call.startedAt,
      guardrail_checks: outcome.checks ?? [],
    };
    const error = outcome.error === undefined ? undefined : { code: outcome.blocked ? 'tool_refused' : 'tool_error', message: outcome.error, type: 'tool_error' };
    this.sink(this.scrubbed(invocation), status, error);
  }

  /** The invocation with this request's credentials replaced wherever they appear. */
  private scrubbed(invocation: ToolInvocation): ToolInvocation {
    const secrets = this.secrets.filter((secret) => secret.length >= 8);
    const text = JSON.stringify(invocation);
    const leaked = secrets.filter((secret) => text.includes(secret));
    return leaked.length === 0 ? invocation : (JSON.parse(leaked.reduce((t, secret) => t.split(secret).join('[REDACTED]'), text)) as ToolInvocation);
  }

  /** The default sink: one Chronicles entry per tool call. */
  private recordEntry(invocation: ToolInvocation, status: number, error?: { code: string; message: string; type: string }): void {
    this.deps.recorder.record(
      buildToolEntry({
        id: randomUUID(),
        application: this.application,
        registry: this.registry,
        endpoint: this.endpoint,
        startedAt: Date.now() - invocation.latency_ms,
        status,
        invocation,
        ...(error ? { error } : {}),
      }),
      this.secrets, // scrubbed by the recorder in every case and encoding
    );
  }

  /** Records calls whose answers never came (the tool server failed or the client left). */
  abandon(reason: string, status: number): void {
    for (const call of this.pending.values()) this.record(call, { error: reason }, status);
    this.pending.clear();
  }
}
