// The standalone gateway server (`npm start`): file storage or PostgreSQL (GATEWAY_DATABASE_URL), Redis for shared rate limits (GATEWAY_REDIS_URL), environment configuration, graceful shutdown.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createExpressServer, createGateway, createPinoLogger, errorMiddleware, fileStorage, notFoundHandler, pinoGatewayLogger, postgresStorage, type GatewayPlugin } from '../src/index.js';
import { loadPluginModules, pluginModulesFromEnv } from '../src/cli/plugin-modules.js';
import { adminKeysFromEnv } from './admin-keys-from-env.js';
import { applyHeapGrowing, heapGrowingPercent } from './heap-growth.js';
import { loopbackUrl } from './loopback-url.js';
import { startTracingFromEnv } from './otel-tracing.js';
import { seedFromConfig } from './seed-from-config.js';
import { drainMillis, listenPort, logLevel, stopTimeoutMillis } from './server-settings.js';

// JSON lines on standard output; LOG_LEVEL sets the lowest level (default info), GATEWAY_LOG_REQUESTS=false drops the per-request lines.
let level = 'info';
let levelError: string | undefined;
try {
  level = logLevel(process.env.LOG_LEVEL);
} catch (error) {
  levelError = (error as Error).message;
}
const logger = pinoGatewayLogger(createPinoLogger({ level }));
if (levelError) {
  logger.error(levelError);
  process.exit(1);
}
const stopTracing = await startTracingFromEnv();
const metricsToken = process.env.GATEWAY_METRICS_TOKEN;

let port: number;
// On SIGTERM /readyz turns 503 at once; GATEWAY_DRAIN_SECONDS (default 0) gives load balancers time to notice before the server stops accepting.
let drainMs: number;
// After the drain, closing (answers in flight, the last flush, storage and Redis) has GATEWAY_STOP_TIMEOUT_SECONDS (default 20) before the process exits anyway.
let stopTimeoutMs: number;
try {
  port = listenPort(process.env.PORT);
  drainMs = drainMillis(process.env.GATEWAY_DRAIN_SECONDS);
  stopTimeoutMs = stopTimeoutMillis(process.env.GATEWAY_STOP_TIMEOUT_SECONDS);
} catch (error) {
  logger.error((error as Error).message);
  process.exit(1);
}
const host = process.env.HOST || '127.0.0.1';
const dataDir = process.env.GATEWAY_DATA_DIR ?? './data';
const databaseUrl = process.env.GATEWAY_DATABASE_URL;
const redisUrl = process.env.GATEWAY_REDIS_URL;
const redisKeyPrefix = process.env.GATEWAY_REDIS_KEY_PREFIX;
const chroniclesMaxPending = process.env.GATEWAY_CHRONICLES_MAX_PENDING === undefined ? undefined : Number(process.env.GATEWAY_CHRONICLES_MAX_PENDING);
if (chroniclesMaxPending !== undefined && !(Number.isSafeInteger(chroniclesMaxPending) && chroniclesMaxPending > 0)) {
  logger.error('GATEWAY_CHRONICLES_MAX_PENDING must be a positive integer');
  process.exit(1);
}
try {
  applyHeapGrowing(heapGrowingPercent(process.env.GATEWAY_HEAP_GROWING_PERCENT));
} catch (error) {
  logger.error((error as Error).message);
  process.exit(1);
}
const storageName = databaseUrl ? 'postgres' : 'file';
let adminKey = process.env.GATEWAY_ADMIN_KEY;
if (!adminKey) {
  adminKey = `gwa_${randomBytes(24).toString('base64url')}`;
  // Printed once, on purpose: it is the only way to learn a generated key. Set GATEWAY_ADMIN_KEY to keep one across restarts.
  console.log(`GATEWAY_ADMIN_KEY was not set; this run's super_admin key is: ${adminKey}`);
}
if (!process.env.GATEWAY_SECRET) logger.warn('GATEWAY_SECRET is not set: provider keys and tokens are stored without encryption');

let plugins: GatewayPlugin[];
try {
  plugins = await loadPluginModules(pluginModulesFromEnv(process.env.GATEWAY_PLUGINS), process.cwd());
} catch (error) {
  logger.error('GATEWAY_PLUGINS could not be loaded', { error: (error as Error).message });
  process.exit(1);
}

