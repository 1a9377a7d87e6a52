// The rate limiter router: refuses requests past a route's settings.rate_limit with 429 and Retry-After, at once; then, given, the budgets step.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { ENDPOINT_PATHS } from './model-endpoints.js';
import { modelContextOf } from './model-request-context.js';
import { reservoirFor, type RouteRateLimits } from './route-rate-limits.js';

/** Takes one slot of the route's budget, or throws 429 with Retry-After. A rate of 0 is unlimited. */
export async function enforceRouteRate(limits: RouteRateLimits, routeName: string, rate: number): Promise<void> {
  if (rate <= 0 || (await limits.take(routeName, rate))) return;
  const retryAfter = String(Math.ceil(reservoirFor(rate).intervalMs / 1000));
  throw Errors.rateLimited([routeName, rate, retryAfter], { headers: { 'retry-after': retryAfter } });
}

/** The rate limiter router's step: takes a slot of the resolved route's budget, or throws 429. */
export function rateLimitHandler(limits: RouteRateLimits): RequestHandler {
  return function limitRouteRate(req, _res, next) {
    const context = modelContextOf(req);
    const rate = context?.route?.config.settings.rate_limit ?? 0;
    // Most routes have no rate: they pass without a promise.
    if (!context || rate <= 0) {
      next();
      return;
    }
    enforceRouteRate(limits, context.routeName, rate).then(() => next(), next);
  };
}

/**
 * Creates the rate limiter router; it acts on requests the route resolver has resolved. `admit`, when given, runs
 * after the route's rate limit: the gateway passes its budgets and per-minute limits step, as `gateway.router` runs it.
 */
export function rateLimiterRouter(limits: RouteRateLimits, logger?: GatewayLogger, admit?: RequestHandler): Router {
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), admit ? [rateLimitHandler(limits), admit] : rateLimitHandler(limits));
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(logger));
  return router;
}
