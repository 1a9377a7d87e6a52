// What the proxy and the MCP interceptor tell the observability layer: small hook interfaces, so those files stay free of metrics and tracing code.
import type { Context } from '@opentelemetry/api';
import type { Candidate, ModelRequestContext } from '../traffic/model-request-context.js';

/**
 * How an upstream attempt ended, as the proxy classifies it (`status` carries the HTTP status, when there was one:
 * a stream the client left or that stalled past the timeout had begun with one, a redirect is an invalid response).
 */
export type AttemptEnd =
  | { kind: 'ok'; status: number; streamError?: string }
  | { kind: 'status'; status: number }
  | { kind: 'timeout' | 'network' | 'aborted' | 'invalid_response'; status?: number };

/** One upstream attempt being watched. */
export interface AttemptWatch {
  /** Records the attempt's end (metrics, and its span). */
  end(outcome: AttemptEnd): void;
}

/** Hooks of the retry/fallback proxy. */
export interface ProxyObserver {
  /** An attempt starts: its span opens and its trace context is added to the upstream headers. */
  attemptStarted(context: ModelRequestContext, candidate: Candidate, headers: Record<string, string>): AttemptWatch;
  /** A failed attempt is retried on the same candidate; `failure` is how that attempt ended (its counted cause). */
  retried(candidate: Candidate, failure: AttemptEnd): void;
  /** The route moves on from `candidate` to its next model after its last attempt ended as `failure`. */
  fellBack(context: ModelRequestContext, candidate: Candidate, failure: AttemptEnd): void;
}

/** One MCP tool call, ended. */
export interface ToolCallRecord {
  /** The gateway registry it went through; undefined for an external MCP server named in a Responses request. */
  registry?: string;
  /** The `server_label` of an external MCP server (Responses requests only). */
  server?: string;
  tool: string;
  /** False for a tool the registry does not know (its name is then neither a label nor a span name). */
  known: boolean;
  outcome: 'ok' | 'error' | 'blocked';
  /** When the call started, in ms since the epoch. */
  startedAt: number;
  latencyMs: number;
  /** The trace context of the request that made the call: its span becomes the parent of the tool call's span. */
  parent?: Context;
  /** The call's arguments, with the request's credentials already scrubbed: on the span only when content recording is on. */
  arguments?: unknown;
  /** The tool's result or error text, scrubbed likewise: on the span only when content recording is on. */
  result?: unknown;
}

/** Hook of the MCP interceptor and the Responses tool loop: one tool call, ended. */
export interface ToolObserver {
  toolCalled(call: ToolCallRecord): void;
  /** Adds the `traceparent` of `parent` (the MCP request's span) to the headers of a request to a tool server. */
  injectTraceContext(headers: Record<string, string>, parent: Context | undefined): void;
}
