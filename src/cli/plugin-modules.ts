// Loads custom plugin modules named by path or package: each module's default export is a plugin or an array of plugins.
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GatewayPlugin } from '../plugins/plugin-types.js';

/** Where `specifier` is: an absolute path (a path is taken relative to `baseDir`; a package is resolved from `baseDir`), or the bare name when it cannot be resolved from there. */
export function locatePluginModule(specifier: string, baseDir: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolve(baseDir, specifier);
  try {
    return createRequire(resolve(baseDir, 'gateway.config')).resolve(specifier);
  } catch {
    return specifier;
  }
}

function pluginsOf(moduleNamespace: Record<string, unknown>, specifier: string): GatewayPlugin[] {
  const exported = moduleNamespace.default ?? moduleNamespace.plugins;
  const plugins = Array.isArray(exported) ? exported : [exported];
  if (plugins.length === 0 || plugins.some((plugin) => plugin === null || typeof plugin !== 'object' || typeof (plugin as GatewayPlugin).kind !== 'string')) {
    throw new Error(`the plugin module ${specifier} must export a plugin (defineGuardrail, defineProvider or defineStorage) or an array of plugins as its default export`);
  }
  return plugins as GatewayPlugin[];
}

/**
 * Imports each plugin module in order and answers their plugins, in order.
 * @example
 * const plugins = await loadPluginModules(['./plugins/banned-words.js'], process.cwd());
 */
export async function loadPluginModules(specifiers: readonly string[], baseDir: string): Promise<GatewayPlugin[]> {
  const plugins: GatewayPlugin[] = [];
  for (const specifier of specifiers) {
    let moduleNamespace: Record<string, unknown>;
    try {
      const located = locatePluginModule(specifier, baseDir);
      moduleNamespace = (await import(isAbsolute(located) ? pathToFileURL(located).href : located)) as Record<string, unknown>;
    } catch (error) {
      throw new Error(`the plugin module ${specifier} cannot be loaded: ${(error as Error).message}`);
    }
    plugins.push(...pluginsOf(moduleNamespace, specifier));
  }
  return plugins;
}

/** The plugin modules named in `GATEWAY_PLUGINS`: a comma-separated list of paths (relative to the working directory) or packages. */
export function pluginModulesFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '');
}
