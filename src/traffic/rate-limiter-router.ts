// The rate limiter router: refuses requests past a route's settings.rate_limit with 429 and Retry-After, at once; then, given, the budgets step.
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { ENDPOINT_PATHS } from './model-endpoints.js';
import { modelContextOf } from './model-request-context.js';
import { reservoirFor, UNCOUNTED_SLOT, type RouteRateLimits, type RouteSlot } from './route-rate-limits.js';

/** Takes one slot of the route's budget, or throws 429 with Retry-After. A rate of 0 is unlimited (a slot that counts nothing). */
export async function enforceRouteRate(limits: RouteRateLimits, routeName: string, rate: number): Promise<RouteSlot> {
  if (rate <= 0) return UNCOUNTED_SLOT;
  const slot = await limits.take(routeName, rate);
  if (slot) return slot;
  const retryAfter = String(Math.ceil(reservoirFor(rate).intervalMs / 1000));
  throw Errors.rateLimited([routeName, rate, retryAfter], { headers: { 'retry-after': retryAfter } });
}

/**
 * Takes a slot of the route's budget (429 when it is spent), then runs `admit` (the budgets and per-minute limits); a
 * request `admit` refuses gives its slot back, so a refused request never uses the route's rate.
 * @example
 * await admitOnRoute(limits, context.routeName, rate, () => usage.admit(res, context));
 */
export async function admitOnRoute(limits: RouteRateLimits, routeName: string, rate: number, admit: () => Promise<void> | void): Promise<void> {
  const slot = await enforceRouteRate(limits, routeName, rate);
  try {
    await admit();
  } catch (error) {
    slot.release();
    throw error;
  }
}

/** Runs an Express step as a promise: resolved by `next()`, rejected by `next(error)` or a throw. */
function runStep(step: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    try {
      void step(req, res, (error?: unknown) => (error === undefined || error === null ? resolve() : reject(error)));
    } catch (error) {
      reject(error);
    }
  });
}

/**
 * The rate limiter router's step: takes a slot of the resolved route's budget, or throws 429; then `admit`, when
 * given (the budgets and per-minute limits step), whose refusal gives the slot back (see {@link admitOnRoute}).
 */
export function rateLimitHandler(limits: RouteRateLimits, admit?: RequestHandler): RequestHandler {
  return function limitRouteRate(req, res, next) {
    const context = modelContextOf(req);
    const rate = context?.route?.config.settings.rate_limit ?? 0;
    // Most routes have no rate: they pass without a promise.
    if (!context || rate <= 0) {
      if (admit) admit(req, res, next);
      else next();
      return;
    }
    admitOnRoute(limits, context.routeName, rate, admit ? () => runStep(admit, req, res) : () => undefined).then(() => next(), next);
  };
}

/**
 * Creates the rate limiter router; it acts on requests the route resolver has resolved. `admit`, when given, runs
 * after the route's rate limit: the gateway passes its budgets and per-minute limits step, as `gateway.router` runs it.
 */
export function rateLimiterRouter(limits: RouteRateLimits, logger?: GatewayLogger, admit?: RequestHandler): Router {
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), rateLimitHandler(limits, admit));
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(logger));
  return router;
}
