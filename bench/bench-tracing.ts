// The benchmark gateway's tracing (BENCH_OBSERVABILITY): the Node SDK with a batch processor and an exporter that drops spans, so the cost measured is the gateway's and the SDK's, not a network export; or a bare tracer, to tell the two apart.
import { propagation, trace, TraceFlags, type Span, type SpanContext, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * Registers a NodeTracerProvider whose exporter discards every batch. With `hooksOnly`, the gateway makes no span
 * (its tracing is off); the SDK's context manager is switched on as the batch processor's first export switches it
 * on (a `context.with` call), so what is measured is the process-wide cost of its async hooks alone.
 */
export async function registerDiscardingTracer(hooksOnly = false): Promise<void> {
  const { NodeTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-node');
  const exporter: SpanExporter = {
    export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
    shutdown: () => Promise.resolve(),
  };
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] }).register();
  if (hooksOnly) {
    const { context } = await import('@opentelemetry/api');
    context.with(context.active(), () => undefined);
  }
}

let lastId = 0;
const nextId = (digits: number): string => (++lastId).toString(16).padStart(digits, '0');

/** A span that is valid and recording but keeps nothing: what the gateway does around a span, without an SDK's work. */
class BareSpan implements Span {
  constructor(private readonly context: SpanContext) {}
  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(): this {
    return this;
  }
  setAttributes(): this {
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(): this {
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {}
  isRecording(): boolean {
    return true;
  }
  recordException(): void {}
}

const bareTracer: Tracer = {
  startSpan(_name, _options, parent) {
    const traceId = (parent && trace.getSpanContext(parent)?.traceId) || nextId(32);
    return new BareSpan({ traceId, spanId: nextId(16), traceFlags: TraceFlags.SAMPLED });
  },
  startActiveSpan(): never {
    throw new Error('not used by the gateway');
  },
};

/**
 * Registers a tracer whose spans are valid and recording but do nothing, with the SDK's default propagators (W3C trace
 * context and baggage): the gateway then does all its own tracing work, and none of an SDK's (no span objects kept,
 * no processor, no context manager). BENCH_OBSERVABILITY=bare against `on` tells the gateway's share from the SDK's.
 */
export async function registerBareTracer(): Promise<void> {
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const provider: TracerProvider = { getTracer: () => bareTracer };
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
}
