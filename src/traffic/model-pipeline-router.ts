// The model endpoints as one router: the recorder, resolver, rate limiter, guardrail and proxy steps run in one handler per endpoint.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { handlerSequence } from '../http/handler-sequence.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { ENDPOINT_PATHS } from './model-endpoints.js';

/** The steps of a model request, in the order the separate routers run them when mounted one after another. */
export interface ModelPipelineSteps {
  /** The Chronicles watcher; it also watches `watchOnly` paths (the Responses endpoint) and passes them on. */
  watch: RequestHandler;
  watchOnly: string[];
  /** The route resolver's steps per endpoint (key, body, route). */
  resolve: Record<ModelEndpoint, RequestHandler[]>;
  /** The steps after resolution: rate limiter, guardrail pipeline, proxy. */
  after: RequestHandler[];
}

/**
 * Creates the router `gateway.router` uses for the model endpoints. It behaves as the recorder, resolver,
 * rate limiter, guardrail pipeline and proxy routers mounted in that order (which stay exported for those who
 * mount them one by one), with one route layer per endpoint instead of a router per step.
 */
export function modelPipelineRouter(steps: ModelPipelineSteps, logger?: GatewayLogger): Router {
  const router = Router();
  // The error handler sits on each route rather than `use`d under the paths, which would cut req.path to `/` for the request log.
  const errors = errorMiddleware(logger);
  for (const endpoint of Object.keys(ENDPOINT_PATHS) as ModelEndpoint[]) {
    router.post(ENDPOINT_PATHS[endpoint], handlerSequence([steps.watch, ...steps.resolve[endpoint], ...steps.after]), errors);
  }
  if (steps.watchOnly.length > 0) router.post(steps.watchOnly, steps.watch);
  return router;
}
