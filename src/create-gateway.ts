// createGateway(): wires storage, secrets, plugins and routers into one gateway object.
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AdminKeyring } from './admin/admin-auth.js';
import { adminMetadataRouter } from './admin/admin-metadata-router.js';
import { adminRouter } from './admin/admin-router.js';
import { createAdminServices } from './admin/admin-services.js';
import { repairOrphans } from './admin/orphan-repair.js';
import { builtinPlugins } from './builtin-plugins.js';
import { chroniclesAdminRouter } from './chronicles/chronicles-admin-router.js';
import { ChroniclesRecorder } from './chronicles/chronicles-recorder.js';
import { chronicleWatcher, chroniclesRecorderRouter } from './chronicles/chronicles-recorder-router.js';
import { RequestsInFlight } from './chronicles/requests-in-flight.js';
import { KnownSecrets } from './chronicles/known-secrets.js';
import { consoleRouter } from './console/console-router.js';
import { Errors } from './errors/error-registry.js';
import { checkBaseUrl } from './http/public-base-url.js';
import type { Gateway, GatewayOptions } from './gateway-options.js';
import { GuardrailEngine } from './guardrails/guardrail-engine.js';
import { healthRouter } from './health/health-router.js';
import { Readiness } from './health/readiness.js';
import { guardrailRouter } from './guardrails/guardrail-router.js';
import { guardrailPipelineRouter, guardrailPolicyHandler } from './guardrails/pipeline/guardrail-pipeline-router.js';
import { streamWindowingOf } from './guardrails/pipeline/output-guard.js';
import { messagesRouter } from './messages/messages-router.js';
import { countTokensHandler } from './messages/count-tokens-handler.js';
import { ModelCatalog } from './models/model-catalog.js';
import { modelsRouter } from './models/models-router.js';
import { mcpAdminRouter } from './mcp/mcp-admin-router.js';
import { mcpProxyRouter } from './mcp/mcp-proxy-router.js';
import { resolveLimits, resolveToolListMaxAge } from './mcp/upstream-body.js';
import { RegistryService } from './mcp/registry-service.js';
import { McpSessionIds } from './mcp/session-ids.js';
import { PluginRegistry } from './plugins/plugin-registry.js';
import { OutboundUrlGuard } from './http/outbound-url-guard.js';
import { ApprovalIds } from './responses/approval-ids.js';
import { RedisResponseStore } from './responses/redis-response-store.js';
import { ResponseStore } from './responses/response-store.js';
import { RESPONSES_PATH, responsesRouter } from './responses/responses-router.js';
import type { GatewayPlugin } from './plugins/plugin-types.js';
import { createSecretBox } from './secrets/secret-box.js';
import { memoryStorage } from './storage/memory-storage.js';
import type { StorageAdapter } from './storage/storage-adapter.js';
import { Storage } from './storage/storage-facade.js';
import { ProviderDirectory } from './traffic/provider-directory.js';
import { modelPipelineDispatcher } from './traffic/model-pipeline-dispatcher.js';
import { proxyHandler, proxyRouter } from './traffic/proxy-router.js';
import { rateLimitHandler, rateLimiterRouter } from './traffic/rate-limiter-router.js';
import { DEFAULT_RETRY_TIMING } from './traffic/retry-policy.js';
import { MemoryRouteRateLimits } from './traffic/route-rate-limits.js';
import { RedisRouteRateLimits } from './traffic/redis-rate-limiter.js';
import { createRedisClient } from './redis/redis-client.js';
import { createMissCoalescer, createResponseCacheStore } from './cache/create-cache-store.js';
import { responseCacheHandler, responseCacheRouter } from './cache/response-cache-handler.js';
import { routeResolverHandlers, routeResolverRouter } from './traffic/route-resolver-router.js';
import { UpstreamClient } from './traffic/upstream-client.js';
import { createObservability, secretScrubbingLogger } from './observability/create-observability.js';
import { metricsRouter } from './observability/metrics-router.js';
import { requestObserver } from './observability/request-observer.js';
import type { ChronicleEntry } from './chronicles/chronicle-entry.js';
import type { ModelRequestContext } from './traffic/model-request-context.js';
import { usageAdminRouter } from './usage/usage-admin-router.js';
import { UsageService } from './usage/usage-service.js';

