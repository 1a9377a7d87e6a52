// Admin endpoints for routes: unified or custom, with list filters, provider checks and the super_admin-only policy override.
import { isDeepStrictEqual } from 'node:util';
import { Router, type Request } from 'express';
import { Errors } from '../errors/error-registry.js';
import { validateRoutePolicy } from './policy-validation.js';
import { adminOf, assertRole } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import type { ResourceRecord } from './resource-collection.js';
import { queryReader } from './query-parameters.js';
import { objectBody, pathParam } from './request-body.js';

type RouteModel = { name: string; provider: string };
type RouteConfig = { policy?: unknown };

/** The list filters of `GET /routes`: `type`, `enabled`, `provider`, `name` (a prefix); checked before any route is read. */
interface RouteFilters {
  type?: string;
  enabled?: string;
  provider?: string;
  name?: string;
}

const readRouteFilters = queryReader(['type', 'enabled', 'provider', 'name']);

function routeFilters(req: Request): RouteFilters {
  const filters = readRouteFilters(req);
  if (filters.enabled !== undefined && filters.enabled !== 'true' && filters.enabled !== 'false') {
    throw Errors.validation(["The filter 'enabled' must be true or false."], { param: 'enabled' });
  }
  return filters;
}

/** Keeps the routes whose fields match the list filters. */
function matchesFilters(route: ResourceRecord, filters: RouteFilters): boolean {
  const { type, enabled, provider, name } = filters;
  if (type !== undefined && route.type !== type) return false;
  if (enabled !== undefined && String(route.enabled !== false) !== enabled) return false;
  if (provider !== undefined && !((route.models as RouteModel[] | undefined) ?? []).some((m) => m.provider === provider)) return false;
  if (name !== undefined && !route.name.startsWith(name)) return false;
  return true;
}

/** `GET|POST /routes`, `GET|PUT|DELETE /routes/:routename`. */
export function routesRouter(services: AdminServices): Router {
  const router = Router();
  const { routes, providers, guardrails } = services;

  /** Checks what the schema cannot: providers exist, policy processors exist, and only super_admin changes the policy. */
  const checkRoute = async (req: Request, next: ResourceRecord, current?: ResourceRecord): Promise<void> => {
    const models = (next.models as RouteModel[] | undefined) ?? [];
    for (const [index, model] of models.entries()) {
      if (!(await providers.find(model.provider))) {
        throw Errors.validation([`The provider '${model.provider}' does not exist.`], { param: `models[${index}].provider` });
      }
    }
    const policy = (next.config as RouteConfig | undefined)?.policy;
    if (policy !== undefined) validateRoutePolicy(policy, guardrails);
    const before = (current?.config as RouteConfig | undefined)?.policy;
    if (!isDeepStrictEqual(policy, before)) assertRole(req, 'super_admin');
  };

  router.get('/routes', async function listRoutes(req, res) {
    const filters = routeFilters(req);
    const all = await routes.list();
    res.json(all.filter((route) => matchesFilters(route, filters)).map((route) => routes.present(route)));
  });
  router.post('/routes', async function createRoute(req, res) {
    const record = routes.prepareCreate(objectBody(req), adminOf(req).name);
    await checkRoute(req, record);
    await routes.insert(record);
    res.status(201).json({ message: `Route ${record.name} created` });
  });
  router.get('/routes/:routename', async function getRoute(req, res) {
    res.json(routes.present(await routes.get(pathParam(req, 'routename'))));
  });
  router.put('/routes/:routename', async function updateRoute(req, res) {
    const record = await routes.update(pathParam(req, 'routename'), objectBody(req), adminOf(req).name, (current, next) =>
      checkRoute(req, next, current),
    );
    for (const hook of services.routeChangedHooks) hook(record.name);
    res.json({ message: `Route ${record.name} updated` });
  });
  router.delete('/routes/:routename', async function deleteRoute(req, res) {
    // Deleting a route that carries a policy drops the policy: only super_admin may (as for changing it).
    const record = await routes.remove(pathParam(req, 'routename'), (current) => {
      if ((current.config as RouteConfig | undefined)?.policy !== undefined) assertRole(req, 'super_admin');
    });
    for (const hook of services.routeChangedHooks) hook(record.name);
    res.json({ message: `Route ${record.name} deleted` });
  });
  return router;
}
