// `gateway-service start --config gateway.yaml`: checks the file, hands its settings to the example server and runs it in this process.
import { dirname, isAbsolute, resolve } from 'node:path';
import type { GatewayConfig } from './config-schema.js';
import { SERVER_ENV } from './config-schema.js';
import { locatePluginModule } from './plugin-modules.js';

/**
 * The environment the example server reads, from the file's `server` section (a set key wins over the
 * environment), `plugins` (located from the file's folder) and the file itself (seeded at start).
 */
export function serverEnvironment(config: GatewayConfig, file: string): Record<string, string> {
  const baseDir = dirname(resolve(file));
  const env: Record<string, string> = { GATEWAY_CONFIG: resolve(file) };
  for (const [key, value] of Object.entries(config.server ?? {})) {
    const name = SERVER_ENV[key as keyof typeof SERVER_ENV];
    // A list (admin_keys) is handed on as the JSON its variable takes.
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    env[name] = key === 'data_dir' && !isAbsolute(text) ? resolve(baseDir, text) : text;
  }
  if (config.plugins?.length) env.GATEWAY_PLUGINS = config.plugins.map((specifier) => locatePluginModule(specifier, baseDir)).join(',');
  return env;
}

/** Sets the server's environment and starts it; the server then runs until SIGTERM or SIGINT. */
export async function startServer(config: GatewayConfig, file: string): Promise<void> {
  Object.assign(process.env, serverEnvironment(config, file));
  await import('../../examples/server.js');
}
