// GET /v1/models and GET /v1/models/:id: what the caller's developer key may name as `model`, in OpenAI's list shape.
import { Router, type Request } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { requireEnabledApplication } from '../auth/application-gate.js';
import { identifyCaller } from '../auth/caller-identity.js';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { ModelCatalog } from './model-catalog.js';

/** The path of the model list. */
export const MODELS_PATH = '/v1/models';

/** What the router needs. */
export interface ModelsRouterDeps {
  services: AdminServices;
  catalog: ModelCatalog;
  logger?: GatewayLogger;
}

/** Authenticates the developer key (X-Gateway-Apikey or Bearer) and checks its application is enabled, as the model endpoints do. */
async function authorise(req: Request, services: AdminServices): Promise<void> {
  const caller = await identifyCaller(req, services.developerKeys, { bearer: true });
  if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey or Authorization']);
  await requireEnabledApplication(services.storage, caller.application);
}

/**
 * Creates the models router: `GET /v1/models` answers `{object: 'list', data: [...]}`; `GET /v1/models/:id`
 * one model (ids may hold `/`, sent raw or as `%2F`), or 404 `not_found`. Both need a developer key.
 * @example
 * app.use(modelsRouter({ services, catalog: new ModelCatalog(storage, plugins) }));
 */
export function modelsRouter(deps: ModelsRouterDeps): Router {
  const router = Router();
  router.get(MODELS_PATH, async function listModels(req, res) {
    await authorise(req, deps.services);
    res.json({ object: 'list', data: await deps.catalog.list() });
  });
  router.get(`${MODELS_PATH}/*id`, async function retrieveModel(req, res) {
    await authorise(req, deps.services);
    const id = ([] as string[]).concat((req.params as { id: string | string[] }).id).join('/');
    const entry = await deps.catalog.get(id);
    if (!entry) throw Errors.notFound(['model', JSON.stringify(id.slice(0, 200))], { param: 'model' });
    res.json(entry);
  });
  router.use(MODELS_PATH, errorMiddleware(deps.logger));
  return router;
}
