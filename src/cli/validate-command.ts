// `gateway-service validate gateway.yaml`: every problem of the file with its path, whether its plugin modules load, and what it names among plugins.
import { dirname, resolve } from 'node:path';
import type { ConfigProblem, ConfigResult } from './config-file.js';
import type { GatewayPlugin } from '../plugins/plugin-types.js';
import { loadPluginModules } from './plugin-modules.js';
import { pluginReferenceProblems } from './plugin-references.js';

/** The file's problems; when its shape has none, its plugin modules are loaded (imported) and what it names among plugins is checked. */
export async function validateConfigFile(result: ConfigResult, file: string): Promise<ConfigProblem[]> {
  if (!result.ok) return result.problems;
  const problems: ConfigProblem[] = [];
  const baseDir = dirname(resolve(file));
  const plugins: GatewayPlugin[] = [];
  for (const [index, specifier] of (result.config.plugins ?? []).entries()) {
    try {
      plugins.push(...(await loadPluginModules([specifier], baseDir)));
    } catch (error) {
      problems.push({ path: `plugins[${index}]`, message: `The field 'plugins[${index}]': ${(error as Error).message}.` });
    }
  }
  if (problems.length > 0) return problems;
  return pluginReferenceProblems(result.config, plugins);
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
