// Start-up repair of multi-record writes cut short by a crash: removes records whose owner is gone, so none grants access.
import type { GatewayLogger } from '../errors/error-middleware.js';
import type { AdminServices } from './admin-services.js';
import { chroniclesLog, usageGraphKey } from '../chronicles/chronicles-keys.js';
import { policyKey } from './applications-router.js';

const POLICY_PREFIX = policyKey('');
const CHRONICLES_PREFIX = chroniclesLog('');
const GRAPH_PREFIX = usageGraphKey('');

/**
 * Removes orphans: developer-key index entries without their key record, key records, policies, request
 * logs and usage graphs of applications that no longer exist, and provider keys of providers that no longer exist. Deletes
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
  if (removed > 0) logger?.warn('removed records left by an interrupted write', { removed });
}
