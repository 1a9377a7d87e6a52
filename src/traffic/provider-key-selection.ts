// Picks the credential for an upstream attempt: the route's virtual key, else the provider's first enabled key; never a client's credential.
import type { ProviderKeyStore } from '../admin/provider-key-store.js';
import { DEFAULT_NAMESPACE } from '../admin/provider-key-store.js';
import { Errors } from '../errors/error-registry.js';
import type { ProviderRequestContext } from '../plugins/plugin-types.js';
import type { Candidate } from './model-request-context.js';

/**
 * The key to send to `candidate`'s provider. Keys are read from the namespace in the provider's
 * `config.namespace` (default `default`). A disabled key is never used. Whatever credential the client
 * sent (its `Authorization` header included) is never passed upstream.
 */
export async function selectProviderKey(
  candidate: Candidate,
  keys: ProviderKeyStore,
): Promise<ProviderRequestContext['apiKey']> {
  const namespace = typeof candidate.provider.config.namespace === 'string' ? candidate.provider.config.namespace : DEFAULT_NAMESPACE;
  const virtualKey = candidate.routeModel?.virtual_secret_key;
  if (virtualKey !== undefined) {
    const key = (await keys.usable(candidate.provider.name, namespace)).find((usable) => usable.name === virtualKey);
    if (!key) throw Errors.providerKeyUnavailable([virtualKey, candidate.provider.name]);
    return { value: key.value, headerKey: key.headerKey, queryParamKey: key.queryParamKey };
  }
  const first = (await keys.usable(candidate.provider.name, namespace))[0];
  return first ? { value: first.value, headerKey: first.headerKey, queryParamKey: first.queryParamKey } : undefined;
}
