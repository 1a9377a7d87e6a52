// Builds the stores behind the admin API once per gateway: resource collections, provider keys, developer keys.
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import type { PluginRegistry } from '../plugins/plugin-registry.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Storage } from '../storage/storage-facade.js';
import { compileValidator } from '../validation/schema-validator.js';
import { DeveloperKeyStore } from './developer-key-store.js';
import { ProviderKeyStore } from './provider-key-store.js';
import { ResourceCollection } from './resource-collection.js';
import { REGISTRY_FIELDS, REGISTRY_SEALED_FIELDS, registrySchema } from '../mcp/registry-records.js';
import { applicationSchema, gatewaySchema, providerSchema, routeSchema, templateSchema } from './schemas/resource-schemas.js';

const STAMPS = ['created_at', 'modified_at', 'created_by', 'modified_by'] as const;

/** Everything the admin routers need, built once. */
export interface AdminServices {
  storage: Storage;
  box: SecretBox;
  guardrails: GuardrailEngine;
  plugins: PluginRegistry;
  templates: ResourceCollection;
  gateways: ResourceCollection;
  providers: ResourceCollection;
  routes: ResourceCollection;
  applications: ResourceCollection;
  registries: ResourceCollection;
  providerKeys: ProviderKeyStore;
  developerKeys: DeveloperKeyStore;
  /** Called after an application is deleted, so other parts drop what they hold for it (its request log). */
  applicationDeletedHooks: Array<(application: string) => Promise<void>>;
  /** Called after a route is updated or deleted, so other parts drop what they hold for it (its rate limiter). */
  routeChangedHooks: Array<(route: string) => void>;
}

/** Creates the admin services over one storage facade. */
export function createAdminServices(deps: {
  storage: Storage;
  box: SecretBox;
  guardrails: GuardrailEngine;
  plugins: PluginRegistry;
  now?: () => Date;
}): AdminServices {
  const { storage, now } = deps;
  const collection = (kind: string, prefix: string, schema: Record<string, unknown>, fields: string[], sealedFields?: readonly string[]): ResourceCollection =>
    new ResourceCollection(storage, { kind, prefix, validate: compileValidator(schema), fields: [...fields, ...STAMPS], sealedFields }, now);
  return {
    ...deps,
    templates: collection('template', 'templates', templateSchema, ['name', 'type', 'description', 'enabled', 'config', 'models']),
    gateways: collection('gateway', 'gateways', gatewaySchema, ['gateway_id', 'name', 'type', 'enabled', 'config']),
    providers: collection('provider', 'providers', providerSchema, ['name', 'type', 'enabled', 'vault_enabled', 'config', 'api_keys']),
    routes: collection('route', 'routes', routeSchema, ['name', 'type', 'models', 'config', 'enabled']),
    applications: collection('application', 'applications', applicationSchema, ['name', 'description', 'enabled', 'budget', 'limits']),
    registries: collection('MCP registry', 'mcp-registries', registrySchema, [...REGISTRY_FIELDS], REGISTRY_SEALED_FIELDS),
    providerKeys: new ProviderKeyStore(storage, deps.box, now),
    developerKeys: new DeveloperKeyStore(storage, now),
    applicationDeletedHooks: [],
    routeChangedHooks: [],
  };
}
