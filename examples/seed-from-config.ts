// Seeds providers, routes, applications (with policies) and MCP registries (with policies) from a GATEWAY_CONFIG file through the running admin API.
import { readGatewayConfig } from '../src/cli/config-file.js';

/**
 * Creates every item of the config file (YAML or JSON; see the CLI's gateway.yaml) that does not exist yet
 * (existing names are left as they are), through the admin API, so seeding goes through the same validation
 * as any request. Throws, naming every problem, when the file does not pass its checks.
 */
export async function seedFromConfig(file: string, baseUrl: string, adminKey: string, log: (line: string) => void): Promise<void> {
  const result = await readGatewayConfig(file);
  if (!result.ok) throw new Error(`${file}: ${result.problems.map((problem) => problem.message).join(' ')}`);
  const { config } = result;
  /** Answers false when the item already exists (409), so its follow-up (a policy) is left alone too. */
  const send = async (method: string, path: string, body: unknown): Promise<boolean> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: JSON.stringify(body),
    });
    if (response.status === 409) {
      log(`seed: ${path} ${String((body as { name?: string }).name ?? '')} exists, left as it is`);
      return false;
    }
    if (!response.ok) throw new Error(`seed: ${method} ${path} failed with ${response.status}: ${await response.text()}`);
    return true;
  };
  for (const provider of config.providers ?? []) await send('POST', '/v1/admin/providers', provider);
  for (const route of config.routes ?? []) await send('POST', '/v1/admin/routes', route);
  for (const { policy, ...application } of config.applications ?? []) {
    const created = await send('POST', '/v1/admin/applications', application);
    if (created && policy) await send('PUT', `/v1/admin/applications/${encodeURIComponent(String(application.name))}/policy`, policy);
  }
  for (const { policies, ...registry } of config.registries ?? []) {
    const created = await send('POST', '/v1/admin/mcp/registries', registry);
    if (created && policies) await send('PUT', `/v1/admin/mcp/registries/${encodeURIComponent(String(registry.name))}/policies`, policies);
  }
  log(`seed: applied ${file}`);
}
