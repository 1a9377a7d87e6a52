// Admin endpoints for providers; keys given inline in `api_keys` live in the `default` namespace of the key store.
import { Router } from 'express';
import { Errors } from '../errors/error-registry.js';
import { maskUrlCredentials } from '../secrets/url-credentials.js';
import { adminOf } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { unmaskedUrl } from './masked-urls.js';
import { DEFAULT_NAMESPACE, type StoredProviderKey } from './provider-key-store.js';
import { withoutServerFields, type ResourceRecord } from './resource-collection.js';
import { objectBody, pathParam } from './request-body.js';

/** `GET|POST /providers`, `GET|PUT|DELETE /providers/:providername`. */
export function providersRouter(services: AdminServices): Router {
  const router = Router();
  const { providers, providerKeys, plugins } = services;

  const checkType = (record: ResourceRecord): void => {
    const type = String(record.type);
    if (!plugins.provider(type)) {
      const known = plugins.ofKind('provider').map((plugin) => plugin.name);
      throw Errors.validation([`The provider type '${type}' has no adapter; known: ${known.join(', ') || 'none'}.`], { param: 'type' });
    }
  };

  /** Validates inline keys and returns them prepared, without storing anything. */
  const prepareInlineKeys = async (record: ResourceRecord, actor: string): Promise<StoredProviderKey[] | undefined> => {
    const inline = record.api_keys as Array<Record<string, unknown>> | undefined;
    delete record.api_keys;
    if (inline === undefined) return undefined;
    const existing = new Map((await providerKeys.list(record.name, DEFAULT_NAMESPACE)).map((key) => [key.api_key_secret_name, key]));
    const seen = new Set<string>();
    return inline.map((body, index) => {
      const name = typeof body.api_key_secret_name === 'string' ? body.api_key_secret_name : `key-${index + 1}`;
      if (seen.has(name)) throw Errors.validation([`Two keys are named '${name}'.`], { param: `api_keys[${index}].api_key_secret_name` });
      seen.add(name);
      const target = { provider: record.name, namespace: DEFAULT_NAMESPACE, name, actor };
      return providerKeys.prepare(body, target, existing.get(name), `api_keys[${index}].`);
    });
  };

  const replaceInlineKeys = async (provider: string, keys: StoredProviderKey[]): Promise<void> => {
    const keep = new Set(keys.map((key) => key.api_key_secret_name));
    for (const stored of await providerKeys.list(provider, DEFAULT_NAMESPACE)) {
      if (!keep.has(stored.api_key_secret_name)) await providerKeys.remove(provider, DEFAULT_NAMESPACE, stored.api_key_secret_name);
    }
    for (const key of keys) await providerKeys.put(key);
  };

  /** Drops null fields of inline keys, as answers show unset fields as null and clients echo them. */
  const cleanBody = (body: Record<string, unknown>): Record<string, unknown> => {
    if (!Array.isArray(body.api_keys)) return body;
    const keys = body.api_keys.map((key: unknown) =>
      key !== null && typeof key === 'object' && !Array.isArray(key) ? withoutServerFields(key as Record<string, unknown>) : key,
    );
    return { ...body, api_keys: keys };
  };

  /** The provider's config as answers show it: credentials inside `api_base` masked. */
  const presentConfig = (config: unknown): unknown => {
    const apiBase = (config as Record<string, unknown> | null)?.api_base;
    return typeof apiBase === 'string' ? { ...(config as Record<string, unknown>), api_base: maskUrlCredentials(apiBase) } : config;
  };

  /** Keeps the stored `api_base` when it is sent back masked; refuses a new one that still holds a mask. */
  const keepApiBase = (next: ResourceRecord, current?: ResourceRecord): void => {
    const config = next.config as Record<string, unknown> | undefined;
    if (config?.api_base === undefined) return;
    config.api_base = unmaskedUrl(config.api_base, (current?.config as Record<string, unknown> | undefined)?.api_base, 'config.api_base');
  };

  const present = async (record: ResourceRecord): Promise<Record<string, unknown>> => {
    const keys = await providerKeys.list(record.name, DEFAULT_NAMESPACE);
    const shown = providers.present(record);
    return { ...shown, config: presentConfig(shown.config), api_keys: keys.map((key) => providerKeys.present(key)) };
  };

  router.get('/providers', async function listProviders(_req, res) {
    res.json(await Promise.all((await providers.list()).map(present)));
  });
  router.post('/providers', async function createProvider(req, res) {
    const actor = adminOf(req).name;
    const record = providers.prepareCreate(cleanBody(objectBody(req)), actor);
    checkType(record);
    keepApiBase(record);
    const keys = await prepareInlineKeys(record, actor);
    await providers.insert(record, async () => {
      if (keys) await replaceInlineKeys(record.name, keys);
    });
    res.status(201).json({ message: `Provider ${record.name} created` });
  });
  router.get('/providers/:providername', async function getProvider(req, res) {
    res.json(await present(await providers.get(pathParam(req, 'providername'))));
  });
  router.put('/providers/:providername', async function updateProvider(req, res) {
    const actor = adminOf(req).name;
    let keys: StoredProviderKey[] | undefined;
    const record = await providers.update(pathParam(req, 'providername'), cleanBody(objectBody(req)), actor, async (current, next) => {
      checkType(next);
      keepApiBase(next, current);
      keys = await prepareInlineKeys(next, actor);
      if (keys) await replaceInlineKeys(next.name, keys);
    });
    res.json({ message: `Provider ${record.name} updated` });
  });
  router.delete('/providers/:providername', async function deleteProvider(req, res) {
    // Keys go before the provider, so a crash midway never leaves keys a re-created provider would inherit.
    const record = await providers.remove(pathParam(req, 'providername'), (current) => providerKeys.removeAll(current.name));
    res.json({ message: `Provider ${record.name} deleted` });
  });
  return router;
}
