// The developer key an `mcp` tool's headers may carry for a registry: a valid key of the request's own application, checked before anything runs.
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { Errors } from '../errors/error-registry.js';
import type { McpTarget } from './mcp-server-targets.js';
import type { McpToolEntry } from './responses-types.js';

/** The developer key in a tool's headers (`Authorization: Bearer …` or `X-Gateway-Apikey`, names in any case), if any. */
export function toolHeaderKey(headers: Record<string, string> | undefined): string | undefined {
  let bearer: string | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'x-gateway-apikey' && value !== '') return value;
    if (lower === 'authorization') bearer = /^Bearer\s+(\S+)$/i.exec(value)?.[1];
  }
  return bearer;
}

/**
 * Checks the developer key in the headers of every tool that leads to a registry: an unknown or revoked key is 401,
 * and a key of another application (enabled or not) is 403 `application_forbidden`, as for `x-gateway-application`.
 * A request acts for one application: its key's. Without a key in the headers, the tool runs for that application.
 * @example
 * await checkToolHeaderKeys(mcpEntries, targets, context.application, services.developerKeys);
 */
export async function checkToolHeaderKeys(
  entries: Array<{ entry: McpToolEntry; index: number }>,
  targets: McpTarget[],
  application: string,
  developerKeys: DeveloperKeyStore,
): Promise<void> {
  for (const [at, { entry, index }] of entries.entries()) {
    if (targets[at]?.kind !== 'registry') continue;
    const key = toolHeaderKey(entry.headers);
    if (key === undefined) continue;
    const param = `tools[${index}].headers`;
    const owner = await developerKeys.identify(key);
    if (!owner) throw Errors.invalidApiKey([param], { param });
    if (owner.application !== application) throw Errors.applicationForbidden([param], { param });
  }
}
