// Start-up repair of multi-record writes cut short by a crash: removes records whose owner is gone, so none grants access.
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { AdminServices } from './admin-services.js';
import { chroniclesLog, usageGraphKey } from '../chronicles/chronicles-keys.js';
import { REGISTRY_POLICIES_PREFIX } from '../mcp/registry-service.js';
import { TOOL_STATES_PREFIX } from '../mcp/tool-state-store.js';
import { policyKey } from './applications-router.js';

const POLICY_PREFIX = policyKey('');
const CHRONICLES_PREFIX = chroniclesLog('');
const GRAPH_PREFIX = usageGraphKey('');

/**
 * Removes orphans: developer-key index entries without their key record, key records, policies, request
 * logs and usage graphs of applications that no longer exist, provider keys of providers that no longer exist, and
 * tool states and policies of MCP registries that no longer exist. Deletes
 * are ordered so that these are the only leftovers a crash can make; this makes them disappear at the next start.
 * @example
 * await storage.init();
 * await repairOrphans(services, logger);
 */
export async function repairOrphans(services: AdminServices, logger?: GatewayLogger): Promise<void> {
  const { storage, applications, providers } = services;
  const applicationExists = async (name: string): Promise<boolean> => (await applications.find(name)) !== undefined;
  let removed = await services.developerKeys.repair(applicationExists);
  removed += await services.providerKeys.repair(async (name) => (await providers.find(name)) !== undefined);
  for (const { key } of await storage.list(POLICY_PREFIX)) {
    if (await applicationExists(key.slice(POLICY_PREFIX.length))) continue;
    await storage.delete(key);
    removed++;
  }
  for (const { key } of await storage.list(GRAPH_PREFIX)) {
    if (await applicationExists(key.slice(GRAPH_PREFIX.length))) continue;
    await storage.delete(key);
    removed++;
  }
  for (const log of await storage.listLogs(CHRONICLES_PREFIX)) {
    const application = log.slice(CHRONICLES_PREFIX.length);
    if (application.includes('/') || (await applicationExists(application))) continue;
    for (const hook of services.applicationDeletedHooks) await hook(application);
    removed++;
  }
  // Tool states and policies of a registry that no longer exists: a registration pins tools before storing the record.
  const registryExists = async (name: string): Promise<boolean> => (await services.registries.find(name)) !== undefined;
  for (const prefix of [TOOL_STATES_PREFIX, REGISTRY_POLICIES_PREFIX]) {
    for (const { key } of await storage.list(prefix)) {
      const registry = key.slice(prefix.length).split('/')[0]!;
      if (await registryExists(registry)) continue;
      await storage.delete(key);
      removed++;
    }
  }
  if (removed > 0) logger?.warn('removed records left by an interrupted write', { removed });
}