let gateway: ReturnType<typeof createGateway>;
try {
  gateway = createGateway({
    plugins,
    storage: databaseUrl
      ? postgresStorage({ connectionString: databaseUrl, schema: process.env.GATEWAY_DATABASE_SCHEMA })
      : fileStorage({ dir: dataDir }),
    adminKeys: [{ key: adminKey, role: 'super_admin', name: 'server-admin' }, ...adminKeysFromEnv()],
    secret: process.env.GATEWAY_SECRET,
    baseUrl: process.env.GATEWAY_BASE_URL,
    redis: redisUrl ? { url: redisUrl, keyPrefix: redisKeyPrefix } : undefined,
    chronicles: { maxPending: chroniclesMaxPending },
    logger,
    logRequests: process.env.GATEWAY_LOG_REQUESTS !== 'false',
    // GET /metrics: on with GATEWAY_METRICS_TOKEN (required as a bearer token), or open with GATEWAY_METRICS=true.
    metrics: metricsToken ? { bearerToken: metricsToken } : process.env.GATEWAY_METRICS === 'true' ? {} : undefined,
  });
} catch (error) {
  // An option the environment set wrong (a short admin or metrics key, …): one line naming it, no stack trace.
  logger.error('the gateway could not start', { error: (error as Error).message });
  process.exit(1);
}

try {
  await gateway.ready;
} catch (error) {
  logger.error('the gateway could not start', { error: (error as Error).message });
  process.exit(1);
}

let stopping = false;
/** Answers under way: at a stop, those whose headers are not sent yet are told to close their connection. */
const underWay = new Set<ServerResponse>();
/** The `close` listener of every answer under way: one function, no closure per request. */
function forgetAnswer(this: ServerResponse): void {
  underWay.delete(this);
}
const app = express();
app.disable('x-powered-by');
// From the stop on, every answer closes its connection: a kept-alive connection (a load balancer's pool) must not
// carry further requests into a gateway that is closing. Its client reconnects, finds the port closed (a refused
// connection, which is safe to retry: nothing was sent) and goes to another replica.
app.use(function closeConnectionsWhileStopping(_req, res, next) {
  if (stopping) res.setHeader('connection', 'close');
  else {
    underWay.add(res);
    res.once('close', forgetAnswer);
  }
  next();
});
app.use(gateway.console); // the admin console at /console: static files, every datum behind an admin key
app.use(gateway.metrics);
app.use(gateway.router);
app.use(notFoundHandler);
app.use(errorMiddleware(logger));

/** The GATEWAY_CONFIG seed under way: a stop waits for it, so a SIGTERM never leaves an item created without its policy. */
let seeding: Promise<unknown> = Promise.resolve();

// createExpressServer rather than app.listen: requests are born with the app's prototypes (35–40% less CPU per request).
const server = createExpressServer(app).listen(port, host, () => {
  logger.info('gateway listening', { host, port: (server.address() as AddressInfo).port, storage: storageName, ...(databaseUrl ? {} : { dataDir }), redis: Boolean(redisUrl) });
  const configFile = process.env.GATEWAY_CONFIG;
  if (configFile) {
    // /readyz answers 503 until the file's routes, keys and policies exist, so no traffic arrives before them.
    const seeded = seedFromConfig(configFile, loopbackUrl(server.address() as AddressInfo), adminKey, (line) => logger.info(line));
    seeding = seeded;
    gateway.readiness.waitFor('config', seeded);
    seeded.catch((error: Error) => {
      logger.error('GATEWAY_CONFIG could not be applied', { error: error.message });
      process.exitCode = 1;
      shutdown('seed-failure');
    });
  }
});

// A port taken or not allowed: one line naming the address, then the gateway is closed (storage flushed) and the process exits 1.
server.on('error', (error: NodeJS.ErrnoException) => {
  logger.error('the server could not listen', { host, port, code: error.code, error: error.message });
  process.exitCode = 1;
  shutdown('listen-failure');
});

function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  for (const res of underWay) if (!res.headersSent) res.setHeader('connection', 'close');
  underWay.clear();
  gateway.drain();
  logger.info('shutting down', { signal, drainMs });
  if (drainMs > 0 && signal !== 'seed-failure' && signal !== 'listen-failure') setTimeout(() => stop(), drainMs);
  else stop();
}
function stop(): void {
  // A dependency that hangs (storage, Redis) must not keep the process past its termination grace period: what is
  // still unwritten then is lost, and said so in the log.
  setTimeout(() => {
    logger.error('shutdown did not finish in time: exiting without waiting further', { stopTimeoutMs });
    process.exit(1);
  }, stopTimeoutMs).unref();
  // The seed's own admin requests come over this server: let it finish (or undo what it created) before closing.
  seeding
    .catch(() => undefined)
    .then(() => {
      server.close();
      server.closeIdleConnections();
      // A connection busy at the stop goes idle when its answer ends (that answer was sent before the stop, without
      // `Connection: close`): close it then, before its client sends another request on it.
      const idleCloser = setInterval(() => server.closeIdleConnections(), 25);
      idleCloser.unref();
      server.once('close', () => clearInterval(idleCloser));
      // Waits for the model requests in flight, so their answers are logged and counted, then flushes.
      return gateway.close();
    })
    .then(() => stopTracing?.())
    .then(() => process.exit())
    .catch((error: Error) => {
      logger.error('shutdown failed', { error: error.message });
      process.exit(1);
    });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
