// The rate limiter router: refuses requests past a route's settings.rate_limit with 429 and Retry-After, at once.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { ENDPOINT_PATHS } from './model-endpoints.js';
import { modelContextOf } from './model-request-context.js';
import { reservoirFor, type RouteRateLimits } from './route-rate-limits.js';

/** Creates the rate limiter router; it acts on requests the route resolver has resolved. */
export function rateLimiterRouter(limits: RouteRateLimits, logger?: GatewayLogger): Router {
  const limit: RequestHandler = async function limitRouteRate(req, _res, next) {
    const context = modelContextOf(req);
    const rate = context?.route?.config.settings.rate_limit ?? 0;
    if (!context || rate <= 0) {
      next();
      return;
    }
    if (await limits.take(context.routeName, rate)) {
      next();
      return;
    }
    const retryAfter = String(Math.ceil(reservoirFor(rate).intervalMs / 1000));
    throw Errors.rateLimited([context.routeName, rate, retryAfter], { headers: { 'retry-after': retryAfter } });
  };
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), limit);
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(logger));
  return router;
}
