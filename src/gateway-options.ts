// The options of createGateway(), their defaults, and the gateway object it returns.
import type { Router } from 'express';
import type { AdminKeyConfig } from './admin/admin-auth.js';
import type { AdminServices } from './admin/admin-services.js';
import type { GatewayLogger } from './errors/error-middleware.js';
import type { GuardrailEngine } from './guardrails/guardrail-engine.js';
import type { PluginRegistry } from './plugins/plugin-registry.js';
import type { GatewayPlugin } from './plugins/plugin-types.js';
import type { StorageAdapter } from './storage/storage-adapter.js';
import type { Storage } from './storage/storage-facade.js';
import type { ChroniclesOptions } from './chronicles/chronicles-options.js';
import type { StreamWindowing } from './guardrails/pipeline/output-guard.js';
import type { RetryTiming } from './traffic/retry-policy.js';
import type { RouteRateLimits } from './traffic/route-rate-limits.js';
import type { GatewayRedisOptions } from './redis/redis-options.js';
import type { UpstreamClientOptions } from './traffic/upstream-client.js';
import type { McpProxyLimits } from './mcp/upstream-body.js';
import type { ResponseStoreOptions } from './responses/response-store.js';
import type { Readiness } from './health/readiness.js';
import type { ConsoleRouterOptions } from './console/console-router.js';
import type { ObservabilityOptions } from './observability/create-observability.js';
import type { RejectionKind } from './observability/gateway-metrics.js';
import type { Registry } from 'prom-client';
import type { UsageService, UsageServiceOptions } from './usage/usage-service.js';
import type { ResponseCacheOptions } from './cache/response-cache-store.js';
import type { MissCoalescer } from './cache/miss-coalescer.js';

/** Options of /v1/responses. */
export interface ResponsesOptions {
  /**
   * External MCP server URLs an `mcp` tool may name besides the gateway's own registries. Default none.
   * Entries: `*` (any http/https URL), or `scheme://host[:port][/path]` where the host may start with `*.`
   * (any subdomain) and the port may be `*`. Whatever matches, loopback, private, CGNAT, link-local
   * (cloud metadata), unique-local and other non-public addresses are refused, after DNS resolution and
   * on every redirect, unless an entry names that IP address literally (e.g. `http://10.0.0.5:8080`).
   */
  allowExternalMcpUrls?: string[];
  /** Limits of the store behind `previous_response_id`. Defaults: 64 MB in all, 16 MB per response, one hour. */
  store?: ResponseStoreOptions;
}

/** Options of {@link createGateway}. */
export interface GatewayOptions extends ObservabilityOptions {
  /** A storage adapter, or the name of a registered storage plugin with its options. Default: `memoryStorage()`. */
  storage?: StorageAdapter | { use: string; options?: unknown };
  /** Admin keys with their roles; the admin API refuses every request when none is configured. */
  adminKeys?: AdminKeyConfig[];
  /** The secret for encryption at rest (GATEWAY_SECRET). Without it, provider keys and tokens are stored in clear. */
  secret?: string;
  /** The public base URL (GATEWAY_BASE_URL), used for generated URLs such as MCP registry request URLs. */
  baseUrl?: string;
  /** Plugins registered at start, after the built-ins. */
  plugins?: GatewayPlugin[];
  /** Register the built-in guardrail processors and provider adapters. Default true. */
  builtins?: boolean;
  /** Load the lang_detector, promptinjectiondetection and toolinjectiondetection models (about 2 MB each) at start instead of on their first use. Default false. */
  preloadModels?: boolean;
  /** Largest JSON body accepted, in bytes. Default 1 MB. */
  bodyLimitBytes?: number;
  /** Largest text the standalone guardrail endpoint evaluates, in UTF-8 bytes. Default 1 MB. */
  guardrailMaxTextBytes?: number;
  /** Deepest nesting of objects and arrays accepted in a JSON request body; deeper is 400 `json_too_deep`, checked before parsing. Default 64. */
  maxJsonDepth?: number;
  /** Largest model request body (chat, completions, embeddings), in bytes. Default 20 MB. */
  modelBodyLimitBytes?: number;
  /** Largest audio file of a transcription upload (multipart, spooled to a temporary file), in bytes. Default 25 MB. */
  uploadLimitBytes?: number;
  /** Per-attempt upstream timeout when a route sets no `config.settings.timeout_ms`, in ms. Default 60000. */
  upstreamTimeoutMs?: number;
  /** Backoff between retries. Defaults: base 200 ms doubling, at most 5 s; a Retry-After over 10 s is not waited for. */
  retryTiming?: Partial<RetryTiming>;
  /** Upstream connection pool settings. */
  upstream?: UpstreamClientOptions;
  /** Redis shared by several replicas: route rate limits count across all of them, and the response store behind `previous_response_id` is shared (see README "Redis"). Without it, both are per process. */
  redis?: GatewayRedisOptions;
  /** The response cache of routes with `config.cache`: in process (bounded by bytes), or in Redis when `redis` is set. Defaults: 32 MiB, 1 MiB per answer. */
  cache?: ResponseCacheOptions;
  /** Output checks on streams: hold this many new characters, and check a window of this many. Default 200 and 1000. */
  streamWindowing?: StreamWindowing;
  /** The request log: batching, field cap and retention. Defaults: 200 ms batches, 32 KB per field, 10,000 entries per application, no age limit. */
  chronicles?: Omit<ChroniclesOptions, 'now'>;
  /** Limits of the MCP proxy on tool-server answers. Defaults: 30 s body timeout, 10 MiB per answer or stream event. */
  mcp?: McpProxyLimits;
  /** Model calls one /v1/responses request may make in its tool loop. Default 8. */
  responsesMaxRounds?: number;
  /** /v1/responses: which MCP servers its tools may reach, and the store behind `previous_response_id`. */
  responses?: ResponsesOptions;
  /** The admin console (`gateway.console`): where its built assets are. Default: the package's `console/dist`. */
  console?: Omit<ConsoleRouterOptions, 'logger'>;
  /** Usage totals, budgets and per-minute limits: how often totals are written, and hooks for metrics. */
  usage?: Pick<UsageServiceOptions, 'flushIntervalMs' | 'onBudgetAlert' | 'onRejection'>;
  /** Random source for weighted choice and backoff jitter; injectable for tests. */
  random?: () => number;
  /** Where unexpected errors are reported. Default: none. Secrets are never passed to it. */
  logger?: GatewayLogger;
  /** The clock, injectable for tests. */
  now?: () => Date;
}

