// The gateway's Prometheus metrics (prom-client): one registry per gateway, series cached per label set so recording is an addition.
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { CallLabels } from './call-labels.js';
import { LabelCap, OTHER } from './metric-labels.js';
import { SeriesCounter, SeriesHistogram, type CounterSeries, type HistogramSeries } from './metric-series.js';

/** Options of the metrics (`metrics` in the gateway options). */
export interface GatewayMetricsOptions {
  /** Also export Node's default process metrics (CPU, memory, event loop lag, GC). Default true. */
  defaultMetrics?: boolean;
  /**
   * A bearer token that `GET /metrics` requires (`Authorization: Bearer <token>`), at least 16 characters.
   * Without it, the endpoint answers anyone who can reach it: mount it on an internal port then.
   */
  bearerToken?: string;
  /** Distinct values each free-ish label (route, model, tool, ...) may take before new ones read as `other`. Default 200. */
  maxLabelValues?: number;
}

/** Where the Chronicles gauges read from. */
export interface ChroniclesGaugeSource {
  /** Entries waiting to be written. */
  queued: number;
  /** Entries dropped so far because the buffer was full. */
  dropped: number;
}

/** Where the response cache's miss-coalescing gauges read from (the gateway's MissCoalescer). */
export interface CoalescingGaugeSource {
  /** Keys whose miss is in flight, each with a leader upstream. */
  readonly keys: number;
  /** Followers waiting for a leader's answer, over all keys. */
  readonly waiting: number;
}

/** Why an upstream attempt ended (`ok`, or what failed): a fixed vocabulary. */
export type AttemptCause = 'ok' | 'http_429' | 'http_4xx' | 'http_5xx' | 'timeout' | 'network' | 'invalid_response' | 'aborted' | 'stream_error';

/** What a guardrail check decided. */
export type GuardrailAction = 'pass' | 'flag' | 'reject' | 'error';

/** How an MCP tool call ended. */
export type ToolCallOutcome = 'ok' | 'error' | 'blocked';

/** Which limit refused a request. */
export type RejectionKind = 'rate_limit' | 'budget';

/** The series the calls of one {@link CallLabels} record into, found once and kept with them. */
interface CallSeries {
  /** The metrics' reset count when found: after a reset they are found again. */
  generation: number;
  provider: string;
  model: string;
  providerType: string;
  /** Operation duration and attempt count, by cause. */
  attempts: Map<AttemptCause, [HistogramSeries, CounterSeries]>;
  tokens: [input: HistogramSeries, output: HistogramSeries] | undefined;
  firstToken: HistogramSeries | undefined;
  /** Request count and duration, by endpoint label and then HTTP status. */
  requests: Map<string, Map<number, [CounterSeries, HistogramSeries]>>;
}

const SCOPES = new Set(['route', 'key', 'application', 'model']);
/** The `status` label of each HTTP status, made once. */
const STATUS_LABELS: string[] = [];

const histogram = (registry: Registry, name: string, help: string, labelNames: string[], buckets: number[]): SeriesHistogram => new SeriesHistogram(registry, name, help, labelNames, buckets);
const counter = (registry: Registry, name: string, help: string, labelNames: string[]): SeriesCounter => new SeriesCounter(registry, name, help, labelNames);

// Bucket boundaries: the GenAI semantic conventions' advice where one exists.
const OPERATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const GUARDRAIL_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The metrics of one gateway, in a registry of its own (two gateways in one process never clash).
 * Label values are names an admin configured, capped per label; callers pass `other` or `none` for anything else.
 * The gauges (Chronicles queue, miss coalescing) are read from their sources when scraped, never on a request's path;
 * without a `coalescing` source (coalescing off) its gauges read 0.
 * @example
 * const metrics = new GatewayMetrics({}, { queued: 0, dropped: 0 });
 * metrics.recordRejection('budget', 'application');
 * const text = await metrics.registry.metrics();
 */
