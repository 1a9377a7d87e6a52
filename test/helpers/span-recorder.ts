// Registers the OpenTelemetry Node SDK with an in-memory exporter for one describe block, and finds its finished spans.
import assert from 'node:assert/strict';
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';

/** The finished spans of the current test, and lookups over them. */
export interface SpanRecorder {
  spans(): ReadableSpan[];
  named(name: string): ReadableSpan[];
  /** The one span with this name (fails the test when there are none or several). */
  one(name: string): ReadableSpan;
  parentOf(span: ReadableSpan): string | undefined;
}

/**
 * Call inside a `describe`: registers the SDK before its tests, clears the exporter before each, and
 * unregisters everything after, so other suites run without a tracer.
 */
export function recordSpans(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  let provider: NodeTracerProvider;
  before(() => {
    provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.register();
  });
  after(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });
  beforeEach(() => exporter.reset());
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  const named = (name: string): ReadableSpan[] => spans().filter((span) => span.name === name);
  return {
    spans,
    named,
    one(name) {
      const found = named(name);
      assert.equal(found.length, 1, `one span ${name}; spans: ${spans().map((span) => span.name).join(', ')}`);
      return found[0]!;
    },
    parentOf: (span) => span.parentSpanContext?.spanId,
  };
}
