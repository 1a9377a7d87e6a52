// Registers plugins by name and kind: rejects duplicates and unmet dependencies with coded errors.
import { Errors } from '../errors/error-registry.js';
import { pluginShapeProblem } from './plugin-shape.js';
import type { GatewayPlugin, GuardrailPlugin, PluginKind, ProviderPlugin, StoragePlugin } from './plugin-types.js';

const KINDS: readonly PluginKind[] = ['guardrail', 'provider', 'storage'];

/** The plugins of one gateway, by name. */
export class PluginRegistry {
  private readonly plugins = new Map<string, GatewayPlugin>();

  /**
   * Checks the plugin (its metadata, and the calls its kind needs: see `pluginShapeProblem`) and records it.
   * Throws `plugin_duplicate`, `plugin_dependency_missing` or `plugin_invalid`, and then records nothing.
   */
  add(plugin: GatewayPlugin): void {
    this.check(plugin);
    this.plugins.set(plugin.name, plugin);
  }

  /** What {@link add} checks, without recording the plugin. */
  check(plugin: GatewayPlugin): void {
    if (!plugin || typeof plugin !== 'object') throw Errors.pluginInvalid(['a plugin must be an object']);
    if (typeof plugin.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(plugin.name)) {
      throw Errors.pluginInvalid([`the name ${JSON.stringify(plugin.name)} must be 1-64 characters of letters, digits, _ . -`]);
    }
    if (!KINDS.includes(plugin.kind)) {
      throw Errors.pluginInvalid([`the kind of ${plugin.name} must be one of ${KINDS.join(', ')}`]);
    }
    const problem = pluginShapeProblem(plugin);
    if (problem !== undefined) throw Errors.pluginInvalid([problem]);
    if (this.plugins.has(plugin.name)) throw Errors.pluginDuplicate([plugin.name]);
    for (const dependency of plugin.dependencies ?? []) {
      if (!this.plugins.has(dependency)) throw Errors.pluginDependency([plugin.name, dependency]);
    }
  }

  /** The plugin registered under `name`, if any. */
  get(name: string): GatewayPlugin | undefined {
    return this.plugins.get(name);
  }

  /** Every plugin of one kind, in registration order. */
  ofKind(kind: 'guardrail'): Array<GuardrailPlugin<object, unknown>>;
  ofKind(kind: 'provider'): ProviderPlugin[];
  ofKind(kind: 'storage'): Array<StoragePlugin<never>>;
  ofKind(kind: PluginKind): GatewayPlugin[] {
    return [...this.plugins.values()].filter((plugin) => plugin.kind === kind);
  }

  /** The provider adapter named `name`, if any. */
  provider(name: string): ProviderPlugin | undefined {
    const plugin = this.plugins.get(name);
    return plugin?.kind === 'provider' ? plugin : undefined;
  }
}