function resolveStorage(option: GatewayOptions['storage'], plugins: PluginRegistry): StorageAdapter {
  if (option === undefined) return memoryStorage();
  if ('use' in option) {
    const plugin = plugins.get(option.use);
    if (plugin?.kind !== 'storage') throw Errors.configInvalid([`storage.use names ${option.use}, which is not a registered storage plugin`]);
    return plugin.create(option.options as never);
  }
  return option;
}

/**
 * Creates a gateway. Mount `gateway.router` (or single routers) in an Express app and await `gateway.ready`.
 * @example
 * const gateway = createGateway({ storage: fileStorage({ dir: './data' }), adminKeys: [{ key, role: 'super_admin' }] });
 * app.use(gateway.router);
 * await gateway.ready;
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  checkBaseUrl(options.baseUrl);
  const plugins = new PluginRegistry();
  const guardrails = new GuardrailEngine();
  // Every refusal is thrown at once and leaves the name free: the plugin is checked whole (the guardrail's options
  // schema compiled too) before it is recorded; only its setup() runs after.
  const register = (plugin: GatewayPlugin): Promise<void> => {
    plugins.check(plugin);
    const installed = plugin.kind === 'guardrail' ? guardrails.add(plugin) : Promise.resolve();
    plugins.add(plugin);
    return installed;
  };

  const initialPlugins = [...(options.builtins === false ? [] : builtinPlugins({ preloadModels: options.preloadModels })), ...(options.plugins ?? [])];
  const setups = initialPlugins.map((plugin) => register(plugin));
  const storage = new Storage(resolveStorage(options.storage, plugins));
  const box = createSecretBox(options.secret);
  const keyring = new AdminKeyring(options.adminKeys ?? []);
  const services = createAdminServices({ storage, box, guardrails, plugins, now: options.now });

  let isReady = false;
  let startError: string | undefined;
  const ready = Promise.all([storage.init().then(() => repairOrphans(services, options.logger)), ...setups]).then(() => {
    isReady = true;
  });
  ready.catch((error: unknown) => {
    startError = String((error as Error)?.message ?? error);
  });
  /** Set once close() begins: a request that comes later is refused, as it could no longer be logged or counted. */
  let stopped = false;
  const awaitReady: RequestHandler = function awaitGatewayReady(_req, res, next) {
    if (stopped) {
      // Refused before any work (nothing to log, count or bill), so the client or its load balancer retries elsewhere.
      if (!res.headersSent) res.setHeader('connection', 'close');
      next(Errors.notReady(['the gateway is stopping']));
    } else if (isReady) next();
    else ready.then(() => next(), next);
  };
  // Admin keys are scrubbed with the stored secrets: a key pasted into a prompt must not reach a viewer through Chronicles.
  const knownSecrets = new KnownSecrets(storage, box, (options.adminKeys ?? []).map((admin) => admin.key));
  const logger = secretScrubbingLogger(options.logger, knownSecrets, ready, storage);
  let observe: RequestHandler = (_req, _res, next) => next(); // replaced below, before any request can arrive
  const mount = (inner: Router): Router => Router().use((req, res, next) => observe(req, res, next), awaitReady, inner);
  const inner: Router[] = [];
  const part = (router: Router): Router => {
    inner.push(router);
    return mount(router);
  };

  const bodyLimitBytes = options.bodyLimitBytes ?? 1024 * 1024;
  const { maxJsonDepth } = options;
  const recorder = new ChroniclesRecorder(storage, {
    ...options.chronicles,
    now: options.now ? () => options.now!().getTime() : undefined,
    onError: (error) => logger?.error('request log entries could not be written; they are kept for the next flush', { error: error.message }),
    onDrop: (total, since) => logger?.warn('request log entries were dropped: the buffer is full while storage fails', { dropped: since, total }),
  }, {
    secrets: () => knownSecrets.current(),
    // Entries are written only while their application exists, unchanged since they began (see the delete handler).
    owner: async (application) => {
      const key = services.applications.key(application);
      const record = await storage.getCached<{ created_at?: string; deleting_at?: string }>(key);
      if (!record || record.deleting_at !== undefined) return undefined;
      return { guard: { key, equals: { created_at: record.created_at ?? null, deleting_at: null } }, since: record.created_at ?? '' };
    },
  });
  services.applicationDeletedHooks.push((application) => recorder.forget(application));
  // One coalescer for every cache step (the model pipeline, /v1/messages, the router), so their misses meet; the metrics read its gauges.
  const cacheCoalescer = createMissCoalescer(options);
  const observability = createObservability(options, logger, recorder, knownSecrets, cacheCoalescer);
  const observer = observability.metrics || observability.tracing ? observability : undefined;
  guardrails.observer = observer;
  observe = requestObserver(observability);
  const redis = options.redis ? createRedisClient(options.redis, logger) : undefined;
  const usage = new UsageService({ storage, redis, redisOptions: options.redis, logger, now: options.now, ...options.usage });
  services.applicationDeletedHooks.push((application) => usage.forget(application));
  services.developerKeys.revokedHooks.push((_application, id) => usage.forgetKey(id));
  const meter = (entry: ChronicleEntry, context: ModelRequestContext | undefined): Promise<void> | undefined => usage.meter(entry, context);
  // Model requests and MCP POSTs not yet recorded: close() waits for them, so answers in flight at a stop are logged and counted.
  const inFlight = new RequestsInFlight();
  const registries = new RegistryService(storage, box, services.registries, options.now, resolveToolListMaxAge(options.mcp));
  const admin = part(
    adminRouter({
      services,
      keyring,
      bodyLimitBytes,
      maxJsonDepth,
      logger,
      extensions: [
        chroniclesAdminRouter(services, recorder),
        mcpAdminRouter(registries, options.baseUrl, guardrails),
        adminMetadataRouter(services),
        usageAdminRouter(services, usage, options.now),
      ],
    }),
  );
  const guardrailsRouter = part(guardrailRouter({ services, keyring, maxTextBytes: options.guardrailMaxTextBytes, maxJsonDepth, logger }));
  const chronicles = mount(chroniclesRecorderRouter(recorder, logger, meter, inFlight));
  const directory = new ProviderDirectory(storage, plugins);
  const resolverDeps = { services, directory, bodyLimitBytes: options.modelBodyLimitBytes ?? 20 * 1024 * 1024, uploadLimitBytes: options.uploadLimitBytes, maxJsonDepth, logger, random: options.random };
  const routes = mount(routeResolverRouter(resolverDeps));
  const limits = redis ? new RedisRouteRateLimits(redis, options.redis!, logger) : new MemoryRouteRateLimits();
  services.routeChangedHooks.push((route) => limits.release(route));
  const rateLimiter = mount(rateLimiterRouter(limits, logger, usage.admitHandler()));
  const pipelineDeps = { engine: guardrails, storage, windowing: streamWindowingOf(options.streamWindowing), logger };
  const guardrailPipeline = mount(guardrailPipelineRouter(pipelineDeps));
  const cacheDeps = { store: createResponseCacheStore(options, redis), logger, coalescer: cacheCoalescer, upstreamTimeoutMs: options.upstreamTimeoutMs };
  const responseCache = mount(responseCacheRouter(cacheDeps));
  const client = new UpstreamClient(options.upstream);
  const mcp = part(mcpProxyRouter({ service: registries, developerKeys: services.developerKeys, storage, engine: guardrails, recorder, client, logger, limits: options.mcp, maxJsonDepth, observer, sessionIds: new McpSessionIds(options.secret), inFlight }));
  const proxyDeps = {
    client,
    keys: services.providerKeys,
    timing: { ...DEFAULT_RETRY_TIMING, ...options.retryTiming },
    defaultTimeoutMs: options.upstreamTimeoutMs ?? 60_000,
    random: options.random,
    observer,
  };
  const proxy = mount(proxyRouter(proxyDeps, logger));
  // gateway.router runs those five as one step, first: one map lookup per request finds a model endpoint's steps.
  const modelPipeline = modelPipelineDispatcher(
    {
      before: [observe, awaitReady],
      watch: chronicleWatcher(recorder, logger, meter, inFlight),
      watchOnly: [RESPONSES_PATH],
      resolve: routeResolverHandlers(resolverDeps),
      after: [rateLimitHandler(limits, usage.admitHandler()), guardrailPolicyHandler(pipelineDeps), responseCacheHandler(cacheDeps), proxyHandler(proxyDeps)],
    },
    logger,
  );
  const messages = part(
    messagesRouter({
      ...resolverDeps,
      watch: chronicleWatcher(recorder, logger, meter, inFlight),
      after: [rateLimitHandler(limits, usage.admitHandler()), guardrailPolicyHandler(pipelineDeps), responseCacheHandler(cacheDeps), proxyHandler(proxyDeps)],
      countAfter: [rateLimitHandler(limits, usage.admitHandler()), guardrailPolicyHandler(pipelineDeps), countTokensHandler(proxyDeps)],
    }),
  );
  const models = part(modelsRouter({ services, catalog: new ModelCatalog(storage, plugins), logger }));
  const externalMcp = options.responses?.allowExternalMcpUrls?.length ? new OutboundUrlGuard(options.responses.allowExternalMcpUrls) : undefined;
  const responses = part(
    responsesRouter({
      services,
      directory,
      limits,
      baseUrl: options.baseUrl,
      bodyLimitBytes: options.modelBodyLimitBytes ?? 20 * 1024 * 1024,
      maxJsonDepth,
      logger,
      proxy: proxyDeps,
      sessions: { registries, engine: guardrails, recorder, ownOrigins: [], guard: externalMcp, maxResponseBytes: resolveLimits(options.mcp).maxBytes, observer },
      store: redis ? new RedisResponseStore(redis, { keyPrefix: options.redis?.keyPrefix, connectTimeoutMs: options.redis?.connectTimeoutMs, ...options.responses?.store }) : new ResponseStore(options.responses?.store),
      maxRounds: options.responsesMaxRounds ?? 8,
      secrets: () => knownSecrets.current(),
      approvals: new ApprovalIds(options.secret),
      admit: (res, context) => usage.admit(res, context),
    }),
  );
  const readiness = new Readiness({ started: () => (isReady ? { ok: true } : { ok: false, error: startError }), storage: storage.adapter, redis });
  const health = healthRouter(readiness, logger);
  // gateway.router answers the probes without waiting, then waits for readiness once and runs the inner routers directly.
  const router = Router().use(health, observe, awaitReady, ...inner);
  // A model request is dispatched before the router's own layer walk; anything else goes through the router.
  const layered = router as Router & { handle(req: Request, res: Response, next: NextFunction): void };
  const walkLayers = layered.handle.bind(router);
  layered.handle = function handleGatewayRequest(req: Request, res: Response, next: NextFunction): void {
    // The gateway takes no OPTIONS: they go to the host app (its CORS, or its 404), on every path alike. Inside,
    // Express would answer some paths itself (200, a text/plain list of methods) and 404 or 401 others.
    if (req.method === 'OPTIONS') {
      next();
      return;
    }
    modelPipeline(req, res, (error?: unknown) => {
      if (error === undefined || error === null || error === 'route') walkLayers(req, res, next);
      else if (error === 'router') next();
      else next(error);
    });
  };
  const metrics = metricsRouter(observability.metrics, observability.metrics ? (options.metrics as { bearerToken?: string }).bearerToken : undefined, logger);

  let closed = false;
  return {
    router,
    admin,
    storage,
    plugins,
    guardrails: guardrailsRouter,
    chronicles,
    routes,
    rateLimiter,
    guardrailPipeline,
    responseCache,
    cacheCoalescer,
    proxy,
    mcp,
    responses,
    models,
    messages,
    console: consoleRouter({ ...options.console, logger }),
    metrics,
    metricsRegistry: observability.metrics?.registry,
    recordRejection: (kind, scope, route) => observability.metrics?.recordRejection(kind, scope, route),
    guardrailEngine: guardrails,
    rateLimits: limits,
    services,
    usage,
    ready,
    health,
    readiness,
    drain: () => readiness.drain(),
    register,
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      // From here a new request is refused (503 not_ready), so requests that keep coming cannot hold close() open;
      // the answers in flight finish first: their entries, usage and spend are recorded before the last flush,
      // never into a closed recorder.
      stopped = true;
      await inFlight.idle();
      try {
        // Both write to storage: side by side, a storage that does not answer costs one timeout, not one each.
        const [chronicles] = await Promise.allSettled([recorder.close(), usage.close()]);
        if (chronicles.status === 'rejected') {
          const error = chronicles.reason as Error;
          logger?.error('request log entries could not be written before the gateway stopped; they are lost', { lost: recorder.queued, error: error.message });
          throw error;
        }
      } finally {
        await limits.close();
        await redis?.quit().catch(() => redis.disconnect());
        await client.close();
        await externalMcp?.close();
        await storage.close();
      }
    },
  };
}
