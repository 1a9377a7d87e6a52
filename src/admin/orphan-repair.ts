// Start-up repair of multi-record writes cut short by a crash: removes records whose owner is gone, so none grants access.
import type { GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import type { AdminServices } from './admin-services.js';
import { chroniclesLog, usageGraphKey } from '../chronicles/chronicles-keys.js';
import { REGISTRY_POLICIES_PREFIX } from '../mcp/registry-service.js';
import { TOOL_STATES_PREFIX } from '../mcp/tool-state-store.js';
import type { Storage } from '../storage/storage-facade.js';
import { policyKey } from './applications-router.js';

const POLICY_PREFIX = policyKey('');
const CHRONICLES_PREFIX = chroniclesLog('');
const GRAPH_PREFIX = usageGraphKey('');

/**
 * Deletes `keys`, records that belong to the resource stored at `ownerKey`, under that resource's lock and only if it
 * is still missing then. A create writes such records before its own record, under the same lock (shared by every
 * replica on PostgreSQL): a create in progress, in this process or on another replica, is waited for, never cut
 * into. Returns how many were deleted; 0 when the owner exists by then, or when its lock stays taken past the
 * storage's wait (a slow write in progress: the next start looks again).
 */
async function removeUnderOwnerLock(storage: Storage, ownerKey: string, keys: string[], logger?: GatewayLogger): Promise<number> {
  try {
    return await storage.locked(ownerKey, async () => {
      if ((await storage.get(ownerKey)) !== undefined) return 0;
      for (const key of keys) await storage.delete(key);
      return keys.length;
    });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== Errors.storageBusy.code) throw error;
    logger?.warn('left records of a missing resource for the next start: another replica is writing it', { resource: ownerKey });
    return 0;
  }
}

/**
 * Removes orphans: developer-key index entries without their key record, key records, policies, request
 * logs and usage graphs of applications that no longer exist, provider keys of providers that no longer exist, and
 * tool states and policies of MCP registries that no longer exist. Deletes
 * are ordered so that these are the only leftovers a crash can make; this makes them disappear at the next start.
 * Provider keys and a registry's tool states are also what a create in progress writes before its record: they are
 * removed under the provider's or registry's lock, after checking again that it is missing.
 * @example
 * await storage.init();
 * await repairOrphans(services, logger);
 */
export async function repairOrphans(services: AdminServices, logger?: GatewayLogger): Promise<void> {
  const { storage, applications, providers, registries } = services;
  const applicationExists = async (name: string): Promise<boolean> => (await applications.find(name)) !== undefined;
  let removed = await services.developerKeys.repair(applicationExists);
  const providerKeys = await services.providerKeys.orphans(async (name) => (await providers.find(name)) !== undefined);
  for (const [provider, keys] of providerKeys) removed += await removeUnderOwnerLock(storage, providers.key(provider), keys, logger);
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
  // Tool states and policies of a registry that does not exist: a registration pins tools before storing the record.
  const registryKeys = new Map<string, string[]>();
  for (const prefix of [TOOL_STATES_PREFIX, REGISTRY_POLICIES_PREFIX]) {
    for (const { key } of await storage.list(prefix)) {
      const registry = key.slice(prefix.length).split('/')[0]!;
      const listed = registryKeys.get(registry);
      if (listed) listed.push(key);
      else if ((await registries.find(registry)) === undefined) registryKeys.set(registry, [key]);
    }
  }
  for (const [registry, keys] of registryKeys) removed += await removeUnderOwnerLock(storage, registries.key(registry), keys, logger);
  if (removed > 0) logger?.warn('removed records left by an interrupted write', { removed });
}