export class GatewayMetrics {
  /** The prom-client registry behind `GET /metrics`. */
  readonly registry = new Registry();
  private readonly caps = new Map<string, LabelCap>();
  private readonly maxLabelValues: number;
  private readonly requests: SeriesCounter;
  private readonly requestSeconds: SeriesHistogram;
  private readonly operationSeconds: SeriesHistogram;
  private readonly tokens: SeriesHistogram;
  private readonly firstToken: SeriesHistogram;
  private readonly attempts: SeriesCounter;
  private readonly retries: SeriesCounter;
  private readonly fallbacks: SeriesCounter;
  private readonly rateLimited: SeriesCounter;
  private readonly overBudget: SeriesCounter;
  private readonly decisions: SeriesCounter;
  private readonly processorSeconds: SeriesHistogram;
  private readonly toolCalls: SeriesCounter;
  private readonly toolSeconds: SeriesHistogram;
  private readonly cacheLookups: SeriesCounter;
  private readonly calls = new WeakMap<CallLabels, CallSeries>();

  constructor(options: GatewayMetricsOptions, chronicles: ChroniclesGaugeSource, coalescing?: CoalescingGaugeSource) {
    const r = this.registry;
    this.maxLabelValues = options.maxLabelValues ?? 200;
    const model = ['endpoint', 'route', 'provider', 'model', 'status'];
    this.requests = counter(r, 'gateway_requests_total', 'Model requests answered, by endpoint, route, provider, model and HTTP status.', model);
    this.requestSeconds = histogram(r, 'gateway_request_duration_seconds', 'Time from a model request to the end of its answer, in seconds.', model, REQUEST_BUCKETS);
    const genAi = ['gen_ai_operation_name', 'gen_ai_provider_name', 'gen_ai_request_model'];
    this.operationSeconds = histogram(r, 'gen_ai_client_operation_duration_seconds', 'Duration of each upstream model call (one per attempt), in seconds.', [...genAi, 'provider', 'error_type'], OPERATION_BUCKETS);
    this.tokens = histogram(r, 'gen_ai_client_token_usage', 'Tokens used per model request, by token type (input, output).', [...genAi, 'gen_ai_token_type'], TOKEN_BUCKETS);
    this.firstToken = histogram(r, 'gen_ai_server_time_to_first_token_seconds', 'Time from a streamed request to the first chunk from the provider, in seconds.', genAi, TTFT_BUCKETS);
    this.attempts = counter(r, 'gateway_upstream_attempts_total', 'Upstream attempts, by provider, model and cause (ok or what failed).', ['provider', 'model', 'cause']);
    this.retries = counter(r, 'gateway_upstream_retries_total', 'Retries of a failed attempt on the same provider, by cause.', ['provider', 'model', 'cause']);
    this.fallbacks = counter(r, 'gateway_upstream_fallbacks_total', 'Moves to the next model of a route after a failure, by route, provider left and cause.', ['route', 'provider', 'cause']);
    this.rateLimited = counter(r, 'gateway_rate_limit_rejections_total', 'Requests refused by a rate limit (429), by route and scope.', ['route', 'scope']);
    this.overBudget = counter(r, 'gateway_budget_rejections_total', 'Requests refused by a budget (429 budget_exceeded), by route and scope.', ['route', 'scope']);
    this.decisions = counter(r, 'gateway_guardrail_decisions_total', 'Guardrail checks, by processor, phase and action (pass, flag, reject, error).', ['processor', 'phase', 'action']);
    this.processorSeconds = histogram(r, 'gateway_guardrail_processor_duration_seconds', 'Time one guardrail processor took on one check, in seconds.', ['processor', 'phase'], GUARDRAIL_BUCKETS);
    this.toolCalls = counter(r, 'gateway_mcp_tool_calls_total', 'MCP tool calls through a registry, by registry, tool and outcome (ok, error, blocked).', ['registry', 'tool', 'outcome']);
    this.toolSeconds = histogram(r, 'gateway_mcp_tool_call_duration_seconds', 'Time from an MCP tool call to its answer, in seconds.', ['registry', 'outcome'], OPERATION_BUCKETS);
    this.cacheLookups = counter(r, 'gateway_cache_lookups_total', 'Model requests on routes with a response cache, by route and result (hit, miss).', ['route', 'result']);
    new Gauge({
      name: 'gateway_chronicles_queue_depth',
      help: 'Request log entries waiting to be written, the batch being written included.',
      registers: [r],
      collect() {
        this.set(chronicles.queued);
      },
    });
    new Counter({
      name: 'gateway_chronicles_dropped_total',
      help: 'Request log entries dropped because the buffer was full while storage failed.',
      registers: [r],
      collect() {
        this.reset();
        this.inc(chronicles.dropped);
      },
    });
    new Gauge({
      name: 'gateway_cache_coalescing_keys',
      help: 'Response cache keys whose miss is in flight in this process, each with a leader upstream that followers may wait on.',
      registers: [r],
      collect() {
        this.set(coalescing?.keys ?? 0);
      },
    });
    new Gauge({
      name: 'gateway_cache_coalescing_waiting',
      help: 'Requests in this process waiting for the answer of a miss in flight on the same response cache key.',
      registers: [r],
      collect() {
        this.set(coalescing?.waiting ?? 0);
      },
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: r });
  }

