// Resolves a model request once, for every endpoint that calls providers: developer key, application, route and candidates.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { identifyCaller } from '../auth/caller-identity.js';
import { Errors } from '../errors/error-registry.js';
import { routeOfModel } from '../models/route-model-id.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { AbortFlag } from './attempt-timer.js';
import { requestTraceOf } from '../observability/gateway-tracing.js';
import { resolveCandidates } from './candidate-selection.js';
import { setModelContext, type ModelRequestContext, type RouteRecord } from './model-request-context.js';
import type { ProviderDirectory } from './provider-directory.js';

/** The route name used for requests without X-Gateway-route: an implicit unified route with default settings. */
export const IMPLICIT_ROUTE = '(unified)';

/** What resolution needs. */
export interface ResolutionDeps {
  services: AdminServices;
  directory: ProviderDirectory;
  random?: () => number;
}

/**
 * Authenticates the developer key (401; admin keys are refused; a client's Bearer is never passed upstream), checks its application is enabled (403),
 * finds the route of X-Gateway-route (404 unknown, 403 disabled, 400 when its type is not one of
 * `routeTypes`), picks the candidate providers, and attaches the new context to the request.
 */
export async function resolveModelRequest(
  req: Request,
  res: Response,
  deps: ResolutionDeps,
  request: { endpoint: ModelEndpoint; body: Record<string, unknown>; model: unknown; stream: boolean; routeTypes: string[] },
): Promise<ModelRequestContext> {
  // Usually cached by requireDeveloperKey, which ran before the body was read.
  const caller = await identifyCaller(req, deps.services.developerKeys, { bearer: true });
  if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey or Authorization']);
  const application = await deps.services.storage.getCached<{ enabled?: boolean }>(`applications/${caller.application}`);
  if (!application || application.enabled === false) throw Errors.applicationDisabled([caller.application]);

  const header = req.headers['x-gateway-route'];
  // Without the header, `model: "route:<name>"` (as GET /v1/models lists routes) names the route.
  const routeName = typeof header === 'string' && header !== '' ? header : (routeOfModel(request.model) ?? IMPLICIT_ROUTE);
  res.setHeader('x-gateway-route', routeName);
  let route: Readonly<RouteRecord> | undefined;
  if (routeName !== IMPLICIT_ROUTE) {
    route = await deps.directory.route(routeName);
    if (!route) throw Errors.notFound(['route', routeName]);
    if (route.enabled === false) throw Errors.routeDisabled([routeName]);
    if (route.type !== undefined && route.models?.length && !request.routeTypes.includes(route.type)) {
      throw Errors.routeTypeMismatch([routeName, route.type, request.routeTypes[0] ?? request.endpoint]);
    }
  }
  const context: ModelRequestContext = {
    id: randomUUID(),
    startedAt: Date.now(),
    endpoint: request.endpoint,
    application: caller.application,
    developerKeyId: caller.keyId,
    route: route as RouteRecord | undefined,
    routeName,
    body: request.body,
    stream: request.stream,
    candidates: await resolveCandidates(deps.directory, route, routeName, { model: request.model }, deps.random),
    attempts: [],
    abort: new AbortFlag(),
    checks: [],
    trace: requestTraceOf(req)?.context,
  };
  res.on('close', () => {
    if (!res.writableFinished) context.abort.abort();
  });
  setModelContext(req, context);
  return context;
}
