// Seeds providers, routes, applications (with policies) and MCP registries (with policies) from a GATEWAY_CONFIG file through the running admin API.
import { readGatewayConfig } from '../src/cli/config-file.js';

/**
 * Creates every item of the config file (YAML or JSON; see the CLI's gateway.yaml) that does not exist yet
 * (existing names are left as they are), through the admin API, so seeding goes through the same validation
 * as any request. Throws, naming every problem, when the file does not pass its checks. When a request fails,
 * the items this run created are deleted again before it throws: an application whose policy was refused must
 * not stay behind without it, since the next start would find it and leave it as it is.
 */
export async function seedFromConfig(file: string, baseUrl: string, adminKey: string, log: (line: string) => void): Promise<void> {
  const result = await readGatewayConfig(file);
  if (!result.ok) throw new Error(`${file}: ${result.problems.map((problem) => problem.message).join(' ')}`);
  const { config } = result;
  const headers = { 'content-type': 'application/json', 'x-api-key': adminKey };
  /** Answers false when the item already exists (409), so its follow-up (a policy) is left alone too. */
  const send = async (method: string, path: string, body: unknown): Promise<boolean> => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
    if (response.status === 409) {
      log(`seed: ${path} ${String((body as { name?: string }).name ?? '')} exists, left as it is`);
      return false;
    }
    if (!response.ok) throw new Error(`seed: ${method} ${path} failed with ${response.status}: ${await response.text()}`);
    return true;
  };
  /** The paths of the items this run created, to delete them again if a later request fails. */
  const created: string[] = [];
  const create = async (collection: string, item: { name?: unknown }): Promise<boolean> => {
    const made = await send('POST', collection, item);
    if (made) created.push(`${collection}/${encodeURIComponent(String(item.name))}`);
    return made;
  };
  try {
    for (const provider of config.providers ?? []) await create('/v1/admin/providers', provider);
    for (const route of config.routes ?? []) await create('/v1/admin/routes', route);
    for (const { policy, ...application } of config.applications ?? []) {
      const made = await create('/v1/admin/applications', application);
      if (made && policy) await send('PUT', `/v1/admin/applications/${encodeURIComponent(String(application.name))}/policy`, policy);
    }
    for (const { policies, ...registry } of config.registries ?? []) {
      const made = await create('/v1/admin/mcp/registries', registry);
      if (made && policies) await send('PUT', `/v1/admin/mcp/registries/${encodeURIComponent(String(registry.name))}/policies`, policies);
    }
  } catch (error) {
    for (const path of created.reverse()) await fetch(`${baseUrl}${path}`, { method: 'DELETE', headers }).catch(() => undefined);
    throw new Error(`${(error as Error).message} (the ${created.length} item(s) this run created were deleted again)`);
  }
  log(`seed: applied ${file}`);
}
