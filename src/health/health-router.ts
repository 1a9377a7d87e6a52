// GET /healthz (liveness, no I/O) and GET /readyz (readiness: storage, plugins, Redis, draining), for orchestrators' probes.
import { Router } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { Readiness } from './readiness.js';

/** The liveness path: answers 200 while the process serves HTTP. */
export const HEALTHZ_PATH = '/healthz';
/** The readiness path: 200 when the gateway can serve traffic, else 503 with the reason. */
export const READYZ_PATH = '/readyz';

/**
 * Creates the probe router. Neither probe needs a key: they disclose no configuration, only which check failed.
 * `/readyz` answers 503 `not_ready` in the gateway's error shape, with each check under `error.checks`.
 * @example
 * app.use(healthRouter(readiness));
 */
export function healthRouter(readiness: Readiness, logger?: GatewayLogger): Router {
  const router = Router();
  router.get(HEALTHZ_PATH, function liveness(_req, res) {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get(READYZ_PATH, async function readinessProbe(_req, res) {
    res.setHeader('cache-control', 'no-store');
    const report = await readiness.check();
    if (!report.ready) throw Errors.notReady([report.reason ?? 'unknown'], { details: { checks: report.checks } });
    res.json({ status: 'ready', checks: report.checks });
  });
  router.use([HEALTHZ_PATH, READYZ_PATH], errorMiddleware(logger));
  return router;
}
