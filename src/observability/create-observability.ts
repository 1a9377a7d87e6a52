// Builds one gateway's observability from its options: metrics (opt-in), tracing (on; a no-op without an SDK), and the secret-scrubbing logger.
import type { ChroniclesRecorder } from '../chronicles/chronicles-recorder.js';
import type { KnownSecrets } from '../chronicles/known-secrets.js';
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { Storage } from '../storage/storage-facade.js';
import { scrubbingLogger } from './gateway-logger.js';
import { GatewayMetrics, type CoalescingGaugeSource, type GatewayMetricsOptions } from './gateway-metrics.js';
import { GatewayObservability } from './gateway-observability.js';
import { GatewayTracing, type GatewayTracingOptions } from './gateway-tracing.js';

/** The observability options of createGateway(). */
export interface ObservabilityOptions {
  /** Prometheus metrics, served by `gateway.metrics` at GET /metrics. Off unless given (`true` or options). */
  metrics?: boolean | GatewayMetricsOptions;
  /** OpenTelemetry spans through @opentelemetry/api: a no-op until the host registers an SDK. Default on; `false` turns them off. */
  tracing?: boolean | GatewayTracingOptions;
  /** Log one line per answered request (request id, method, path, status, duration, route, provider, model, trace id). Default false. */
  logRequests?: boolean;
}

/**
 * The host's logger, wrapped so no line carries a configured admin key, a stored provider key or registry token (the
 * set loaded once the gateway is ready, refreshed as they change) or a key-shaped value. Undefined without a logger.
 */
export function secretScrubbingLogger(logger: GatewayLogger | undefined, known: KnownSecrets, ready: Promise<void>, storage: Storage): GatewayLogger | undefined {
  if (!logger) return undefined;
  let snapshot: readonly string[] = known.configured;
  let live = false;
  // Until a load succeeds, each line tries again; after that, only a change of a stored key or token reloads.
  let stale = true;
  const refresh = (): void => {
    stale = false;
    known.current().then(
      (secrets) => void (snapshot = secrets),
      () => void (stale = true),
    );
  };
  ready.then(() => {
    live = true;
    refresh();
  }, () => undefined);
  // A stored key or token changed, here or on another replica: load the new set now.
  storage.onWrite((key) => {
    if (live && (key === undefined || key.startsWith('provider-keys/') || key.startsWith('mcp-registries/'))) refresh();
  });
  return scrubbingLogger(logger, () => {
    if (live && stale) refresh();
    return snapshot;
  });
}

/**
 * The observability of one gateway; `known` gives the secrets scrubbed from the prompts and answers spans record, and
 * `coalescing` the response cache's miss coalescer its gauges read (absent: coalescing is off).
 */
export function createObservability(options: ObservabilityOptions, logger: GatewayLogger | undefined, recorder: ChroniclesRecorder, known?: KnownSecrets, coalescing?: CoalescingGaugeSource): GatewayObservability {
  const metricsOptions = options.metrics === true ? {} : options.metrics || undefined;
  const metrics = metricsOptions
    ? new GatewayMetrics(metricsOptions, {
        get queued() {
          return recorder.queued;
        },
        get dropped() {
          return recorder.dropped;
        },
      }, coalescing)
    : undefined;
  const tracing = options.tracing === false ? undefined : new GatewayTracing(options.tracing === true ? {} : options.tracing);
  return new GatewayObservability(metrics, tracing, logger, options.logRequests === true, known ? () => known.current() : undefined);
}
