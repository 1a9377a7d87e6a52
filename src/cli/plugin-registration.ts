// Registers a config file's plugin modules after the built-ins, as a gateway started from the file would, so validate reports what start would refuse.
import { builtinPlugins } from '../builtin-plugins.js';
import { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import type { GatewayPlugin } from '../plugins/plugin-types.js';
import type { ConfigProblem } from './config-file.js';

/** The plugins of one module named in the file's `plugins`, at its index there. */
export interface LoadedPluginModule {
  index: number;
  specifier: string;
  plugins: readonly GatewayPlugin[];
}

/** What a gateway started from the file would have registered: its guardrails (set up) and its provider types. */
export interface RegisteredPlugins {
  engine: GuardrailEngine;
  providerTypes: Set<string>;
  /** One per module whose plugin the gateway would refuse: a name already taken, an invalid plugin, a failed setup. */
  problems: ConfigProblem[];
}

/**
 * Registers the built-ins, then each module's plugins in order, with the checks `createGateway` makes (unique names,
 * dependencies, a guardrail's `evaluate` and options schema, its `setup()`). A module with a plugin refused is one
 * problem naming the module and the reason; its later plugins are not registered.
 * @example
 * const { problems } = await registerPluginModules([{ index: 0, specifier: './plugins/banned-words.js', plugins }]);
 */
export async function registerPluginModules(modules: readonly LoadedPluginModule[]): Promise<RegisteredPlugins> {
  const registry = new PluginRegistry();
  const engine = new GuardrailEngine();
  const register = async (plugin: GatewayPlugin): Promise<void> => {
    registry.check(plugin);
    const installed = plugin.kind === 'guardrail' ? engine.add(plugin) : Promise.resolve();
    registry.add(plugin);
    await installed;
  };
  for (const plugin of builtinPlugins()) await register(plugin);
  const problems: ConfigProblem[] = [];
  for (const { index, specifier, plugins } of modules) {
    try {
      for (const plugin of plugins) await register(plugin);
    } catch (error) {
      const path = `plugins[${index}]`;
      const reason = String((error as Error)?.message ?? error).replace(/\.+$/, '');
      problems.push({ path, message: `The field '${path}': the plugin module ${specifier} cannot be registered: ${reason}.` });
    }
  }
  return { engine, providerTypes: new Set(registry.ofKind('provider').map((plugin) => plugin.name)), problems };
}
