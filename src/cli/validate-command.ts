// `gateway-service validate gateway.yaml`: every problem of the file with its path, whether its plugin modules load, and what it names among plugins.
import { dirname, resolve } from 'node:path';
import type { ConfigProblem, ConfigResult } from './config-file.js';
import type { GatewayConfig } from './config-schema.js';
import { loadPluginModules } from './plugin-modules.js';
import { registerPluginModules, type LoadedPluginModule } from './plugin-registration.js';
import { pluginReferenceProblems } from './plugin-references.js';

/** The lists of a file with problems, for the checks that can still run on their items; undefined when the file is not a mapping. */
function checkableConfig(value: unknown): GatewayConfig | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const sections = value as Record<string, unknown>;
  const list = <T>(name: string) => (Array.isArray(sections[name]) ? (sections[name] as T[]) : undefined);
  return { plugins: list('plugins'), providers: list('providers'), routes: list('routes'), applications: list('applications') } as GatewayConfig;
}

/**
 * Every problem of the file: its shape and variables; its plugin modules, loaded (imported); and what its
 * items name among plugins. Items with a problem of their own are left out of the later checks, and so are
 * the references when a plugin module cannot be loaded (its plugins would all be reported missing).
 */
export async function validateConfigFile(result: ConfigResult, file: string): Promise<ConfigProblem[]> {
  const problems = result.ok ? [] : [...result.problems];
  const config = result.ok ? result.config : checkableConfig(result.value);
  if (!config) return problems;
  const faulty = (path: string) => problems.some((problem) => problem.path === path || problem.path.startsWith(`${path}.`) || problem.path.startsWith(`${path}[`));
  const baseDir = dirname(resolve(file));
  const modules: LoadedPluginModule[] = [];
  let unloaded = false;
  for (const [index, specifier] of (config.plugins ?? []).entries()) {
    if (typeof specifier !== 'string' || faulty(`plugins[${index}]`)) continue;
    try {
      modules.push({ index, specifier, plugins: await loadPluginModules([specifier], baseDir) });
    } catch (error) {
      unloaded = true;
      problems.push({ path: `plugins[${index}]`, message: `The field 'plugins[${index}]': ${(error as Error).message}.` });
    }
  }
  if (unloaded) return problems;
  // Registered as start would: a name taken (a built-in's too) or an invalid plugin is a problem here, not a crash there.
  const registered = await registerPluginModules(modules);
  if (registered.problems.length > 0) return [...problems, ...registered.problems];
  const plugins = modules.flatMap((module) => module.plugins);
  return [...problems, ...(await pluginReferenceProblems(config, plugins, (path) => !faulty(path), registered))];
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
