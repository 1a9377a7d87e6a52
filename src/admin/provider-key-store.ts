// Provider API keys, stored per provider and namespace, sealed at rest and shown masked.
import { Errors } from '../errors/error-registry.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { isMaskOf, maskSecret, SEALED_SECRET_MASK } from '../secrets/mask-secret.js';
import type { Storage } from '../storage/storage-facade.js';
import { compileValidator } from '../validation/schema-validator.js';
import { SERVER_SET_FIELDS } from './schemas/common-schemas.js';
import { withoutServerFields } from './resource-collection.js';
import { providerKeySchema } from './schemas/resource-schemas.js';

/** Key fields that are secrets: sealed at rest, masked in answers. */
export const PROVIDER_KEY_SECRET_FIELDS = ['api_key', 'api_key_secret_key'] as const;

/** Every field of the spec's API key table, plus the namespace. */
export const PROVIDER_KEY_FIELDS = [
  'api_key', 'api_key_secret_key', 'api_key_secret_key_gateway', 'api_key_secret_name', 'enabled', 'group',
  'header_key', 'query_param_key', 'organization', 'provider_name', 'namespace',
  'created_at', 'modified_at', 'created_by', 'modified_by',
] as const;

/** The namespace used for keys given inline in a provider's `api_keys`. */
export const DEFAULT_NAMESPACE = 'default';

/** A stored provider key (secrets sealed). */
export interface StoredProviderKey {
  api_key: string;
  api_key_secret_key?: string;
  api_key_secret_name: string;
  enabled: boolean;
  header_key?: string;
  query_param_key?: string;
  provider_name: string;
  namespace: string;
  created_at: string;
  modified_at: string;
  created_by: string;
  modified_by: string;
  [field: string]: unknown;
}

/** A provider key ready for use on a request: clear value and placement. */
export interface UsableProviderKey {
  name: string;
  value: string;
  headerKey?: string;
  queryParamKey?: string;
}

const validateKey = compileValidator<Record<string, unknown>>(providerKeySchema);
const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$/;

/** Checks a namespace header value: required, and a valid name. */
export function checkNamespace(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw Errors.missingHeader(['x-gateway-namespace'], { param: 'x-gateway-namespace' });
  if (!NAMESPACE_PATTERN.test(value)) {
    throw Errors.validation(['The header x-gateway-namespace must be letters, digits and _ . : @ -.'], { param: 'x-gateway-namespace' });
  }
  return value;
}

/** Provider keys in storage, under `provider-keys/<provider>/<namespace>/<name>`. */
export class ProviderKeyStore {
  /** Opened usable keys per provider and namespace, dropped on any key write. */
  private readonly usableCache = new Map<string, Promise<UsableProviderKey[]>>();

