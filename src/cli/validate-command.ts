// `gateway-service validate gateway.yaml`: every problem of the file with its path, and whether its plugin modules load.
import { dirname, resolve } from 'node:path';
import type { ConfigProblem, ConfigResult } from './config-file.js';
import { loadPluginModules } from './plugin-modules.js';

/** The file's problems, with its plugin modules loaded (imported) when the file itself has none. */
export async function validateConfigFile(result: ConfigResult, file: string): Promise<ConfigProblem[]> {
  if (!result.ok) return result.problems;
  const problems: ConfigProblem[] = [];
  const baseDir = dirname(resolve(file));
  for (const [index, specifier] of (result.config.plugins ?? []).entries()) {
    try {
      await loadPluginModules([specifier], baseDir);
    } catch (error) {
      problems.push({ path: `plugins[${index}]`, message: `The field 'plugins[${index}]': ${(error as Error).message}.` });
    }
  }
  return problems;
}

/** One line saying what a valid file holds. */
export function summary(result: ConfigResult & { ok: true }): string {
  const { config } = result;
  const count = (items: unknown[] | undefined, one: string, many: string) => `${items?.length ?? 0} ${items?.length === 1 ? one : many}`;
  return [
    count(config.providers, 'provider', 'providers'),
    count(config.routes, 'route', 'routes'),
    count(config.applications, 'application', 'applications'),
    count(config.registries, 'registry', 'registries'),
    count(config.plugins, 'plugin module', 'plugin modules'),
  ].join(', ');
}