/** What {@link createGateway} returns: routers to mount, and the gateway's parts. */
export interface Gateway {
  /** Every router below, in order. Mount it at the application root. */
  router: Router;
  /** The admin API under /v1/admin. */
  admin: Router;
  /** The storage facade. */
  storage: Storage;
  /** Registered plugins. */
  plugins: PluginRegistry;
  /** The Chronicles recorder: one request log entry per model request with a developer key (mount before `routes`). */
  chronicles: Router;
  /** The route resolver: developer key, body, route and candidate providers for the model endpoints. */
  routes: Router;
  /** The per-route rate limiter, then budgets and per-minute limits of the application and developer key (needs `routes` before it). */
  rateLimiter: Router;
  /** The guardrail pipeline: input checks before the provider call, output checks armed for the proxy (needs `routes` before it). */
  guardrailPipeline: Router;
  /** The response cache step for routes with `config.cache` (mount after `guardrailPipeline`, before `proxy`). */
  responseCache: Router;
  /** The response cache's miss coalescer (`keys` in flight, followers `waiting`), in this process; undefined with `cache.coalescing: false`. */
  cacheCoalescer?: MissCoalescer;
  /** The retry/fallback proxy that calls providers (needs `routes` before it). */
  proxy: Router;
  /** POST /v1/responses: the Responses API, with the MCP tool loop run by the gateway. */
  responses: Router;
  /** POST /v1/messages: Anthropic's Messages API (JSON and streams) over every route and provider, with the same policies and request log. */
  messages: Router;
  /** GET /v1/models and /v1/models/:id: the models and routes a developer key may name, in OpenAI's list shape. */
  models: Router;
  /** GET /metrics (Prometheus text format), when `metrics` is enabled; not part of `router`: mount it where metrics should be served. */
  metrics: Router;
  /** The prom-client registry behind `metrics`, when enabled. */
  metricsRegistry?: Registry;
  /**
   * Counts a request refused by a rate limit or a budget (`gateway_rate_limit_rejections_total`, `gateway_budget_rejections_total`).
   * Answered `rate_limit_exceeded` and `budget_exceeded` errors are counted already; this is for refusals answered another way.
   */
  recordRejection(kind: RejectionKind, scope: string, route?: string): void;
  /** The MCP registry proxy at /v1/mcp/:name (Streamable HTTP). */
  mcp: Router;
  /** The admin console at /console (opt-in: not part of `router`; mount it on its own). Static files; data comes from the admin API. */
  console: Router;
  /** The standalone guardrail endpoint, POST /v1/guardrail/:processor/apply. */
  guardrails: Router;
  /** Registered guardrail processors. */
  guardrailEngine: GuardrailEngine;
  /** The per-route rate limiters (`size`: how many are live). */
  rateLimits: RouteRateLimits;
  /** The stores behind the admin API. */
  services: AdminServices;
  /** Prices, usage totals, budget spend and per-minute limits of applications and developer keys. */
  usage: UsageService;
  /** Settles once storage is loaded and every plugin is set up; rejects with the start-up error. */
  ready: Promise<void>;
  /** GET /healthz (liveness, no I/O) and GET /readyz (storage, plugins, Redis, draining); first in `router`, never waits for start-up. */
  health: Router;
  /** What /readyz reports; `readiness.check()` runs the checks. */
  readiness: Readiness;
  /** Turns /readyz to 503 `not_ready` for good, so a load balancer stops sending traffic; call it on SIGTERM before closing the server. */
  drain(): void;
  /**
   * Registers a plugin. Throws `plugin_duplicate`, `plugin_dependency_missing` or `plugin_invalid` at once;
   * the promise settles when the plugin's `setup()` has run.
   */
  register(plugin: GatewayPlugin): Promise<void>;
  /** Stops timers and flushes pending writes, then closes storage. */
  close(): Promise<void>;
}
