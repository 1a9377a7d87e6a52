// The models and routes a developer key may name, in OpenAI's model shape: built from storage once, rebuilt after admin writes.
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ProviderRecord, RouteRecord } from '../traffic/model-request-context.js';
import { routeModelId } from './route-model-id.js';

/** One entry of GET /v1/models: OpenAI's model object, with what the gateway knows under `gateway`. */
export interface ModelEntry {
  id: string;
  object: 'model';
  /** Unix seconds: when the provider or route record was created. */
  created: number;
  /** The provider that serves the model, or `gateway` for a route. */
  owned_by: string;
  gateway: { kind: 'model'; provider: string; provider_type: string } | { kind: 'route'; route: string; type: string | null; providers: string[] };
}

type Stamped = { created_at?: string };

const seconds = (record: Stamped): number => {
  const time = record.created_at ? Date.parse(record.created_at) : NaN;
  return Number.isFinite(time) ? Math.floor(time / 1000) : 0;
};

/**
 * Lists what the model endpoints accept as `model`: every model in an enabled provider's `config.models`
 * (bare, as a unified request resolves it; again as `provider/model` when several providers list it), and
 * every enabled custom route as `route:<name>`. Providers whose adapter is not registered are left out.
 */
export class ModelCatalog {
  private built: Promise<Map<string, ModelEntry>> | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly plugins: PluginRegistry,
  ) {
    storage.onWrite((key) => {
      if (key === undefined || key.startsWith('providers/') || key.startsWith('routes/')) this.built = undefined;
    });
  }

  /** Every entry, models first then routes, each sorted by id. */
  async list(): Promise<ModelEntry[]> {
    return [...(await this.entries()).values()];
  }

  /** One entry by id, or undefined. */
  async get(id: string): Promise<ModelEntry | undefined> {
    return (await this.entries()).get(id);
  }

  private entries(): Promise<Map<string, ModelEntry>> {
    if (!this.built) {
      const building = this.build();
      this.built = building;
      building.catch(() => {
        if (this.built === building) this.built = undefined;
      });
    }
    return this.built;
  }

  private async build(): Promise<Map<string, ModelEntry>> {
    const providers = (await this.storage.list<ProviderRecord & Stamped>('providers/'))
      .map((entry) => entry.value)
      .filter((provider) => provider.enabled !== false && this.plugins.provider(provider.type) !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name));
    const owners = new Map<string, Array<ProviderRecord & Stamped>>();
    for (const provider of providers) {
      const models = Array.isArray(provider.config?.models) ? provider.config.models : [];
      for (const model of new Set(models.filter((name): name is string => typeof name === 'string' && name !== ''))) {
        owners.set(model, [...(owners.get(model) ?? []), provider]);
      }
    }
    const models: ModelEntry[] = [];
    const entry = (id: string, provider: ProviderRecord & Stamped): ModelEntry => ({
      id, object: 'model', created: seconds(provider), owned_by: provider.name, gateway: { kind: 'model', provider: provider.name, provider_type: provider.type },
    });
    for (const [model, serving] of owners) {
      models.push(entry(model, serving[0]!));
      if (serving.length > 1) for (const provider of serving) models.push(entry(`${provider.name}/${model}`, provider));
    }
    const enabled = new Set(providers.map((provider) => provider.name));
    const routes = (await this.storage.list<RouteRecord & Stamped>('routes/'))
      .map((item) => item.value)
      .filter((route) => route.enabled !== false && (route.models?.length ?? 0) > 0)
      .map((route): ModelEntry => ({
        id: routeModelId(route.name), object: 'model', created: seconds(route), owned_by: 'gateway',
        gateway: { kind: 'route', route: route.name, type: route.type ?? null, providers: [...new Set(route.models!.map((model) => model.provider))].filter((name) => enabled.has(name)) },
      }))
      .filter((route) => route.gateway.kind === 'route' && route.gateway.providers.length > 0);
    const byId = (a: ModelEntry, b: ModelEntry): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return new Map([...models.sort(byId), ...routes.sort(byId)].map((item) => [item.id, item]));
  }
}
