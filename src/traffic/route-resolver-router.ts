// The route resolver: authenticates the developer key, reads the body, finds the route and the candidate providers.
import { randomUUID } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { identifyCaller } from '../auth/caller-identity.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { jsonBody } from '../http/json-body.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { resolveCandidates } from './candidate-selection.js';
import { ENDPOINT_BODY, ENDPOINT_PATHS } from './model-endpoints.js';
import { setModelContext, type ModelRequestContext, type RouteRecord } from './model-request-context.js';
import type { ProviderDirectory } from './provider-directory.js';

/** The route name used for requests without X-Gateway-route: an implicit unified route with default settings. */
export const IMPLICIT_ROUTE = '(unified)';

/** What the resolver needs. */
export interface RouteResolverDeps {
  services: AdminServices;
  directory: ProviderDirectory;
  bodyLimitBytes: number;
  random?: () => number;
  logger?: GatewayLogger;
}

function resolver(endpoint: ModelEndpoint, deps: RouteResolverDeps): RequestHandler {
  const validateBody = ENDPOINT_BODY[endpoint];
  return async function resolveModelRequest(req, res, next) {
    const caller = await identifyCaller(req, deps.services.developerKeys);
    if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey']);
    const application = await deps.services.storage.getCached<{ enabled?: boolean }>(`applications/${caller.application}`);
    if (!application || application.enabled === false) throw Errors.applicationDisabled([caller.application]);
    if (req.body === undefined) throw Errors.bodyNotObject();
    const body = validateBody(req.body);

    const header = req.headers['x-gateway-route'];
    const routeName = typeof header === 'string' && header !== '' ? header : IMPLICIT_ROUTE;
    res.setHeader('x-gateway-route', routeName);
    let route: Readonly<RouteRecord> | undefined;
    if (routeName !== IMPLICIT_ROUTE) {
      route = await deps.directory.route(routeName);
      if (!route) throw Errors.notFound(['route', routeName]);
      if (route.enabled === false) throw Errors.routeDisabled([routeName]);
      if (route.type !== undefined && route.models?.length && route.type !== endpoint) {
        throw Errors.routeTypeMismatch([routeName, route.type, endpoint]);
      }
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const context: ModelRequestContext = {
      id: randomUUID(),
      startedAt: Date.now(),
      endpoint,
      application: caller.application,
      developerKeyId: caller.keyId,
      route: route as RouteRecord | undefined,
      routeName,
      body,
      stream: body.stream === true,
      candidates: await resolveCandidates(deps.directory, route, routeName, body, deps.random),
      clientBearer: bearer,
      attempts: [],
      abort: new AbortController(),
      checks: [],
    };
    res.on('close', () => {
      if (!res.writableFinished) context.abort.abort();
    });
    setModelContext(req, context);
    next();
  };
}

/**
 * Creates the route resolver router for POST /v1/chat/completions, /v1/completions and /v1/embeddings.
 * It must run before the rate limiter, the guardrail pipeline and the proxy.
 */
export function routeResolverRouter(deps: RouteResolverDeps): Router {
  const router = Router();
  for (const endpoint of Object.keys(ENDPOINT_PATHS) as ModelEndpoint[]) {
    router.post(ENDPOINT_PATHS[endpoint], jsonBody({ limitBytes: deps.bodyLimitBytes }), resolver(endpoint, deps));
  }
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(deps.logger));
  return router;
}
