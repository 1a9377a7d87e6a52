// Refuses a developer key whose application is disabled or gone: every endpoint a developer key reaches runs this check.
import { Errors } from '../errors/error-registry.js';
import type { Storage } from '../storage/storage-facade.js';

/**
 * Throws 403 `application_disabled` unless `application` exists and is enabled. A valid developer key alone is not
 * enough: disabling an application must stop its keys on the model endpoints, the MCP proxy, the standalone
 * guardrails, `/v1/models` and stored responses alike. The record is read through the storage cache.
 * @example
 * await requireEnabledApplication(services.storage, caller.application);
 */
export async function requireEnabledApplication(storage: Storage, application: string): Promise<void> {
  const record = await storage.getCached<{ enabled?: boolean }>(`applications/${application}`);
  if (!record || record.enabled === false) throw Errors.applicationDisabled([application]);
}
