// Registers the OpenTelemetry Node tracing SDK with an OTLP/HTTP exporter, only when OTEL_EXPORTER_OTLP_ENDPOINT is set (lazy imports: nothing loads otherwise).

/**
 * Starts exporting the gateway's spans when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (the exporter reads the standard
 * OTEL_EXPORTER_OTLP_* variables; spans go to `<endpoint>/v1/traces`). `OTEL_SERVICE_NAME` names the service
 * (default `gateway-service`). Returns a function that flushes and stops it, or undefined when not configured.
 */
export async function startTracingFromEnv(): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'gateway-service' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Installs the W3C trace-context propagator. No context manager: the gateway hands each span its parent itself and
  // never reads the active context, and the default one (AsyncLocalStorage) would run async hooks on every promise of
  // every request once the first batch is exported. A host that adds auto-instrumentation registers the default instead.
  provider.register({ contextManager: null });
  return () => provider.shutdown();
}
