// OpenTelemetry spans through @opentelemetry/api only: a no-op until the host registers an SDK, and then a few object allocations per request.
import { context as otelContext, isSpanContextValid, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { Request } from 'express';

/** Options of the traces (`tracing` in the gateway options). */
export interface GatewayTracingOptions {
  /** Record prompts and answers on spans (`gen_ai.input.messages`, `gen_ai.output.messages`), cut to `maxContentBytes`. Default false. */
  recordContent?: boolean;
  /** The longest prompt or answer recorded on a span, in UTF-8 bytes. Default 16 KB. */
  maxContentBytes?: number;
  /** The instrumentation scope name. Default `gateway-service`. */
  tracerName?: string;
}

const TRACE_ID = Symbol('gateway.trace-id');

/** The trace id of the request's span, when a tracer is live. */
export function traceIdOf(req: Request): string | undefined {
  return (req as Request & { [TRACE_ID]?: string })[TRACE_ID];
}

/** A request span and the context to run the rest of the request in. */
export interface RequestTrace {
  span: Span;
  context: Context;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3 || Buffer.byteLength(text) <= maxBytes) return text;
  return Buffer.from(text).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

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
   * Starts the SERVER span of a gateway request, as a child of the client's `traceparent` when one came.
   * Returns undefined when no SDK is registered (the span has no valid context): the request then runs untraced.
   */
  startRequest(req: Request, nameOf: (req: Request) => string): RequestTrace | undefined {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = this.tracer.startSpan('request', { kind: SpanKind.SERVER }, parent);
    const spanContext = span.spanContext();
    if (!isSpanContextValid(spanContext)) return undefined;
    (req as Request & { [TRACE_ID]?: string })[TRACE_ID] = spanContext.traceId;
    if (span.isRecording()) {
      span.updateName(nameOf(req));
      span.setAttributes({ 'http.request.method': req.method, 'url.path': cutToBytes(req.path, 256) });
    }
    return { span, context: trace.setSpan(parent, span) };
  }

  /** Runs `next` inside the request's context, so spans made further down become its children. */
  runIn(requestTrace: RequestTrace, next: () => void): void {
    otelContext.with(requestTrace.context, next);
  }

  /**
   * Starts a child span of the active context, and writes its `traceparent` into `headers` when given.
   * Returns undefined when no SDK is registered.
   */
  startChild(name: string, kind: SpanKind, attributes: Record<string, string | number | boolean>, headers?: Record<string, string>, startTime?: number): Span | undefined {
    const active = otelContext.active();
    const span = this.tracer.startSpan(name, { kind, attributes, startTime }, active);
    if (!isSpanContextValid(span.spanContext())) return undefined;
    if (headers) propagation.inject(trace.setSpan(active, span), headers);
    return span;
  }

  /** Writes the active context's `traceparent` (the request span's, inside a traced request) into `headers`. */
  injectActive(headers: Record<string, string>): void {
    propagation.inject(otelContext.active(), headers);
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
