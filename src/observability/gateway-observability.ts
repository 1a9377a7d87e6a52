// One gateway's observability: its metrics (when enabled), its tracer and its logger, behind the hooks the proxy, guardrails and MCP proxy call.
import { SpanKind, trace, type Attributes, type Context } from '@opentelemetry/api';
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { GuardrailCheck } from '../guardrails/pipeline/check-runner.js';
import { scrubSecretShapes } from '../secrets/secret-shapes.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';
import type { Candidate, ModelRequestContext } from '../traffic/model-request-context.js';
import { CallLabelCache, type CallLabels } from './call-labels.js';
import { GatewayMetrics, type AttemptCause, type GuardrailAction } from './gateway-metrics.js';
import { cutToBytes, GatewayTracing } from './gateway-tracing.js';
import { configuredModel, OTHER } from './metric-labels.js';
import type { GuardrailObserver } from './guardrail-observer.js';
import type { AttemptEnd, AttemptWatch, ProxyObserver, ToolCallRecord, ToolObserver } from './observer-types.js';
import { usageOf, type RequestUsage } from './usage-of.js';

/** The longest tool name or server label a tool span or metric label carries, in UTF-8 bytes. */
const MAX_TOOL_NAME_BYTES = 128;

/** The cause label of an attempt's end. */
export function causeOf(end: AttemptEnd): AttemptCause {
  switch (end.kind) {
    case 'ok':
      return end.streamError ? 'stream_error' : 'ok';
    case 'status':
      return end.status === 429 ? 'http_429' : end.status >= 500 ? 'http_5xx' : 'http_4xx';
    default:
      return end.kind;
  }
}

/** What a check decided: error, reject, flag (flagged without blocking) or pass. */
export function actionOf(check: GuardrailCheck): GuardrailAction {
  if (check.error !== undefined) return 'error';
  if (check.request_reject) return 'reject';
  return check.triggered.length > 0 ? 'flag' : 'pass';
}

/** Adds a call's usage to span attributes (`gen_ai.response.model`, `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`). */
export function usageAttributes(usage: RequestUsage, attributes: Attributes): void {
  if (usage.responseModel) attributes['gen_ai.response.model'] = usage.responseModel;
  if (usage.input !== undefined) attributes['gen_ai.usage.input_tokens'] = usage.input;
  if (usage.output !== undefined) attributes['gen_ai.usage.output_tokens'] = usage.output;
}

/** Metrics, tracer and logger of one gateway, and the hooks fed to its parts. */
export class GatewayObservability implements ProxyObserver, GuardrailObserver, ToolObserver {
  /** When each check started (`performance.now()`), for its span at the end of the request. */
  private readonly checkStarts = new WeakMap<GuardrailCheck, number>();
  private readonly callLabels = new CallLabelCache();

  constructor(
    /** Undefined when metrics are off. */
    readonly metrics: GatewayMetrics | undefined,
    /** Undefined when tracing is off. */
    readonly tracing: GatewayTracing | undefined,
    readonly logger: GatewayLogger | undefined,
    /** Log one line per request answered. */
    readonly logRequests: boolean,
    /** The stored and configured secrets, scrubbed from the prompts and answers spans record (`recordContent`). */
    readonly knownSecrets: () => Promise<readonly string[]> = async () => [],
  ) {}

  /** True when any per-request work is needed besides the request id. */
  get active(): boolean {
    return this.metrics !== undefined || this.tracing !== undefined || this.logRequests;
  }

  /** The labels, span name and gen_ai attributes of a call for `context` to `candidate` (kept per configured model). */
  labelsOf(context: ModelRequestContext, candidate: Candidate): CallLabels {
    return this.callLabels.of(context, candidate);
  }

  attemptStarted(context: ModelRequestContext, candidate: Candidate, headers: Record<string, string>): AttemptWatch {
    const started = performance.now();
    const labels = this.callLabels.of(context, candidate);
    const span = context.trace && this.tracing?.startAttempt(context.trace, labels.spanName, labels.attributes, headers);
    const metrics = this.metrics;
    return {
      end(outcome) {
        const cause = causeOf(outcome);
        metrics?.callAttempt(labels, cause, (performance.now() - started) / 1000);
        if (!span) return;
        const attributes: Attributes = {};
        if (outcome.status !== undefined) attributes['http.response.status_code'] = outcome.status;
        if (outcome.kind === 'ok') usageAttributes(usageOf(context), attributes);
        span.setAttributes(attributes);
        GatewayTracing.end(span, cause === 'ok' ? undefined : cause);
      },
    };
  }

