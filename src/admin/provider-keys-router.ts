// Admin endpoints for a provider's API keys, scoped by the required x-gateway-namespace header.
import { Router, type Request } from 'express';
import { adminOf } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { checkNamespace } from './provider-key-store.js';
import { objectBody, pathParam } from './request-body.js';

/** `GET /providers/:providername/keys`, `GET|POST|PUT|DELETE /providers/:providername/keys/:keyname`. */
export function providerKeysRouter(services: AdminServices): Router {
  const router = Router();
  const { providers, providerKeys } = services;

  /** The provider (which must exist) and namespace of a key request. */
  const scope = async (req: Request): Promise<{ provider: string; namespace: string }> => {
    const namespace = checkNamespace(req.headers['x-gateway-namespace']);
    const provider = (await providers.get(pathParam(req, 'providername'))).name;
    return { provider, namespace };
  };

  router.get('/providers/:providername/keys', async function listProviderKeys(req, res) {
    const { provider, namespace } = await scope(req);
    res.json((await providerKeys.list(provider, namespace)).map((key) => providerKeys.present(key)));
  });
  router.post('/providers/:providername/keys/:keyname', async function createProviderKey(req, res) {
    const { provider, namespace } = await scope(req);
    const name = pathParam(req, 'keyname');
    const record = providerKeys.prepare(objectBody(req), { provider, namespace, name, actor: adminOf(req).name });
    await providerKeys.insert(record);
    res.status(201).json({ message: `API key ${name} created` });
  });
  router.get('/providers/:providername/keys/:keyname', async function getProviderKey(req, res) {
    const { provider, namespace } = await scope(req);
    res.json(providerKeys.present(await providerKeys.get(provider, namespace, pathParam(req, 'keyname'))));
  });
  router.put('/providers/:providername/keys/:keyname', async function updateProviderKey(req, res) {
    const { provider, namespace } = await scope(req);
    const name = pathParam(req, 'keyname');
    await providerKeys.update(provider, namespace, name, objectBody(req), adminOf(req).name);
    res.json({ message: `API key ${name} updated` });
  });
  router.delete('/providers/:providername/keys/:keyname', async function deleteProviderKey(req, res) {
    const { provider, namespace } = await scope(req);
    const name = pathParam(req, 'keyname');
    await providerKeys.remove(provider, namespace, name);
    res.json({ message: `API key ${name} deleted` });
  });
  return router;
}
