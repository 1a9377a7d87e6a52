// The model endpoints as one dispatch step: the recorder, resolver, rate limiter, guardrail and proxy steps run in one handler per endpoint.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { handlerSequence } from '../http/handler-sequence.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { ENDPOINT_PATHS, endpointPathKey } from './model-endpoints.js';

/** The steps of a model request, in the order the separate routers run them when mounted one after another. */
export interface ModelPipelineSteps {
  /** Steps every model request runs first, before the Chronicles watcher (request id and span, readiness). */
  before?: RequestHandler[];
  /** The Chronicles watcher; it also watches `watchOnly` paths (the Responses endpoint) and passes them on. */
  watch: RequestHandler;
  watchOnly: string[];
  /** The route resolver's steps per endpoint (key, body, route). */
  resolve: Record<ModelEndpoint, RequestHandler[]>;
  /** The steps after resolution: rate limiter, guardrail pipeline, proxy. */
  after: RequestHandler[];
}

/** Runs `handler`, then the error middleware for an error it passes on, then `next`. */
function withErrors(handler: RequestHandler, errors: ErrorRequestHandler): RequestHandler {
  return function runModelEndpoint(req: Request, res: Response, next: NextFunction): void {
    handler(req, res, (error?: unknown) => {
      if (error === undefined || error === null || error === 'route' || error === 'router') next(error as undefined);
      else errors(error, req, res, next);
    });
  };
}

/**
 * Creates the step `gateway.router` uses for the model endpoints. It behaves as the recorder, resolver, rate
 * limiter, guardrail pipeline and proxy routers mounted in that order (which stay exported for those who mount them
 * one by one). A POST to a model path is found by one map lookup, rather than by matching a router layer per path
 * and per step; any other request goes on at once.
 */
export function modelPipelineDispatcher(steps: ModelPipelineSteps, logger?: GatewayLogger): RequestHandler {
  const errors = errorMiddleware(logger);
  const before = steps.before ?? [];
  const byPath = new Map<string, RequestHandler>();
  for (const endpoint of Object.keys(ENDPOINT_PATHS) as ModelEndpoint[]) {
    byPath.set(endpointPathKey(ENDPOINT_PATHS[endpoint]), withErrors(handlerSequence([...before, steps.watch, ...steps.resolve[endpoint], ...steps.after]), errors));
  }
  // The Responses endpoint is only watched here: its own router answers it, after the steps before.
  for (const path of steps.watchOnly) byPath.set(endpointPathKey(path), handlerSequence([...before, steps.watch]));
  return function dispatchModelRequest(req, res, next) {
    const handler = req.method === 'POST' ? byPath.get(endpointPathKey(req.path)) : undefined;
    if (handler) handler(req, res, next);
    else next();
  };
}
