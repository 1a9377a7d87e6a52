// Seeds providers, routes and applications from a GATEWAY_CONFIG JSON file through the running admin API.
import { readFile } from 'node:fs/promises';

/** The shape of a GATEWAY_CONFIG file. Each item is the body its admin endpoint takes. */
export interface SeedConfig {
  providers?: Array<Record<string, unknown>>;
  routes?: Array<Record<string, unknown>>;
  applications?: Array<Record<string, unknown> & { policy?: Record<string, unknown> }>;
}

/**
 * Creates every item of the config file that does not exist yet (existing names are left as they are),
 * through the admin API, so seeding goes through the same validation as any request.
 */
export async function seedFromConfig(file: string, baseUrl: string, adminKey: string, log: (line: string) => void): Promise<void> {
  const config = JSON.parse(await readFile(file, 'utf8')) as SeedConfig;
  const send = async (method: string, path: string, body: unknown): Promise<void> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
      body: JSON.stringify(body),
    });
    if (response.status === 409) {
      log(`seed: ${path} ${String((body as { name?: string }).name ?? '')} exists, left as it is`);
      return;
    }
    if (!response.ok) throw new Error(`seed: ${method} ${path} failed with ${response.status}: ${await response.text()}`);
  };
  for (const provider of config.providers ?? []) await send('POST', '/v1/admin/providers', provider);
  for (const route of config.routes ?? []) await send('POST', '/v1/admin/routes', route);
  for (const { policy, ...application } of config.applications ?? []) {
    await send('POST', '/v1/admin/applications', application);
    if (policy) await send('PUT', `/v1/admin/applications/${encodeURIComponent(String(application.name))}/policy`, policy);
  }
  log(`seed: applied ${file}`);
}
