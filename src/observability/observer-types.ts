// What the proxy and the MCP interceptor tell the observability layer: small hook interfaces, so those files stay free of metrics and tracing code.
import type { Context } from '@opentelemetry/api';
import type { Candidate, ModelRequestContext } from '../traffic/model-request-context.js';

/** How an upstream attempt failed, as the proxy classifies it (`status` carries the HTTP status). */
export type AttemptEnd =
  | { kind: 'ok'; status: number; streamError?: string }
  | { kind: 'status'; status: number }
  | { kind: 'timeout' | 'network' | 'aborted' | 'invalid_response' };

/** One upstream attempt being watched. */
export interface AttemptWatch {
  /** Records the attempt's end (metrics, and its span). */
  end(outcome: AttemptEnd): void;
}

/** Hooks of the retry/fallback proxy. */
export interface ProxyObserver {
  /** An attempt starts: its span opens and its trace context is added to the upstream headers. */
  attemptStarted(context: ModelRequestContext, candidate: Candidate, headers: Record<string, string>): AttemptWatch;
  /** A failed attempt is retried on the same candidate. */
  retried(candidate: Candidate, failure: AttemptEnd): void;
  /** The route moves on from `candidate` to its next model. */
  fellBack(context: ModelRequestContext, candidate: Candidate, failure: AttemptEnd): void;
}

/** Hook of the MCP interceptor: one tool call, ended. `known` is false for a tool the registry does not know. */
export interface ToolObserver {
  toolCalled(call: { registry: string; tool: string; known: boolean; outcome: 'ok' | 'error' | 'blocked'; startedAt: number; latencyMs: number; parent?: Context }): void;
  /** Adds the `traceparent` of `parent` (the MCP request's span) to the headers of a request to a tool server. */
  injectTraceContext(headers: Record<string, string>, parent: Context | undefined): void;
}