  retried(candidate: Candidate, failure: AttemptEnd): void {
    this.metrics?.retry(candidate.provider.name, configuredModel(candidate) ?? OTHER, causeOf(failure));
  }

  fellBack(context: ModelRequestContext, candidate: Candidate, failure: AttemptEnd): void {
    this.metrics?.fallback(context.routeName, candidate.provider.name, causeOf(failure));
  }

  checked(check: GuardrailCheck, startedAt: number): void {
    this.metrics?.guardrail(check.processor, check.phase, actionOf(check), check.latency_ms / 1000);
    // The span is made when the request ends, under its request span (see checkSpans).
    if (this.tracing) this.checkStarts.set(check, startedAt);
  }

  /** Makes the guardrail spans of a finished request: one per check it ran, children of `parent`, with their real times. */
  checkSpans(parent: Context, checks: readonly GuardrailCheck[]): void {
    for (const check of checks) {
      const startedAt = this.checkStarts.get(check);
      if (startedAt === undefined) continue;
      const start = performance.timeOrigin + startedAt;
      const action = actionOf(check);
      const attributes = { 'gateway.guardrail.processor': check.processor, 'gateway.guardrail.phase': check.phase, 'gateway.guardrail.action': action };
      const span = this.tracing!.startChild(parent, `guardrail ${check.processor}`, SpanKind.INTERNAL, attributes, start);
      GatewayTracing.end(span, check.error === undefined ? undefined : 'guardrail_error', start + check.latency_ms);
    }
  }

  injectTraceContext(headers: Record<string, string>, parent: Context | undefined): void {
    if (parent) GatewayTracing.inject(parent, headers);
  }

  /**
   * Counts a tool call made through a registry (`gateway_mcp_tool_calls_total`), and makes its `execute_tool` span,
   * a child of the request that made it, with its real start and end. Arguments and results go on the span only
   * with content recording on.
   */
  toolCalled(call: ToolCallRecord): void {
    // A tool server names its tools, and an external one is the caller's choice: names and labels are cut.
    const tool = call.known ? cutToBytes(call.tool, MAX_TOOL_NAME_BYTES) : OTHER;
    if (call.registry !== undefined) this.metrics?.toolCall(call.registry, tool, call.outcome, call.latencyMs / 1000);
    const tracing = this.tracing;
    // A request that is sampled out gets no tool spans: nothing would export them.
    if (!tracing || !call.parent || trace.getSpan(call.parent)?.isRecording() !== true) return;
    const attributes: Record<string, string> = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'gateway.mcp.outcome': call.outcome };
    if (call.registry !== undefined) attributes['gateway.mcp.registry'] = call.registry;
    if (call.server !== undefined) attributes['gateway.mcp.server_label'] = cutToBytes(call.server, MAX_TOOL_NAME_BYTES);
    const span = tracing.startChild(call.parent, `execute_tool ${tool}`, SpanKind.INTERNAL, attributes, call.startedAt);
    const errorType = call.outcome === 'ok' ? undefined : `tool_${call.outcome}`;
    const endTime = call.startedAt + call.latencyMs;
    if (!tracing.recordContent) {
      GatewayTracing.end(span, errorType, endTime);
      return;
    }
    const args = cutToBytes(contentText(call.arguments), tracing.maxContentBytes);
    const result = cutToBytes(contentText(call.result), tracing.maxContentBytes);
    // The callers scrubbed the call's own credentials; as on the request span, every stored and configured secret (a
    // provider key a tool echoes, another registry's token) and key-shaped text go too. Secrets that cannot be loaded:
    // the span records no content rather than unscrubbed content. It keeps its real end time.
    const finish = (known: readonly string[] | undefined): void => {
      if (known) {
        span.setAttributes({
          'gen_ai.tool.call.arguments': scrubSecretShapes(scrubSecrets(args, known)),
          'gen_ai.tool.call.result': scrubSecretShapes(scrubSecrets(result, known)),
        });
      }
      GatewayTracing.end(span, errorType, endTime);
    };
    this.knownSecrets().then(finish, () => finish(undefined));
  }
}

/** A tool's arguments or result as span text: strings as they are, anything else as JSON. */
function contentText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? null) ?? 'null';
}
