// Request-path lookups of providers and routes, cached in memory and dropped when the admin API writes them.
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import type { ProviderPlugin } from '../plugins/plugin-types.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ProviderRecord, RouteRecord } from './model-request-context.js';

/** Finds routes, providers, their adapters, and which providers list a model. */
export class ProviderDirectory {
  private modelIndex: Promise<Map<string, string[]>> | undefined;
  /** The model index once built, until a provider changes: read without a promise on the request path. */
  private builtIndex: Map<string, string[]> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly plugins: PluginRegistry,
  ) {
    storage.onWrite((key) => {
      if (key === undefined || key.startsWith('providers/')) {
        this.modelIndex = undefined;
        this.builtIndex = undefined;
      }
    });
  }

  route(name: string): Promise<Readonly<RouteRecord> | undefined> {
    return this.storage.getCached<RouteRecord>(`routes/${name}`);
  }

  provider(name: string): Promise<Readonly<ProviderRecord> | undefined> {
    return this.storage.getCached<ProviderRecord>(`providers/${name}`);
  }

  /** The cached copy of a route, without a storage read: `{ value }` when known, undefined when it must be read. */
  peekRoute(name: string): { value: Readonly<RouteRecord> | undefined } | undefined {
    return this.storage.peekCached<RouteRecord>(`routes/${name}`);
  }

  /** The cached copy of a provider, without a storage read: `{ value }` when known, undefined when it must be read. */
  peekProvider(name: string): { value: Readonly<ProviderRecord> | undefined } | undefined {
    return this.storage.peekCached<ProviderRecord>(`providers/${name}`);
  }

  adapter(type: string): ProviderPlugin | undefined {
    return this.plugins.provider(type);
  }

  /** Names of the providers whose `config.models` lists `model`, sorted by name. */
  async providersListing(model: string): Promise<string[]> {
    const building = (this.modelIndex ??= this.buildModelIndex());
    const index = await building;
    // Kept for peeks only while no provider changed since this build began.
    if (this.modelIndex === building) this.builtIndex = index;
    return index.get(model) ?? [];
  }

  /** {@link providersListing} from the built index, without a promise; undefined while the index must be (re)built. */
  peekProvidersListing(model: string): readonly string[] | undefined {
    return this.builtIndex && (this.builtIndex.get(model) ?? []);
  }

  private async buildModelIndex(): Promise<Map<string, string[]>> {
    const index = new Map<string, string[]>();
    for (const { value } of await this.storage.list<ProviderRecord>('providers/')) {
      const models = value.config?.models;
      if (!Array.isArray(models)) continue;
      for (const model of models) {
        if (typeof model !== 'string') continue;
        const owners = index.get(model) ?? [];
        owners.push(value.name);
        index.set(model, owners);
      }
    }
    return index;
  }
}
