// The route resolver: authenticates the developer key before reading the body, finds the route and the candidate providers.
import { Router, type RequestHandler } from 'express';
import { requireDeveloperKey } from '../auth/caller-identity.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { jsonBody } from '../http/json-body.js';
import { multipartBody } from '../http/multipart-body.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { asksForStream, ENDPOINT_BODY, ENDPOINT_PATHS } from './model-endpoints.js';
import { resolveModelRequest, type ResolutionDeps } from './model-request-resolution.js';

/** What the resolver needs. */
export interface RouteResolverDeps extends ResolutionDeps {
  bodyLimitBytes: number;
  /** Largest file of a multipart upload (audio transcriptions), in bytes. Default 25 MB. */
  uploadLimitBytes?: number;
  /** Deepest JSON nesting accepted in bodies (default 64). */
  maxJsonDepth?: number;
  logger?: GatewayLogger;
}

function resolver(endpoint: ModelEndpoint, deps: RouteResolverDeps): RequestHandler {
  const validateBody = ENDPOINT_BODY[endpoint];
  const routeTypes = [endpoint];
  return function resolveModelEndpoint(req, res, next) {
    if (req.body === undefined) throw Errors.bodyNotObject();
    const body = validateBody(req.body);
    const resolved = resolveModelRequest(req, res, deps, { endpoint, body, model: body.model, stream: asksForStream(endpoint, body), routeTypes });
    if (resolved instanceof Promise) return resolved.then(() => next());
    next();
  };
}

/**
 * The route resolver's steps for each model endpoint, in order: the developer key from the headers,
 * then the body (JSON up to 20 MB, or a multipart upload for transcriptions; read only for a known key), then the route and candidates.
 */
export function routeResolverHandlers(deps: RouteResolverDeps): Record<ModelEndpoint, RequestHandler[]> {
  const authenticate = requireDeveloperKey(deps.services.developerKeys);
  const body = jsonBody({ limitBytes: deps.bodyLimitBytes, maxDepth: deps.maxJsonDepth });
  const upload = multipartBody({ fileLimitBytes: deps.uploadLimitBytes ?? 25 * 1024 * 1024 });
  const steps = (endpoint: ModelEndpoint): RequestHandler[] => [authenticate, endpoint === 'transcriptions' ? upload : body, resolver(endpoint, deps)];
  return Object.fromEntries((Object.keys(ENDPOINT_PATHS) as ModelEndpoint[]).map((endpoint) => [endpoint, steps(endpoint)])) as Record<ModelEndpoint, RequestHandler[]>;
}

/**
 * Creates the route resolver router for the model endpoints (chat, completions, embeddings, moderations, images, audio).
 * It must run before the rate limiter, the guardrail pipeline and the proxy.
 */
export function routeResolverRouter(deps: RouteResolverDeps): Router {
  const router = Router();
  const handlers = routeResolverHandlers(deps);
  for (const endpoint of Object.keys(ENDPOINT_PATHS) as ModelEndpoint[]) {
    router.post(ENDPOINT_PATHS[endpoint], ...handlers[endpoint]);
  }
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(deps.logger));
  return router;
}