  /** The value under the per-label cap (`other` past it). */
  private capped(label: string, value: string): string {
    let cap = this.caps.get(label);
    if (!cap) {
      cap = new LabelCap(this.maxLabelValues);
      this.caps.set(label, cap);
    }
    return cap.value(value);
  }

  /** The metrics' reset count (prom-client's `registry.resetMetrics()` resets each). */
  private generation(): number {
    return this.requests.generation + this.requestSeconds.generation + this.operationSeconds.generation + this.tokens.generation + this.firstToken.generation + this.attempts.generation;
  }

  /** The series of calls with these labels, capped once. */
  private callSeries(labels: CallLabels): CallSeries {
    const generation = this.generation();
    let found = this.calls.get(labels);
    if (!found || found.generation !== generation) {
      found = {
        generation,
        provider: this.capped('provider', labels.provider.name),
        model: this.capped('model', labels.model),
        providerType: this.capped('provider_type', labels.providerType),
        attempts: new Map(),
        tokens: undefined,
        firstToken: undefined,
        requests: new Map(),
      };
      this.calls.set(labels, found);
    }
    return found;
  }

  /** One upstream attempt of a call with these labels (as {@link attempt}). */
  callAttempt(labels: CallLabels, cause: AttemptCause, seconds: number): void {
    const series = this.callSeries(labels);
    let pair = series.attempts.get(cause);
    if (!pair) {
      pair = [this.operationSeconds.at(labels.operation, series.providerType, series.model, series.provider, cause === 'ok' ? '' : cause), this.attempts.at(series.provider, series.model, cause)];
      series.attempts.set(cause, pair);
    }
    pair[0].observe(seconds);
    pair[1].inc();
  }

  /** Token usage of a request answered by a call with these labels (as {@link usage}). */
  callUsage(labels: CallLabels, input: number | undefined, output: number | undefined): void {
    // No usage (a failed request, speech): no empty series either.
    if (input === undefined && output === undefined) return;
    const series = this.callSeries(labels);
    const tokens = (series.tokens ??= [this.tokens.at(labels.operation, series.providerType, series.model, 'input'), this.tokens.at(labels.operation, series.providerType, series.model, 'output')]);
    if (input !== undefined) tokens[0].observe(input);
    if (output !== undefined) tokens[1].observe(output);
  }

  /** Time to the first streamed chunk of a call with these labels (as {@link timeToFirstToken}). */
  callTimeToFirstToken(labels: CallLabels, seconds: number): void {
    const series = this.callSeries(labels);
    (series.firstToken ??= this.firstToken.at(labels.operation, series.providerType, series.model)).observe(seconds);
  }

