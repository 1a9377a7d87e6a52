// GET /metrics: the gateway's Prometheus metrics in the text format, behind an optional bearer token.
import { timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { GatewayMetrics } from './gateway-metrics.js';

/** The path the metrics router serves. */
export const METRICS_PATH = '/metrics';

/** True when the request carries `Authorization: Bearer <token>` for exactly this token (compared in constant time). */
function bearerMatches(header: string | undefined, token: Buffer): boolean {
  const presented = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
  if (!presented) return false;
  const bytes = Buffer.from(presented);
  return bytes.length === token.length && timingSafeEqual(bytes, token);
}

/**
 * Creates the metrics router (`gateway.metrics`), mounted apart from `gateway.router` so a host chooses where
 * metrics are served. With `bearerToken`, a request without it is refused with 401 `invalid_api_key`.
 * Without metrics enabled, it serves nothing (requests pass on).
 * @example
 * app.use(gateway.metrics); // GET /metrics
 */
export function metricsRouter(metrics: GatewayMetrics | undefined, bearerToken: string | undefined, logger?: GatewayLogger): Router {
  const router = Router();
  if (!metrics) return router;
  if (bearerToken !== undefined && bearerToken.length < 16) throw Errors.configInvalid(['metrics.bearerToken must be at least 16 characters']);
  const token = bearerToken === undefined ? undefined : Buffer.from(bearerToken);
  const serve: RequestHandler = async function serveMetrics(req, res) {
    if (token && !bearerMatches(req.headers.authorization, token)) throw Errors.invalidApiKey(['Authorization']);
    const text = await metrics.registry.metrics();
    res.setHeader('content-type', metrics.registry.contentType);
    res.setHeader('cache-control', 'no-store');
    res.end(text);
  };
  router.get(METRICS_PATH, serve);
  router.use(METRICS_PATH, errorMiddleware(logger));
  return router;
}
