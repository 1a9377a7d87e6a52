// GET /healthz (liveness, no I/O) and GET /readyz (readiness: storage, plugins, Redis, draining), for orchestrators' probes.
import { Router } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { CheckResult, Readiness } from './readiness.js';

/** The liveness path: answers 200 while the process serves HTTP. */
export const HEALTHZ_PATH = '/healthz';
/** The readiness path: 200 when the gateway can serve traffic, else 503 with the reason. */
export const READYZ_PATH = '/readyz';

/** The checks as a probe answers them: whether each passed and which kind of failure, without the failure's own text. */
function publicChecks(checks: Record<string, CheckResult>): Record<string, CheckResult> {
  return Object.fromEntries(Object.entries(checks).map(([name, { ok, error }]) => [name, error === undefined ? { ok } : { ok, error }]));
}

/**
 * Creates the probe router. Neither probe needs a key: they disclose no configuration, only which check failed and how
 * (failed, or no answer in time); a failure's own text, which may name internal hosts, is only in the log line.
 * `/readyz` answers 503 `not_ready` in the gateway's error shape, with each check under `error.checks`. A failed
 * probe is an error line in `logger`, except an expected 503: while storage and plugins are still loading at start
 * (and every other check passes), and while draining, the first such probe writes one info line, the others none.
 * @example
 * app.use(healthRouter(readiness));
 */
export function healthRouter(readiness: Readiness, logger?: GatewayLogger): Router {
  const router = Router();
  router.get(HEALTHZ_PATH, function liveness(_req, res) {
    res.setHeader('cache-control', 'no-store');
    res.json({ status: 'ok' });
  });
  /** The expected states already logged: one info line each, not an error line per probe. */
  const logged = new Set<'starting' | 'draining'>();
  router.get(READYZ_PATH, async function readinessProbe(req, res) {
    res.setHeader('cache-control', 'no-store');
    const report = await readiness.check();
    if (!report.ready) {
      // A starting or draining gateway answers 503 on purpose, to every probe until it is ready or stops.
      const state = readiness.draining ? 'draining' : report.starting ? 'starting' : undefined;
      if (state && !logged.has(state)) {
        logged.add(state);
        const why = state === 'draining' ? 'the gateway is draining before it stops' : (report.reason ?? 'the gateway is starting');
        logger?.info(`readiness probes answer 503: ${why}`, { path: (req.originalUrl.split('?')[0] ?? '').slice(0, 256) });
      }
      // The checks' own error text (a host, a port, a driver's message) goes to the log line only: the probe needs no key.
      const detail = Object.entries(report.checks)
        .filter(([, check]) => check.detail !== undefined)
        .map(([name, check]) => `${name}: ${check.detail}`)
        .join('; ');
      throw Errors.notReady([report.reason ?? 'unknown'], {
        details: { checks: publicChecks(report.checks) },
        expected: state !== undefined,
        ...(detail ? { cause: new Error(detail) } : {}),
      });
    }
    res.json({ status: 'ready', checks: publicChecks(report.checks) });
  });
  router.use([HEALTHZ_PATH, READYZ_PATH], errorMiddleware(logger));
  return router;
}
