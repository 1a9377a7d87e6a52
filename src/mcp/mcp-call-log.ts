// Records the calls of one MCP exchange the gateway screened or answered: a tool call as an invocation (metric, span, Chronicles), any other content method as an `mcp` entry.
import type { Context } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { buildToolEntry, type ToolInvocation } from '../chronicles/chronicle-entry.js';
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { ToolObserver } from '../observability/observer-types.js';
import { scrubSecrets, scrubSecretsDeep } from '../secrets/secret-scrubber.js';
import { recordMcpExchange, type ExchangeOutcome, type ExchangePlace } from './mcp-exchange-log.js';
import { CONTENT_METHODS } from './result-slots.js';

/** A client request the gateway is waiting to see answered (or answered itself). */
export interface PendingCall {
  /** The request's JSON-RPC id, as the client sent it. */
  id?: string | number;
  method: string;
  tool?: string;
  /** A tool call's arguments; the params of another content method (a resource read's uri, a prompt's name and arguments). */
  arguments?: unknown;
  startedAt: number;
  /** The registry knows the tool (it may still be disabled): only then is its name a metric label. */
  known?: boolean;
  /** An answer to no request of this exchange, checked by its shape: its call was recorded where it was made. */
  unmatched?: boolean;
  /**
   * The method an answer to another method was checked as, read from its shape (a `tasks/result` handing over a tool
   * result is checked as `tools/call`); recorded as an `mcp` entry under the method asked.
   */
  judgedAs?: string;
}

/** How a call ended, as the gateway decided it. */
export interface CallOutcome {
  result?: unknown;
  error?: string;
  blocked?: boolean;
  checks?: ToolInvocation['guardrail_checks'];
}

/**
 * Where tool invocations go: by default one Chronicles entry each (the HTTP proxy); the Responses
 * tool loop collects them into its own single entry instead.
 */
export type InvocationSink = (invocation: ToolInvocation, status: number, error?: { code: string; message: string; type: string }) => void;

/** What the call log writes to. */
export interface CallLogDeps {
  recorder: ChroniclesRecorder;
  /** Metrics and spans of tool calls; absent when both are off. */
  observer?: ToolObserver;
}

/** The records of the calls of one proxied request to one registry, made by one application. */
export class McpCallLog {
  private readonly sink: InvocationSink;

  /** @param place where the calls happen; its `secrets` (the request's credentials) are replaced wherever they appear. */
  constructor(
    private readonly deps: CallLogDeps,
    private readonly place: ExchangePlace,
    sink?: InvocationSink,
  ) {
    this.sink = sink ?? ((invocation, status, error) => this.recordEntry(invocation, status, error));
  }

  /** Records a content method's call once it ended; `parent` is the trace context of its tool call span. */
  record(call: PendingCall, outcome: CallOutcome, status: number, parent: Context | undefined): void {
    if ((!CONTENT_METHODS.has(call.method) && call.judgedAs === undefined) || call.unmatched) return;
    if (call.method !== 'tools/call') {
      const output = typeof outcome.result === 'string' ? outcome.result : undefined;
      // A blocked resource or prompt is answered with a JSON-RPC error: its message is the entry's error.
      this.exchange(call.method, call.arguments ?? null, call.startedAt, status, { ...outcome, output: outcome.blocked ? undefined : output, error: outcome.error ?? (outcome.blocked ? output : undefined) });
      return;
    }
    const { registry, secrets } = this.place;
    const invocation: ToolInvocation = {
      tool: call.tool ?? '',
      registry,
      arguments: call.arguments ?? null,
      ...(outcome.result === undefined ? {} : { result: outcome.result }),
      ...(outcome.blocked ? { blocked: true } : {}),
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      latency_ms: Date.now() - call.startedAt,
      guardrail_checks: outcome.checks ?? [],
    };
    const message = outcome.error === undefined ? undefined : scrubSecrets(outcome.error, secrets);
    const error = message === undefined ? undefined : { code: outcome.blocked ? 'tool_refused' : 'tool_error', message, type: 'tool_error' };
    // This request's credentials are scrubbed in any form (case, base64, URL, hex) wherever they appear.
    const scrubbed = scrubSecretsDeep(invocation, secrets);
    this.deps.observer?.toolCalled({
      registry,
      tool: invocation.tool,
      known: call.known === true,
      outcome: outcome.blocked ? 'blocked' : outcome.error === undefined ? 'ok' : 'error',
      startedAt: call.startedAt,
      latencyMs: invocation.latency_ms,
      parent,
      arguments: scrubbed.arguments,
      result: scrubbed.error ?? scrubbed.result,
    });
    this.sink(scrubbed, status, error);
  }

  /** One Chronicles entry of kind `mcp` (whatever the sink: these are not tool invocations). */
  exchange(method: string, params: unknown, startedAt: number, status: number, outcome: ExchangeOutcome): void {
    recordMcpExchange(this.deps.recorder, this.place, method, params, startedAt, status, outcome);
  }

  /** The default sink: one Chronicles entry per tool call. */
  private recordEntry(invocation: ToolInvocation, status: number, error?: { code: string; message: string; type: string }): void {
    const { application, registry, endpoint, secrets } = this.place;
    this.deps.recorder.record(
      buildToolEntry({
        id: randomUUID(),
        application,
        registry,
        endpoint,
        startedAt: Date.now() - invocation.latency_ms,
        status,
        invocation,
        ...(error ? { error } : {}),
      }),
      secrets, // scrubbed by the recorder in every case and encoding
    );
  }
}