  constructor(
    private readonly storage: Storage,
    private readonly box: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {
    storage.onWrite((key) => {
      if (key === undefined || key.startsWith('provider-keys/')) this.usableCache.clear();
    });
  }

  private key(provider: string, namespace: string, name: string): string {
    return `provider-keys/${provider}/${namespace}/${name}`;
  }

  /** The key as answers show it: every field, secrets masked. */
  present(stored: StoredProviderKey): Record<string, unknown> {
    const shown: Record<string, unknown> = {};
    for (const field of PROVIDER_KEY_FIELDS) shown[field] = stored[field] ?? null;
    for (const field of PROVIDER_KEY_SECRET_FIELDS) {
      const sealed = stored[field];
      if (typeof sealed === 'string') shown[field] = this.maskStored(sealed);
    }
    return shown;
  }

  private maskStored(sealed: string): string {
    try {
      return maskSecret(this.box.open(sealed));
    } catch {
      return SEALED_SECRET_MASK;
    }
  }

  async list(provider: string, namespace: string): Promise<StoredProviderKey[]> {
    const entries = await this.storage.list<StoredProviderKey>(`provider-keys/${provider}/${namespace}/`);
    return entries.map((entry) => entry.value);
  }

  /** Every key of a provider, in every namespace. */
  async listAll(provider: string): Promise<StoredProviderKey[]> {
    const entries = await this.storage.list<StoredProviderKey>(`provider-keys/${provider}/`);
    return entries.map((entry) => entry.value);
  }

  async get(provider: string, namespace: string, name: string): Promise<StoredProviderKey> {
    const stored = await this.storage.get<StoredProviderKey>(this.key(provider, namespace, name));
    if (!stored) throw Errors.notFound(['API key', `${name} (provider ${provider}, namespace ${namespace})`]);
    return stored;
  }

  /**
   * Validates a key body and returns the record to store, secrets sealed. `current` is the stored
   * key on update: its fields fill what the body leaves out, and a masked secret echoed back keeps the stored one.
   */
  prepare(
    body: Record<string, unknown>,
    target: { provider: string; namespace: string; name: string; actor: string },
    current?: StoredProviderKey,
    paramPrefix = '',
  ): StoredProviderKey {
    const changes = withoutServerFields(structuredClone(body));
    for (const [field, expected] of [
      ['api_key_secret_name', target.name],
      ['provider_name', target.provider],
      ['namespace', target.namespace],
    ] as const) {
      if (changes[field] !== undefined && changes[field] !== expected) {
        throw Errors.validation([`The field '${field}' must be ${expected}, as the path says.`], { param: paramPrefix + field });
      }
    }
    const opened: Record<string, unknown> = {};
    if (current) {
      for (const [field, value] of Object.entries(current)) {
        opened[field] = (PROVIDER_KEY_SECRET_FIELDS as readonly string[]).includes(field) && typeof value === 'string' ? this.box.open(value) : value;
      }
      for (const field of PROVIDER_KEY_SECRET_FIELDS) {
        const given = changes[field];
        const existing = opened[field];
        if (typeof given === 'string' && typeof existing === 'string' && isMaskOf(existing, given)) delete changes[field];
      }
      for (const field of SERVER_SET_FIELDS) delete opened[field];
    }
    const merged = { ...opened, ...changes, api_key_secret_name: target.name, provider_name: target.provider, namespace: target.namespace };
    const valid = validateKey(merged, paramPrefix.replace(/\.$/, ''));
    if (typeof valid.api_key !== 'string') throw Errors.validation(["The field 'api_key' is required."], { param: `${paramPrefix}api_key` });
    for (const field of PROVIDER_KEY_SECRET_FIELDS) {
      if (typeof valid[field] === 'string') valid[field] = this.box.seal(valid[field] as string);
    }
    const stamp = this.now().toISOString();
    return {
      ...valid,
      created_at: current?.created_at ?? stamp,
      created_by: current?.created_by ?? target.actor,
      modified_at: stamp,
      modified_by: target.actor,
    } as StoredProviderKey;
  }

  /** Stores a new key; 409 when the name is taken in that namespace. */
  async insert(record: StoredProviderKey): Promise<void> {
    const key = this.key(record.provider_name, record.namespace, record.api_key_secret_name);
    await this.storage.locked(key, async () => {
      if (await this.storage.get(key)) throw Errors.alreadyExists(['API key', record.api_key_secret_name], { param: 'api_key_secret_name' });
      await this.storage.set(key, record);
    });
  }

  /** Updates a key in place under its lock. */
  async update(provider: string, namespace: string, name: string, body: Record<string, unknown>, actor: string): Promise<void> {
    const key = this.key(provider, namespace, name);
    await this.storage.locked(key, async () => {
      const current = await this.get(provider, namespace, name);
      await this.storage.set(key, this.prepare(body, { provider, namespace, name, actor }, current));
    });
  }

  /** Stores a prepared key, replacing any previous one. */
  async put(record: StoredProviderKey): Promise<void> {
    await this.storage.set(this.key(record.provider_name, record.namespace, record.api_key_secret_name), record);
  }

  async remove(provider: string, namespace: string, name: string): Promise<void> {
    const key = this.key(provider, namespace, name);
    await this.storage.locked(key, async () => {
      await this.get(provider, namespace, name);
      await this.storage.delete(key);
    });
  }

  /** Deletes every key of a provider, in every namespace. */
  async removeAll(provider: string): Promise<void> {
    for (const stored of await this.listAll(provider)) {
      await this.storage.delete(this.key(provider, stored.namespace, stored.api_key_secret_name));
    }
  }

  /**
   * The storage keys of provider keys whose provider does not exist (left by a crash during a provider delete or
   * create, or written by a create in progress), by provider. The start-up repair removes them under the provider's lock.
   */
  async orphans(providerExists: (name: string) => Promise<boolean>): Promise<Map<string, string[]>> {
    const byProvider = new Map<string, string[]>();
    const known = new Map<string, boolean>();
    for (const { key, value } of await this.storage.list<StoredProviderKey>('provider-keys/')) {
      const provider = value.provider_name;
      let exists = known.get(provider);
      if (exists === undefined) known.set(provider, (exists = await providerExists(provider)));
      if (exists) continue;
      const keys = byProvider.get(provider) ?? [];
      keys.push(key);
      byProvider.set(provider, keys);
    }
    return byProvider;
  }

  /** The enabled keys of a provider in a namespace, opened for use. A disabled key is never returned. */
  usable(provider: string, namespace: string): Promise<UsableProviderKey[]> {
    const cacheKey = `${provider}/${namespace}`;
    let keys = this.usableCache.get(cacheKey);
    if (!keys) {
      keys = this.loadUsable(provider, namespace);
      this.usableCache.set(cacheKey, keys);
      keys.catch(() => this.usableCache.delete(cacheKey));
    }
    return keys;
  }

  private async loadUsable(provider: string, namespace: string): Promise<UsableProviderKey[]> {
    const keys = await this.list(provider, namespace);
    return keys
      .filter((stored) => stored.enabled !== false)
      .map((stored) => ({
        name: stored.api_key_secret_name,
        value: this.box.open(stored.api_key),
        headerKey: stored.header_key,
        queryParamKey: stored.query_param_key,
      }));
  }
}
