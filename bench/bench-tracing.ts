// The benchmark gateway's tracing (BENCH_OBSERVABILITY): the Node SDK with a batch processor and an exporter that drops spans, so the cost measured is the gateway's and the SDK's, not a network export; or a bare tracer, to tell the two apart.
import { propagation, trace, TraceFlags, type Span, type SpanContext, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * Registers a NodeTracerProvider whose exporter discards every batch. `contextManager`: as the example server registers
 * it (`none`: the gateway passes parents explicitly), or the SDK's default AsyncLocalStorage one (`default`), whose
 * async hooks run on every promise once the batch processor's first export has called `context.with`. With
 * `hooksOnly` (the gateway's tracing off), that call is made at once, so what is measured is those hooks alone. With
 * `simple`, a SimpleSpanProcessor hands each span to the exporter as it ends instead of keeping a batch.
 */
export async function registerDiscardingTracer(contextManager: 'none' | 'default', hooksOnly = false, simple = false): Promise<void> {
  const { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-node');
  const exporter: SpanExporter = {
    export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
    shutdown: () => Promise.resolve(),
  };
  new NodeTracerProvider({ spanProcessors: [simple ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)] }).register(contextManager === 'none' ? { contextManager: null } : {});
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
