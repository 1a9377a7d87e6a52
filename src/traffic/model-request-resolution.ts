// Resolves a model request once, for every endpoint that calls providers: developer key, application, route and candidates.
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { callerOf, identifyCaller } from '../auth/caller-identity.js';
import { Errors } from '../errors/error-registry.js';
import { routeOfModel } from '../models/route-model-id.js';
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { AbortFlag } from './attempt-timer.js';
import { headerValue } from './gateway-headers.js';
import { requestRecordOf } from '../observability/request-record.js';
import { cachedRouteCandidates, cachedUnifiedCandidates, resolveCandidates } from './candidate-selection.js';
import { setModelContext, type Candidate, type ModelRequestContext, type RouteRecord } from './model-request-context.js';
import type { ProviderDirectory } from './provider-directory.js';

/** The route name used for requests without X-Gateway-route: an implicit unified route with default settings. */
export const IMPLICIT_ROUTE = '(unified)';

/** What resolution reads of the caller's application record. */
type ApplicationRecord = { enabled?: boolean; created_at?: string };

/** What resolution needs. */
export interface ResolutionDeps {
  services: AdminServices;
  directory: ProviderDirectory;
  random?: () => number;
}

/** What a model request asks to be resolved. */
export interface ModelRequestAsk {
  endpoint: ModelEndpoint;
  body: Record<string, unknown>;
  model: unknown;
  stream: boolean;
  routeTypes: string[];
}

/** The route name a request names: X-Gateway-route, else `model: "route:<name>"`, else the implicit unified route. */
function routeNameOf(req: Request, request: ModelRequestAsk): string {
  const header = req.headers['x-gateway-route'];
  // Without the header, `model: "route:<name>"` (as GET /v1/models lists routes) names the route.
  return typeof header === 'string' && header !== '' ? header : (routeOfModel(request.model) ?? IMPLICIT_ROUTE);
}

/** Refuses a route that does not exist (404), is disabled (403) or has another type than the endpoint's (400). */
function checkRoute(route: Readonly<RouteRecord> | undefined, routeName: string, request: ModelRequestAsk): asserts route is Readonly<RouteRecord> {
  if (!route) throw Errors.notFound(['route', routeName]);
  if (route.enabled === false) throw Errors.routeDisabled([routeName]);
  if (route.type !== undefined && route.models?.length && !request.routeTypes.includes(route.type)) {
    throw Errors.routeTypeMismatch([routeName, route.type, request.routeTypes[0] ?? request.endpoint]);
  }
}

/** Builds the context and attaches it to the request. */
function attachContext(
  req: Request,
  res: Response,
  request: ModelRequestAsk,
  caller: { application: string; keyId: string },
  incarnation: string | undefined,
  route: Readonly<RouteRecord> | undefined,
  routeName: string,
  candidates: Candidate[],
): ModelRequestContext {
  const record = requestRecordOf(req);
  const context: ModelRequestContext = {
    id: randomUUID(),
    requestId: record?.id,
    startedAt: Date.now(),
    endpoint: request.endpoint,
    application: caller.application,
    incarnation: incarnation ?? '',
    developerKeyId: caller.keyId,
    route: route as RouteRecord | undefined,
    routeName,
    body: request.body,
    stream: request.stream,
    candidates,
    attempts: [],
    abort: new AbortFlag(),
    checks: [],
    trace: record?.trace?.context,
  };
  const left = (): void => {
    if (!res.writableFinished) context.abort.abort();
  };
  // A client that left while the request was resolved has had its 'close' already: it never comes again.
  if (res.closed) left();
  else res.on('close', left);
  setModelContext(req, context);
  return context;
}

/**
 * {@link resolveModelRequest} from cached records alone, with no promise: the caller already identified, and its
 * application, its route (a custom one, or a unified one whose model index is built) and the providers all cached.
 * Undefined when anything must be read; the same errors as the full resolution otherwise.
 */
function resolveFromCache(req: Request, res: Response, deps: ResolutionDeps, request: ModelRequestAsk): ModelRequestContext | undefined {
  const caller = callerOf(req);
  if (caller?.kind !== 'application') return undefined;
  const application = deps.services.storage.peekCached<ApplicationRecord>(`applications/${caller.application}`);
  if (!application) return undefined;
  if (!application.value || application.value.enabled === false) throw Errors.applicationDisabled([caller.application]);
  const routeName = routeNameOf(req, request);
  let route: Readonly<RouteRecord> | undefined;
  if (routeName !== IMPLICIT_ROUTE) {
    const cached = deps.directory.peekRoute(routeName);
    if (!cached) return undefined;
    route = cached.value;
  }
  res.setHeader('x-gateway-route', headerValue(routeName));
  if (routeName !== IMPLICIT_ROUTE) checkRoute(route, routeName, request);
  const candidates = route?.models?.length
    ? cachedRouteCandidates(deps.directory, route, routeName, deps.random)
    : cachedUnifiedCandidates(deps.directory, request.model);
  return candidates && attachContext(req, res, request, caller, application.value.created_at, route, routeName, candidates);
}

/**
 * Authenticates the developer key (401; admin keys are refused; a client's Bearer is never passed upstream), checks its application is enabled (403),
 * finds the route of X-Gateway-route (404 unknown, 403 disabled, 400 when its type is not one of
 * `routeTypes`), picks the candidate providers, and attaches the new context to the request.
 */
export function resolveModelRequest(req: Request, res: Response, deps: ResolutionDeps, request: ModelRequestAsk): ModelRequestContext | Promise<ModelRequestContext> {
  return resolveFromCache(req, res, deps, request) ?? resolveFromStorage(req, res, deps, request);
}

/** The full resolution, reading what is not cached. */
async function resolveFromStorage(req: Request, res: Response, deps: ResolutionDeps, request: ModelRequestAsk): Promise<ModelRequestContext> {
  // Usually cached by requireDeveloperKey, which ran before the body was read.
  const caller = await identifyCaller(req, deps.services.developerKeys, { bearer: true });
  if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey or Authorization']);
  const application = await deps.services.storage.getCached<ApplicationRecord>(`applications/${caller.application}`);
  if (!application || application.enabled === false) throw Errors.applicationDisabled([caller.application]);

  const routeName = routeNameOf(req, request);
  res.setHeader('x-gateway-route', headerValue(routeName));
  let route: Readonly<RouteRecord> | undefined;
  if (routeName !== IMPLICIT_ROUTE) {
    route = await deps.directory.route(routeName);
    checkRoute(route, routeName, request);
  }
  const candidates = await resolveCandidates(deps.directory, route, routeName, { model: request.model }, deps.random);
  return attachContext(req, res, request, { application: caller.application, keyId: caller.keyId }, application.created_at, route, routeName, candidates);
}
