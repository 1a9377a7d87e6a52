// createGateway(): wires storage, secrets, plugins and routers into one gateway object.
import { Router, type RequestHandler } from 'express';
import { AdminKeyring } from './admin/admin-auth.js';
import { adminRouter } from './admin/admin-router.js';
import { createAdminServices } from './admin/admin-services.js';
import { builtinPlugins } from './builtin-plugins.js';
import { Errors } from './errors/error-registry.js';
import type { Gateway, GatewayOptions } from './gateway-options.js';
import { GuardrailEngine } from './guardrails/guardrail-engine.js';
import { guardrailRouter } from './guardrails/guardrail-router.js';
import { PluginRegistry } from './plugins/plugin-registry.js';
import type { GatewayPlugin } from './plugins/plugin-types.js';
import { createSecretBox } from './secrets/secret-box.js';
import { memoryStorage } from './storage/memory-storage.js';
import type { StorageAdapter } from './storage/storage-adapter.js';
import { Storage } from './storage/storage-facade.js';

function resolveStorage(option: GatewayOptions['storage'], plugins: PluginRegistry): StorageAdapter {
  if (option === undefined) return memoryStorage();
  if ('use' in option) {
    const plugin = plugins.get(option.use);
    if (plugin?.kind !== 'storage') throw Errors.configInvalid([`storage.use names ${option.use}, which is not a registered storage plugin`]);
    return plugin.create(option.options as never);
  }
  return option;
}

/**
 * Creates a gateway. Mount `gateway.router` (or single routers) in an Express app and await `gateway.ready`.
 * @example
 * const gateway = createGateway({ storage: fileStorage({ dir: './data' }), adminKeys: [{ key, role: 'super_admin' }] });
 * app.use(gateway.router);
 * await gateway.ready;
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  const plugins = new PluginRegistry();
  const guardrails = new GuardrailEngine();
  const register = (plugin: GatewayPlugin): Promise<void> => {
    plugins.add(plugin);
    return plugin.kind === 'guardrail' ? guardrails.add(plugin) : Promise.resolve();
  };

  const initialPlugins = [...(options.builtins === false ? [] : builtinPlugins()), ...(options.plugins ?? [])];
  const setups = initialPlugins.map((plugin) => register(plugin));
  const storage = new Storage(resolveStorage(options.storage, plugins));
  const box = createSecretBox(options.secret);
  const keyring = new AdminKeyring(options.adminKeys ?? []);
  const services = createAdminServices({ storage, box, guardrails, plugins, now: options.now });

  const ready = Promise.all([storage.init(), ...setups]).then(() => undefined);
  ready.catch(() => undefined);
  const awaitReady: RequestHandler = function awaitGatewayReady(_req, _res, next) {
    ready.then(() => next(), next);
  };

  const bodyLimitBytes = options.bodyLimitBytes ?? 1024 * 1024;
  const admin = Router();
  admin.use(awaitReady, adminRouter({ services, keyring, bodyLimitBytes, logger: options.logger }));
  const guardrailsRouter = Router();
  guardrailsRouter.use(
    awaitReady,
    guardrailRouter({ services, keyring, maxTextBytes: options.guardrailMaxTextBytes, logger: options.logger }),
  );
  const router = Router();
  router.use(admin, guardrailsRouter);

  let closed = false;
  return {
    router,
    admin,
    storage,
    plugins,
    guardrails: guardrailsRouter,
    guardrailEngine: guardrails,
    services,
    ready,
    register,
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      await storage.close();
    },
  };
}