  /** One answered model request whose last attempt was a call with these labels (as {@link request}). */
  callRequest(labels: CallLabels, endpoint: string, status: number, seconds: number): void {
    const series = this.callSeries(labels);
    let byStatus = series.requests.get(endpoint);
    if (!byStatus) {
      byStatus = new Map();
      series.requests.set(endpoint, byStatus);
    }
    let pair = byStatus.get(status);
    if (!pair) {
      const code = status >= 100 && status < 600 ? String(status) : OTHER;
      const route = this.capped('route', labels.route);
      pair = [this.requests.at(endpoint, route, series.provider, series.model, code), this.requestSeconds.at(endpoint, route, series.provider, series.model, code)];
      // Statuses outside 100-599 all read `other`: keep only the real ones.
      if (code !== OTHER) byStatus.set(status, pair);
    }
    pair[0].inc();
    pair[1].observe(seconds);
  }

  /** One answered model request. */
  request(endpoint: string, route: string, provider: string, model: string, status: number, seconds: number): void {
    const code = status >= 100 && status < 600 ? (STATUS_LABELS[status] ??= String(status)) : OTHER;
    const r = this.capped('route', route);
    const p = this.capped('provider', provider);
    const m = this.capped('model', model);
    this.requests.at(endpoint, r, p, m, code).inc();
    this.requestSeconds.at(endpoint, r, p, m, code).observe(seconds);
  }

  /** One upstream attempt (`gen_ai.client.operation.duration`, and the attempt count by cause). */
  attempt(operation: string, providerType: string, provider: string, model: string, cause: AttemptCause, seconds: number): void {
    const p = this.capped('provider', provider);
    const m = this.capped('model', model);
    this.operationSeconds.at(operation, this.capped('provider_type', providerType), m, p, cause === 'ok' ? '' : cause).observe(seconds);
    this.attempts.at(p, m, cause).inc();
  }

  /** Token usage of one model request. */
  usage(operation: string, providerType: string, model: string, input: number | undefined, output: number | undefined): void {
    const t = this.capped('provider_type', providerType);
    const m = this.capped('model', model);
    if (input !== undefined) this.tokens.at(operation, t, m, 'input').observe(input);
    if (output !== undefined) this.tokens.at(operation, t, m, 'output').observe(output);
  }

  /** Time to the first streamed chunk. */
  timeToFirstToken(operation: string, providerType: string, model: string, seconds: number): void {
    this.firstToken.at(operation, this.capped('provider_type', providerType), this.capped('model', model)).observe(seconds);
  }

  /** A retry on the same provider after a failure. */
  retry(provider: string, model: string, cause: AttemptCause): void {
    this.retries.at(this.capped('provider', provider), this.capped('model', model), cause).inc();
  }

  /** A fallback from `provider` to the route's next model. */
  fallback(route: string, provider: string, cause: AttemptCause): void {
    this.fallbacks.at(this.capped('route', route), this.capped('provider', provider), cause).inc();
  }

  /**
   * Counts a request refused by a rate limit or a budget. The gateway calls it for every answered
   * `rate_limit_exceeded` and `budget_exceeded` error; call it for refusals answered another way.
   * @param scope what the limit applies to: `route`, `key`, `application` or `model` (anything else reads `other`).
   */
  recordRejection(kind: RejectionKind, scope: string, route = 'none'): void {
    const s = SCOPES.has(scope) ? scope : OTHER;
    (kind === 'budget' ? this.overBudget : this.rateLimited).at(this.capped('route', route), s).inc();
  }

  /** A request on a route with a response cache, answered from it (`hit`) or not (`miss`). */
  cacheLookup(route: string, result: 'hit' | 'miss'): void {
    this.cacheLookups.at(this.capped('route', route), result).inc();
  }

  /** One guardrail check. */
  guardrail(processor: string, phase: string, action: GuardrailAction, seconds: number): void {
    const p = this.capped('processor', processor);
    this.decisions.at(p, phase, action).inc();
    this.processorSeconds.at(p, phase).observe(seconds);
  }

  /** One MCP tool call; `tool` is `other` unless the registry knows the tool. */
  toolCall(registry: string, tool: string, outcome: ToolCallOutcome, seconds: number): void {
    const r = this.capped('registry', registry);
    this.toolCalls.at(r, this.capped('tool', tool), outcome).inc();
    this.toolSeconds.at(r, outcome).observe(seconds);
  }
}
