// OpenTelemetry spans through @opentelemetry/api only: a no-op until the host registers an SDK, and then a few object allocations per request.
import { isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { Request } from 'express';
import { requestRecordOf, type RequestTrace } from './request-record.js';

export type { RequestTrace } from './request-record.js';

/** Options of the traces (`tracing` in the gateway options). */
export interface GatewayTracingOptions {
  /** Record prompts and answers on spans (`gen_ai.input.messages`, `gen_ai.output.messages`), cut to `maxContentBytes`. Default false. */
  recordContent?: boolean;
  /** The longest prompt or answer recorded on a span, in UTF-8 bytes. Default 16 KB. */
  maxContentBytes?: number;
  /** The instrumentation scope name. Default `gateway-service`. */
  tracerName?: string;
}

/** The request's span and context, when a tracer is live. */
export function requestTraceOf(req: Request): RequestTrace | undefined {
  return requestRecordOf(req)?.trace;
}

/** The trace id of the request's span, when a tracer is live. */
export function traceIdOf(req: Request): string | undefined {
  return requestTraceOf(req)?.span.spanContext().traceId;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3 || Buffer.byteLength(text) <= maxBytes) return text;
  return Buffer.from(text).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

/** The options of every request span (one object, not one per request). */
const SERVER_SPAN: SpanOptions = Object.freeze({ kind: SpanKind.SERVER });
/** The options of every attempt span. */
const CLIENT_SPAN: SpanOptions = Object.freeze({ kind: SpanKind.CLIENT });

/** The tracer of one gateway, with the span shapes it makes. */
export class GatewayTracing {
  private readonly tracer: Tracer;
  readonly recordContent: boolean;
  readonly maxContentBytes: number;

  constructor(options: GatewayTracingOptions = {}) {
    this.tracer = trace.getTracer(options.tracerName ?? 'gateway-service');
    this.recordContent = options.recordContent === true;
    this.maxContentBytes = options.maxContentBytes ?? 16 * 1024;
  }

  /**
   * Starts the SERVER span of a gateway request, as a child of the client's trace context when its headers carry one
   * (read by the registered propagator: `traceparent` and `tracestate` with the SDK's default; a client's `baggage`
   * is dropped, so it never goes upstream). `path` is
   * `req.path` when the caller has read it already (each read of a request property has a cost: see RequestRecord).
   * Returns undefined when no SDK is registered (the span has no valid context): the request then runs untraced.
   * The caller keeps the trace in the request's record; children name it as their parent explicitly, so the gateway
   * never switches the active context (which would turn on the context manager's async hooks for every promise).
   */
  startRequest(req: Request, path: string | undefined, nameOf: (method: string, path: string) => string): RequestTrace | undefined {
    const extracted = propagation.extract(ROOT_CONTEXT, req.headers);
    // The client's baggage is its own: it is not passed on to providers and tool servers, only the trace context is.
    const parent = propagation.getBaggage(extracted) === undefined ? extracted : propagation.deleteBaggage(extracted);
    const method = req.method;
    const requestPath = path ?? req.path;
    // Named at its start, so a sampler sees the name its backend will show.
    const span = this.tracer.startSpan(nameOf(method, requestPath), SERVER_SPAN, parent);
    if (span.isRecording()) {
      span.setAttributes({ 'http.request.method': method, 'url.path': cutToBytes(requestPath, 256) });
    } else if (!isSpanContextValid(span.spanContext())) {
      // Without an SDK this is where it ends: no attributes are made. (A recording span's context is valid.)
      return undefined;
    }
    return { span, context: trace.setSpan(parent, span) };
  }

  /**
   * Starts the CLIENT span of an upstream attempt under the request span in `parent`, sets `attributes` on it, and
   * writes its `traceparent` into `headers`. When the request span does not record (sampled out), no attempt span is
   * made: the request span's own context goes upstream, which carries the same trace id and the same "not sampled"
   * decision that the attempt span's would, and the SDK's work for a span nobody exports is saved.
   */
  startAttempt(parent: Context, name: string, attributes: Readonly<Record<string, string>>, headers: Record<string, string>): Span | undefined {
    if (trace.getSpan(parent)?.isRecording() !== true) {
      propagation.inject(parent, headers);
      return undefined;
    }
    // Attributes are set after the start rather than passed to it: the SDK copies start attributes twice for its sampler.
    const span = this.tracer.startSpan(name, CLIENT_SPAN, parent);
    span.setAttributes(attributes);
    propagation.inject(trace.setSpan(parent, span), headers);
    return span;
  }

  /** Starts a child span of `parent` at `startTime` (a guardrail check's or a tool call's span, made once its real times are known). */
  startChild(parent: Context, name: string, kind: SpanKind, attributes: Record<string, string | number | boolean>, startTime: number): Span {
    return this.tracer.startSpan(name, { kind, attributes, startTime }, parent);
  }

  /** Writes the `traceparent` of `parent` (a request span's context) into `headers`. */
  static inject(parent: Context, headers: Record<string, string>): void {
    propagation.inject(parent, headers);
  }

  /** Ends a span, marking it an error with `errorType` when given. */
  static end(span: Span, errorType?: string, endTime?: number): void {
    if (errorType) {
      span.setAttribute('error.type', errorType);
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(endTime);
  }
}
