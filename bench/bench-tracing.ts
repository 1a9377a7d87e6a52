// The benchmark gateway's tracing SDK (BENCH_OBSERVABILITY=on): the Node SDK with a batch processor and an exporter that drops spans, so the cost measured is the gateway's and the SDK's, not a network export.
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
